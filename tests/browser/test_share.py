"""Posting a paste, sharing its address, opening it elsewhere and deleting it, in a real browser;
the diagnosis page of real pastes on a desktop and on a phone, audited and photographed."""

from pathlib import Path
from urllib.parse import quote

import pytest

from .conftest import nu_errors, screenshot, serious_violations

pytestmark = pytest.mark.slow

TESTS = Path(__file__).resolve().parents[1]
REAL_PASTES = {
    "ddp-twice": "corpus/ddp-mark-variable-ready-twice/two-losses-shared-trunk-torchrun.txt",
    "worker-killed": "field/dataloader-worker-killed/hezhangsprinter-dcpdn-12.txt",
    "cuda-oom": "field/cuda-out-of-memory/alexhex7-non-local_pytorch-7.txt",
}
PHONE = {"width": 390, "height": 844}
ERROR_LINE = (
    'RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "<path>/reducer.cpp":'
    "<n>, please report a bug to PyTorch."
)


def paste(page, text):
    page.goto("/")
    page.get_by_label("Paste a traceback, log or error message").fill(text)
    page.get_by_role("button", name="Find the failure").click()
    page.wait_for_url("**/d/*")


def test_post_share_open_in_a_fresh_context_and_delete(page, browser, server):
    paste(page, (TESTS / REAL_PASTES["ddp-twice"]).read_text())
    address = page.url
    assert page.locator("#share-link").input_value() == address
    answer = page.locator(".diagnosis-answer").inner_text()
    assert "DDP-005" in answer and "Most likely cause" in answer

    stranger = browser.new_context(base_url=server)
    theirs = stranger.new_page()
    theirs.goto(address)
    assert theirs.locator(".diagnosis-answer").inner_text() == answer
    assert theirs.get_by_role("button", name="Delete this paste").count() == 0
    stranger.close()

    page.get_by_role("button", name="Delete this paste").click()
    assert page.locator("h1").inner_text() == "The paste is deleted"
    assert page.goto(address).status == 404


def test_edit_the_paste_brings_it_back_into_the_box(page):
    paste(page, ERROR_LINE)
    page.get_by_role("link", name="Edit the paste").click()
    box = page.get_by_label("Paste a traceback, log or error message")
    assert box.input_value().strip() == ERROR_LINE


def test_the_edit_and_deleted_pages_pass_the_audits(page, axe):
    paste(page, ERROR_LINE)
    page.get_by_role("link", name="Edit the paste").click()
    assert serious_violations(axe, page) == []
    edit = page.content()
    page.go_back()
    page.get_by_role("button", name="Delete this paste").click()
    assert serious_violations(axe, page) == []
    found = nu_errors({"paste-edit": edit, "paste-deleted": page.content()})
    assert found == {"paste-edit": [], "paste-deleted": []}


def test_go_says_what_recognised_it_and_leads_to_the_full_diagnosis(page):
    page.goto("/go?q=" + quote(ERROR_LINE, safe=""))
    assert ERROR_LINE in page.locator(".go-line").inner_text()
    page.get_by_role("link", name="See the full diagnosis").click()
    assert "Other candidates" in page.locator(".diagnosis-answer").inner_text()


@pytest.mark.parametrize("name", REAL_PASTES)
def test_the_diagnosis_page_reads_on_a_desktop_and_a_phone(name, context, axe):
    page = context.new_page()
    paste(page, (TESTS / REAL_PASTES[name]).read_text())
    assert serious_violations(axe, page) == []
    assert nu_errors({f"shared-{name}": page.content()}) == {f"shared-{name}": []}
    screenshot(page, f"diagnosis-{name}-desktop")
    page.set_viewport_size(PHONE)
    page.reload()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide at {PHONE['width']} px"
    screenshot(page, f"diagnosis-{name}-phone")


def test_the_go_banner_passes_the_audits(page, axe):
    page.goto("/go?q=" + quote(ERROR_LINE, safe=""))
    assert serious_violations(axe, page) == []
    assert nu_errors({"go-banner": page.content()}) == {"go-banner": []}
