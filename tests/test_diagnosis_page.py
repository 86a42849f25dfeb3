"""The diagnosis page leads with the answer, and a posted paste has its own address to share.

POST /diagnose keeps the paste masked at /d/<key> and sends the browser there; the page
diagnoses the kept text again whenever it is shown, leads with the entry, its most likely
cause and the fix, and explains itself in words; its maker may delete it."""

import re
from datetime import timedelta
from html import unescape
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from kb.models import SharedPaste, Trigger
from kb.paste import MAX_PASTE_BYTES
from kb.sharing import mask_private
from tests.samples import ASSERT_LINE, TRACEBACK
from tests.test_masking import AWS_ID, AWS_SECRET, GITHUB, HF, JWT, OPENAI

BASE = Path(settings.BASE_DIR) / "tests"
# Three real pastes, each with the entry and the cause the page must lead with.
REAL_PASTES = [
    (
        "corpus/ddp-mark-variable-ready-twice/two-losses-shared-trunk-torchrun.txt",
        "ddp-mark-variable-ready-twice",
    ),
    ("field/dataloader-worker-killed/hezhangsprinter-dcpdn-12.txt", "dataloader-worker-killed"),
    ("field/cuda-out-of-memory/alexhex7-non-local_pytorch-7.txt", "cuda-out-of-memory"),
]
ENGINE_TERMS = re.compile(r"\(\+\d|generic line|“[^”]*[\\\[\]^$*][^”]*”|words of the paste")


def text_of(html):
    return unescape(re.sub(r"<[^>]+>", "", html))


def answer_block(html):
    return html.split('<section class="diagnosis-answer')[1].split("</section>")[0]


def post(client, text):
    return client.post("/diagnose", {"q": text}, follow=True)


def real(path):
    return (BASE / path).read_text()


@pytest.mark.parametrize(("path", "slug"), REAL_PASTES)
def test_the_page_leads_with_the_entry_its_cause_and_the_fix_with_its_snippet(
    client, taxonomy, path, slug
):
    html = post(client, real(path)).content.decode()
    block = answer_block(html)
    assert f'<h1 id="verdict-heading"><a href="/kb/{slug}/">' in block
    assert "Most likely cause" in block
    causes = Trigger.objects.filter(entry__slug=slug).values_list("text", flat=True)
    assert any(text_of(cause)[:40] in text_of(block) for cause in causes)
    assert "The fix: " in block and 'class="highlight"' in block  # a snippet, for its copy button
    confirm = re.search(r'<a class="button" href="([^"]+)">Confirm it in the checklist', block)
    assert dict(parse_qsl(urlsplit(unescape(confirm[1])).query))["entry"] == slug
    assert "Something Faultline does not know" in block


def percent(figure):
    return {"under 1%": 0.5, "over 99%": 99.5}.get(figure.lower()) or int(figure.rstrip("%"))


@pytest.mark.parametrize(("path", "slug"), REAL_PASTES)
def test_the_chances_of_the_candidates_and_of_the_unknown_add_up_to_one(
    client, taxonomy, path, slug
):
    block = answer_block(post(client, real(path)).content.decode())
    top = re.search(r"(\S+%) chance that this is the failure", text_of(block))[1]
    others = re.findall(r'<span class="confidence">([^<]+)</span>', block)
    figures = [top, *others]
    assert abs(sum(map(percent, figures)) - 100) <= len(figures) / 2  # each rounded


def test_a_visitor_gets_the_evidence_in_words_and_staff_the_engine_terms_too(
    client, taxonomy, staff
):
    text = real(REAL_PASTES[0][0])
    visitor = post(client, text).content.decode()
    evidence = visitor.split('id="evidence-heading"')[1].split("</section>")[0]
    assert "The root exception is the message this failure prints" in evidence
    assert not ENGINE_TERMS.search(text_of(evidence)), text_of(evidence)
    assert "The engine's evidence" not in visitor
    client.force_login(staff)
    page = post(client, text).content.decode()
    assert "The engine's evidence (staff)" in page and re.search(r"\(\+\d", page)


def test_the_users_own_frame_is_called_out_and_marked_in_the_paste(client, taxonomy):
    html = post(client, real(REAL_PASTES[1][0])).content.decode()
    frame = html.split('<p class="your-frame">')[1].split("</p>")[0]
    assert "<code>train.py</code>, line 210" in frame
    number = re.search(r'href="#L(\d+)"', frame)[1]
    assert re.search(rf'<span id="L{number}" class="(hit )?frame">', html)


def test_matched_lines_are_highlighted_in_a_box_of_their_own(client, taxonomy):
    html = post(client, "\n".join(TRACEBACK)).content.decode()
    assert f'<span id="L{len(TRACEBACK)}" class="hit">' in html
    assert '<pre class="paste-view" tabindex="0"' in html  # it scrolls, not the page


def test_a_posted_paste_gets_an_address_another_client_sees_the_same_at(client, taxonomy):
    response = post(client, real(REAL_PASTES[0][0]))
    address = response.redirect_chain[0][0]
    assert re.fullmatch(r"/d/[A-Za-z0-9_-]{12}", address)
    mine = answer_block(response.content.decode())
    theirs = Client().get(address)
    assert theirs.status_code == 200
    assert answer_block(theirs.content.decode()) == mine
    assert f"http://testserver{address}" in theirs.content.decode()  # the link to copy


def test_every_posted_paste_gets_an_address_of_its_own(client, taxonomy):
    first = post(client, ASSERT_LINE).redirect_chain[0][0]
    second = post(client, ASSERT_LINE).redirect_chain[0][0]
    assert first != second


def test_what_is_kept_is_masked(client, taxonomy):
    secrets = [HF, AWS_ID, AWS_SECRET, JWT, GITHUB, OPENAI, "alice", "S3cret", "example.com"]
    paste = "\n".join(
        [
            *TRACEBACK,
            "while reaching postgres://alice:S3cret@db.internal:5432/runs from /home/alice/job",
            f"mail alice.smith@example.com; HF {HF}, AWS {AWS_ID} {AWS_SECRET}",
            f"Authorization: Bearer {JWT} {GITHUB} {OPENAI}",
        ]
    )
    page = post(client, paste)
    kept = SharedPaste.objects.get()
    assert [s for s in secrets if s in kept.masked_text] == []
    assert [s for s in secrets if s in str(kept.facts)] == []
    assert [s for s in secrets if s in page.content.decode()] == []
    assert "DDP-001" in answer_block(page.content.decode())  # still recognised


def test_the_kept_paste_keeps_line_numbers_and_the_packages_part_of_its_paths():
    venv = "/home/alice/venv/lib/python3.11"
    line = f'  File "{venv}/site-packages/torch/nn/modules/module.py", line 1501, in _call_impl'
    assert mask_private(line) == (
        '  File "<path>/site-packages/torch/nn/modules/module.py", line 1501, in _call_impl'
    )
    assert mask_private('  File "/home/alice/proj/train.py", line 42, in main') == (
        '  File "<path>/train.py", line 42, in main'
    )


def test_the_page_diagnoses_the_kept_text_again_so_a_content_change_shows(client, taxonomy):
    address = post(client, ASSERT_LINE).redirect_chain[0][0]
    kept = SharedPaste.objects.get()
    kept.masked_text = "KeyError: 'label'"
    kept.save()
    assert "does not know this failure yet" in client.get(address).content.decode()


def test_edit_the_paste_brings_its_text_back_into_the_box(client, taxonomy):
    html = post(client, ASSERT_LINE).content.decode()
    edit = re.search(r'<a href="(/d/[^"]+/edit)">Edit the paste</a>', html)[1]
    box = client.get(edit).content.decode().split("<textarea")[1].split("</textarea>")[0]
    assert unescape(box.split(">", 1)[1]).strip() == mask_private(ASSERT_LINE).strip()


def test_a_shared_paste_expires(client, taxonomy, settings):
    settings.SHARED_PASTE_DAYS = 90
    address = post(client, ASSERT_LINE).redirect_chain[0][0]
    SharedPaste.objects.update(created=timezone.now() - timedelta(days=91))
    assert client.get(address).status_code == 404
    assert not SharedPaste.objects.exists()  # gone, not only hidden


def test_a_new_paste_clears_the_expired_ones(client, taxonomy):
    post(client, ASSERT_LINE)
    SharedPaste.objects.update(
        created=timezone.now() - timedelta(days=settings.SHARED_PASTE_DAYS + 1)
    )
    post(client, ASSERT_LINE)
    assert SharedPaste.objects.count() == 1


def test_its_maker_may_delete_it(client, taxonomy):
    response = post(client, ASSERT_LINE)
    address = response.redirect_chain[0][0]
    assert "Delete this paste" in response.content.decode()
    deleted = client.post(f"{address}/delete")
    assert deleted.status_code == 200 and "The paste is deleted" in deleted.content.decode()
    assert client.get(address).status_code == 404


def test_nobody_else_may_delete_it(client, taxonomy):
    address = post(client, ASSERT_LINE).redirect_chain[0][0]
    other = Client()
    assert "Delete this paste" not in other.get(address).content.decode()
    assert other.post(f"{address}/delete").status_code == 403
    assert client.get(address).status_code == 200


def test_deleting_needs_the_csrf_token(taxonomy):
    maker = Client(enforce_csrf_checks=True)
    home = maker.get("/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', home.content.decode())[1]
    address = maker.post("/diagnose", {"q": ASSERT_LINE, "csrfmiddlewaretoken": token})["Location"]
    assert maker.post(f"{address}/delete").status_code == 403
    assert maker.get(address).status_code == 200


@pytest.mark.parametrize(
    "address",
    ["/d/nope", "/d/" + "x" * 200, "/d/%00", "/d/aaaaaaaaaaaa/edit", "/d/aaaaaaaaaaaa/delete"],
)
def test_bad_addresses_are_a_404(client, taxonomy, address):
    method = client.post if address.endswith("/delete") else client.get
    assert method(address).status_code == 404


def test_a_paste_over_the_limit_is_a_413_and_is_not_kept(client, taxonomy):
    response = client.post("/diagnose", {"q": "x" * (MAX_PASTE_BYTES + 1)})
    assert response.status_code == 413
    assert not SharedPaste.objects.exists()


def test_a_link_next_to_an_error_is_its_own_address(client, taxonomy):
    response = client.get("/diagnose", {"q": "\n".join(TRACEBACK)})
    assert response.status_code == 200 and "DDP-001" in answer_block(response.content.decode())
    assert not SharedPaste.objects.exists()


def test_go_says_what_recognised_the_entry_and_links_the_full_diagnosis(client, taxonomy):
    response = client.get("/go", {"q": ASSERT_LINE})
    html = response.content.decode()
    banner = html.split('<aside class="go-banner"')[1].split("</aside>")[0]
    assert "Recognised from the error line your job printed" in banner
    assert unescape(banner).count(ASSERT_LINE.strip().splitlines()[0][:80]) == 1
    full = unescape(re.search(r'href="([^"]+)">See the full diagnosis', banner)[1])
    assert full.startswith("/diagnose?q=")
    diagnosis = client.get(full).content.decode()
    assert "Other candidates" in answer_block(diagnosis)
