"""What a person does on the site, in a real browser against the real server."""

from pathlib import Path
from urllib.parse import quote

import pytest

from .conftest import SEED, TAILORING, WIZARD_START, answer_button, screenshot

pytestmark = pytest.mark.slow

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / SEED


def test_pasted_torchrun_traceback_is_recognised_with_the_matched_line_highlighted(page):
    paste = sorted(CORPUS.glob("*-torchrun.txt"))[0].read_text()
    page.goto("/")
    page.get_by_label("Paste a traceback, log or error message").fill(paste)
    page.get_by_role("button", name="Find the failure").click()
    page.wait_for_url("**/d/*")

    verdict = page.locator(".verdict")
    assert verdict.locator(".kicker").text_content() == "Recognised"
    assert "DDP-001" in verdict.locator("h1").inner_text()
    hits = page.locator(".paste-view .hit")
    assert hits.count() >= 1
    assert "expect_autograd_hooks_" in " ".join(hits.all_inner_texts())
    screenshot(page, "paste-diagnosis")


def test_link_printed_next_to_the_error_opens_the_entry(page):
    error = (
        'RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "<path>/reducer.cpp":'
        "<n>, please report a bug to PyTorch."
    )
    page.goto("/go?q=" + quote(error, safe=""))
    banner = page.locator(".go-banner")
    assert "Recognised from the error line your job printed" in banner.inner_text()
    assert "DDP-001" in page.locator("main").inner_text()
    screenshot(page, "go-link")


def test_wizard_with_htmx_swaps_cards_keeps_history_and_copies_the_snippet(
    context, server, wizard_result_path
):
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page = context.new_page()
    loads = []
    page.on("load", lambda _: loads.append(page.url))
    page.goto(WIZARD_START)
    page.evaluate("window.__marker = 1")
    steps = []  # (url, heading) of every question answered
    keyboard = iter(["Enter", " "] * 10)

    while page.locator("form.answer").count():
        steps.append((page.url, page.locator("#question").inner_text()))
        assert len(steps) < 15, "the wizard never reaches a result"
        page.evaluate("document.getElementById('card').dataset.old = '1'")
        button = answer_button(page)
        by_keyboard = len(steps) % 2 == 1
        if by_keyboard:
            button.focus()
            page.keyboard.press(next(keyboard))
        else:
            button.click()
        page.wait_for_function(
            "() => document.querySelector('#card:not([data-old])')"
            " && !document.querySelector('.htmx-settling, .htmx-request')"
        )
        assert page.evaluate("window.__marker") == 1, "the answer reloaded the whole page"
        assert page.url != steps[-1][0], "the answer did not change the address"
        if by_keyboard:
            assert page.evaluate("document.activeElement.id") == "question"

    assert len(loads) == 1
    assert "DDP-001" in page.locator("#question").inner_text()
    assert page.url == server + wizard_result_path, "not where the same answers lead without JS"
    result_url = page.url

    copy = page.get_by_role("button", name="Copy")
    copy.click()
    page.get_by_role("button", name="Copied").wait_for()
    copied = page.evaluate("navigator.clipboard.readText()")
    snippet = page.locator("#snippet-code").inner_text()
    assert copied.strip() and copied == snippet.rstrip("\n")
    screenshot(page, "wizard-htmx")

    page.go_back()
    last_url, last_heading = steps[-1]
    page.wait_for_url(lambda url: url == last_url)
    page.locator("#question", has_text=last_heading).wait_for()
    assert page.evaluate("window.__marker") == 1, "Back reloaded the whole page"

    page.reload()
    assert page.locator("#question").inner_text() == last_heading
    assert page.url == last_url != result_url


def test_wizard_without_javascript_reaches_the_same_result_through_plain_forms(browser, server):
    context = browser.new_context(base_url=server, java_script_enabled=False)
    page = context.new_page()
    page.goto(WIZARD_START)
    while page.locator("form.answer").count():
        form = page.locator("form.answer")
        assert form.get_attribute("method") == "get"
        assert form.get_attribute("action") == "/wizard/"
        with page.expect_navigation():
            answer_button(page).click()
    assert "DDP-001" in page.locator("#question").inner_text()
    assert page.locator("#snippet-code").count() == 1
    assert page.get_by_role("button", name="Copy").count() == 0, "a dead button without JS"
    for key, value in TAILORING.items():
        assert f"{key}={value}" in page.url
    screenshot(page, "wizard-no-js")
    context.close()


def test_author_edits_the_title_in_the_admin_and_the_history_shows_the_new_revision(
    page, staff_account
):
    page.goto("/admin/")
    page.get_by_label("Username").fill(staff_account["username"])
    page.get_by_label("Password").fill(staff_account["password"])
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Entries").first.click()
    page.get_by_role("link", name="DDP-001").first.click()
    title = page.locator("#id_title")
    title.fill(title.input_value() + " (edited in the admin)")
    page.locator("#id_revision_message").fill("Clearer title")
    page.locator("input[name=_save]").click()
    page.locator(".messagelist .success").wait_for()

    page.goto(f"/kb/{SEED}/history/")
    newest = page.locator("tbody tr").first
    assert newest.locator("td").nth(0).inner_text() == "r2"
    assert newest.locator("td").nth(2).inner_text() == staff_account["username"]
    assert "Clearer title" in newest.inner_text()
    screenshot(page, "admin-edit-history")
