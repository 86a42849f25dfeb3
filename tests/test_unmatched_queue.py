"""The queue of pastes nobody recognised: it keeps nothing unmasked, counts repeats, and no
client can flood it (at most UNMATCHED_PER_ADDRESS_PER_HOUR new pastes per address, at most
UNMATCHED_MAX_ROWS in all)."""

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.utils import timezone

from kb.diagnosis.mask import fingerprint, mask
from kb.models import UnmatchedPaste
from kb.rendering import render_markdown
from kb.triage import TOO_MANY, draft_from_unmatched
from tests.samples import AWS_ID, HF, JWT

OTHER_CLIENT = {"REMOTE_ADDR": "10.0.0.2"}
PRIVATE_PASTE = "\n".join(
    [
        "Traceback (most recent call last):",
        '  File "/home/alice.smith/train.py", line 3, in <module>',
        "ValueError: the frobnicator broke on postgres://alice:S3cret@db:5432/x",
        f"mail alice.smith@example.com, HF_TOKEN={HF} key {AWS_ID}",
        f"Authorization: Bearer {JWT}",
        "cd /home/alice.smith",
    ]
)
PRIVATE = ["alice", "S3cret", "example.com", HF, AWS_ID, JWT]


def unknown(i):
    """A failure nobody knows, another one for each i even once masked (numbers are masked)."""
    name = "".join(chr(ord("a") + int(digit)) for digit in str(i))
    return f"ValueError: the {name} frobnicator broke"


def send(client, endpoint, text, **extra):
    if endpoint == "api":
        body = {"text": text}
        return client.post("/api/diagnose", body, content_type="application/json", **extra)
    if endpoint == "go":
        return client.get("/go", {"q": text}, **extra)
    return client.post("/diagnose", {"q": text}, follow=True, **extra)


def queued(text, count=1, age=timedelta(0)):
    paste = UnmatchedPaste.objects.create(
        fingerprint=f"old-{text}"[:64], masked_text=text, normalised_text=text, count=count
    )
    when = timezone.now() - age
    UnmatchedPaste.objects.filter(pk=paste.pk).update(first_seen=when, last_seen=when)
    paste.refresh_from_db()
    return paste


def test_the_queue_keeps_only_masked_text(client, taxonomy):
    client.post("/diagnose", {"q": PRIVATE_PASTE})

    paste = UnmatchedPaste.objects.get()

    stored = paste.masked_text + paste.normalised_text
    assert [secret for secret in PRIVATE if secret in stored] == []
    assert "ValueError: the frobnicator broke on postgres://<user>:<secret>@db" in stored


def test_a_repeat_counts_and_moves_last_seen(client, taxonomy):
    client.post("/diagnose", {"q": unknown(1)})
    an_hour_ago = timezone.now() - timedelta(hours=1)
    UnmatchedPaste.objects.update(last_seen=an_hour_ago)

    client.post("/diagnose", {"q": unknown(1)}, **OTHER_CLIENT)

    paste = UnmatchedPaste.objects.get()
    assert paste.count == 2 and paste.last_seen > an_hour_ago + timedelta(minutes=59)


@pytest.mark.parametrize("endpoint", ["diagnose", "go", "api"])
def test_an_address_queues_at_most_its_hourly_allowance(client, taxonomy, settings, endpoint):
    settings.UNMATCHED_PER_ADDRESS_PER_HOUR = 3
    allowed = [send(client, endpoint, unknown(i)).status_code for i in range(3)]

    refused = send(client, endpoint, unknown(3))

    assert allowed == [200, 200, 200]
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 3600
    assert TOO_MANY in (refused.json()["error"] if endpoint == "api" else refused.content.decode())
    assert UnmatchedPaste.objects.count() == 3
    assert send(client, endpoint, unknown(3), **OTHER_CLIENT).status_code == 200


def test_repeats_of_a_queued_paste_are_not_limited(client, taxonomy, settings):
    settings.UNMATCHED_PER_ADDRESS_PER_HOUR = 2
    send(client, "diagnose", unknown(0))
    send(client, "diagnose", unknown(1))

    statuses = [send(client, "diagnose", unknown(0)).status_code for _ in range(3)]

    assert statuses == [200, 200, 200]
    assert UnmatchedPaste.objects.get(masked_text=mask(unknown(0))).count == 4


def test_a_full_queue_drops_the_least_seen_oldest_paste_first(client, taxonomy, settings):
    settings.UNMATCHED_MAX_ROWS = 3
    queued("seen often, long ago", count=5, age=timedelta(days=9))
    queued("seen once, two days ago", age=timedelta(days=2))
    queued("seen once, an hour ago", age=timedelta(hours=1))

    send(client, "diagnose", unknown(1))

    assert sorted(UnmatchedPaste.objects.values_list("masked_text", flat=True)) == [
        mask(unknown(1)),
        "seen often, long ago",
        "seen once, an hour ago",
    ]


def test_a_full_queue_keeps_the_pastes_staff_drafted_from(client, taxonomy, settings):
    settings.UNMATCHED_MAX_ROWS = 2
    draft_from_unmatched(queued("drafted, long ago", age=timedelta(days=9)))
    queued("seen once, an hour ago", age=timedelta(hours=1))

    send(client, "diagnose", unknown(1))

    assert sorted(UnmatchedPaste.objects.values_list("masked_text", flat=True)) == [
        mask(unknown(1)),
        "drafted, long ago",
    ]


def test_a_draft_keeps_a_pasted_code_fence_inside_its_code_block(taxonomy):
    paste = queued("KeyError: 'label'\n```\n# Not a heading\n````\nstill the paste")

    html = render_markdown(draft_from_unmatched(paste).explanation)

    assert "<h1" not in html and html.count("<pre") == 1
    assert "# Not a heading" in html and "still the paste" in html.split("</pre>")[0]


def test_the_migration_masks_and_regroups_what_is_already_queued(client, taxonomy):
    migration = importlib.import_module("kb.migrations.0007_mask_unmatched_pastes")
    alice = queued("ValueError: no mail for alice@corp.example", count=2, age=timedelta(days=3))
    UnmatchedPaste.objects.filter(pk=alice.pk).update(normalised_text=PRIVATE_PASTE)
    bob = queued("ValueError: no mail for bob@corp.example", age=timedelta(days=1))
    draft = draft_from_unmatched(bob)

    migration.mask_queued_pastes(apps, None)

    paste = UnmatchedPaste.objects.get()
    assert paste.pk == bob.pk and paste.draft == draft
    assert paste.masked_text == "ValueError: no mail for <email>"
    assert paste.fingerprint == fingerprint(paste.masked_text)
    assert paste.count == 3 and paste.first_seen == alice.first_seen
    client.post("/diagnose", {"q": "ValueError: no mail for carol@corp.example"})
    assert UnmatchedPaste.objects.get().count == 4


def test_the_migration_masks_every_text_it_keeps(taxonomy):
    migration = importlib.import_module("kb.migrations.0007_mask_unmatched_pastes")
    paste = queued(PRIVATE_PASTE)

    migration.mask_queued_pastes(apps, None)

    paste.refresh_from_db()
    stored = paste.masked_text + paste.normalised_text
    assert [secret for secret in PRIVATE if secret in stored] == []
