"""The queue of pastes nobody recognised, and turning one into a draft entry.

Only masked text is stored (kb/diagnosis/mask.py), and the queue is bounded: each client
address adds at most UNMATCHED_PER_ADDRESS_PER_HOUR new pastes an hour, and the queue holds at
most UNMATCHED_MAX_ROWS of them."""

from itertools import groupby

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from kb import ratelimit
from kb.diagnosis import repository
from kb.diagnosis.mask import mask
from kb.diagnosis.result import NO_MATCH
from kb.models import Category, Entry, SampleLine, UnmatchedPaste
from kb.taxonomy.store import record_revision

MAX_STORED_CHARS = 20_000
TRIAGE_CATEGORY = ("untriaged", "Untriaged")
TOO_MANY = (
    "Your address has sent more failures the knowledge base does not know than it takes in an "
    "hour: try again later."
)


def diagnose_and_record(text, request):
    """The diagnosis of a paste, which joins the queue when nobody recognised it: what the
    results page, /go and the API all do (record_unmatched says when that refuses it)."""
    diagnosis = repository.diagnose(text)
    if diagnosis.verdict == NO_MATCH:
        record_unmatched(diagnosis, request)
    return diagnosis


def record_unmatched(diagnosis, request):
    """Queue a paste nobody recognised under its masked fingerprint, or count it again.

    A repeat only counts, whoever sends it. A new paste is counted against its client's
    address (kb.ratelimit.client_address): past UNMATCHED_PER_ADDRESS_PER_HOUR new pastes in
    the hour this raises ratelimit.Limited, and the whole request gets a 429 with a
    Retry-After (kb.middleware.refuse_floods). The paste has been diagnosed by then, but its
    result is not shown: a flood learns it was refused rather than being quietly dropped from
    the queue. When the queue is full, the least-seen pastes make room (`_make_room`).
    """
    if _seen_again(diagnosis.fingerprint):
        return
    ratelimit.count(
        "unmatched",
        ratelimit.client_address(request),
        settings.UNMATCHED_PER_ADDRESS_PER_HOUR,
        3600,
        TOO_MANY,
    )
    _make_room()
    _, created = UnmatchedPaste.objects.get_or_create(
        fingerprint=diagnosis.fingerprint,
        defaults={
            "masked_text": diagnosis.masked,
            # Masked in full, then cut: a cut through masked text cuts only placeholders.
            "normalised_text": mask(diagnosis.normalised.text, MAX_STORED_CHARS)[:MAX_STORED_CHARS],
        },
    )
    if not created:  # another request stored it in the meantime
        _seen_again(diagnosis.fingerprint)


def _seen_again(fingerprint):
    """Count a repeat of a queued paste; False when none is queued. (`update` skips auto_now,
    hence last_seen by hand.)"""
    pastes = UnmatchedPaste.objects.filter(fingerprint=fingerprint)
    return bool(pastes.update(count=F("count") + 1, last_seen=timezone.now()))


def _make_room():
    """Delete what a new paste would take beyond UNMATCHED_MAX_ROWS: the least-seen pastes
    first, the oldest of them first, never one with a draft entry (staff chose those). Two
    requests at once may each leave one row too many; the next one trims it."""
    excess = UnmatchedPaste.objects.count() - settings.UNMATCHED_MAX_ROWS + 1
    if excess <= 0:
        return
    doomed = UnmatchedPaste.objects.filter(draft=None).order_by("count", "last_seen", "pk")
    UnmatchedPaste.objects.filter(
        pk__in=list(doomed.values_list("pk", flat=True)[:excess])
    ).delete()


def _fence(text):
    """A Markdown code fence longer than any run of backticks in `text`, so that no line of
    the text can close it."""
    longest = max((len(list(run)) for char, run in groupby(text) if char == "`"), default=0)
    return "`" * max(3, longest + 1)


def _next_code(prefix="NEW"):
    taken = set(Entry.objects.filter(code__startswith=f"{prefix}-").values_list("code", flat=True))
    number = 1
    while f"{prefix}-{number:03d}" in taken:
        number += 1
    return f"{prefix}-{number:03d}"


@transaction.atomic
def draft_from_unmatched(paste, author=None):
    """A draft entry seeded with the paste, for an author to complete and publish."""
    if paste.draft_id:
        return paste.draft
    category, _ = Category.objects.get_or_create(
        slug=TRIAGE_CATEGORY[0], defaults={"name": TRIAGE_CATEGORY[1]}
    )
    first_line = paste.masked_text.splitlines()[0] if paste.masked_text else "Unknown failure"
    fence = _fence(paste.masked_text)
    entry = Entry.objects.create(
        slug=f"untriaged-{paste.fingerprint[:10]}",
        code=_next_code(),
        title=first_line[:200],
        summary="To be written: what fails and why.",
        explanation=(
            f"Seen {paste.count} time(s) since {paste.first_seen:%d %b %Y}. The failure as "
            f"pasted, masked:\n\n{fence}text\n{paste.masked_text}\n{fence}"
        ),
        status=Entry.Status.DRAFT,
        category=category,
    )
    SampleLine.objects.create(entry=entry, text=first_line, note="From the unmatched paste.")
    paste.draft = entry
    paste.save(update_fields=["draft"])
    record_revision(entry, "triage", author=author, message="Draft from an unmatched paste")
    return entry
