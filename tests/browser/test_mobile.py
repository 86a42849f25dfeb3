"""Phones and keyboards: no page scrolls sideways at 360 to 414 px (long headings and inline code
wrap, code blocks scroll in their own box), and the paste box is ready for the keyboard."""

import urllib.request
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS, ROOT, SEED, WIZARD_START

pytestmark = pytest.mark.slow

WIDTHS = [360, 414]
EXAMPLE = (
    ROOT / "tests/corpus/ddp-expect-autograd-hooks-assert/static-graph-no-sync-first-step-spawn.txt"
)
# One of each page type; entries are all visited (below), being the longest and most varied.
PAGES = {
    "home": "/",
    "search": "/search/?q=" + quote("expect_autograd_hooks_ INTERNAL ASSERT FAILED"),
    "search-none": "/search/?q=zorblax",
    "browse": "/kb/",
    "category": "/kb/c/distributed-training/",
    "results": "/diagnose?q="
    + quote(
        '[rank1]: RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "/__w/pytorch/'
        'pytorch/torch/csrc/distributed/c10d/reducer.cpp":1732, please report a bug to PyTorch.'
    ),
    "no-match": "/diagnose?q=" + quote("KeyError: 'label_for_an_extraordinarily_long_key_name'"),
    "history": f"/kb/{SEED}/history/",
    "revision": f"/kb/{SEED}/history/1/",
    "wizard-blank": "/wizard/",
    "wizard-blank-step": "/wizard/?happened=hung",
    "wizard-step": WIZARD_START,
    "wizard-result": None,  # where the journeys' answers lead
    "not-found": "/kb/no-such-entry/",
}
# The elements that stick out past the right edge, to name in a failure.
OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll("body *")]
    .filter((el) => el.getBoundingClientRect().right > width + 0.5)
    .filter((el) => !el.parentElement.closest("pre, .highlight, .paste-view, .go-line"))
    .slice(0, 5)
    .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`);
}"""


@pytest.fixture(scope="module")
def entry_paths(server):
    """Every published entry's page: the browse page links them all."""
    html = urllib.request.urlopen(server + "/kb/", timeout=10).read().decode()
    paths = sorted({part.split('"')[0] for part in html.split('href="/kb/')[1:]})
    return [f"/kb/{path}" for path in paths if path and not path.startswith("c/")]


def sideways(page, path):
    status = page.goto(path).status
    assert status == (404 if path == PAGES["not-found"] else 200), f"{path}: {status}"
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    return None if scroll <= inner else f"{path}: {scroll} px wide, {page.evaluate(OVERFLOWING)}"


@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_type_scrolls_sideways_on_a_phone(browser, server, wizard_result_path, width):
    context = browser.new_context(base_url=server, viewport={"width": width, "height": 800})
    page = context.new_page()
    paths = {**PAGES, "wizard-result": wizard_result_path}
    wide = [problem for path in paths.values() if (problem := sideways(page, path))]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.goto(paths["results"])
    page.screenshot(path=ARTIFACTS / f"mobile-{width}-results.png", full_page=True)
    context.close()
    assert wide == []


@pytest.mark.parametrize("width", WIDTHS)
def test_no_entry_page_scrolls_sideways_on_a_phone(browser, server, entry_paths, width):
    context = browser.new_context(base_url=server, viewport={"width": width, "height": 800})
    page = context.new_page()
    wide = [problem for path in entry_paths if (problem := sideways(page, path))]
    context.close()
    assert len(entry_paths) >= 100
    assert wide == []


def test_the_browse_page_fits_a_few_screens_and_keeps_every_entry_link(page, entry_paths):
    page.goto("/kb/")
    height = page.evaluate("document.documentElement.scrollHeight")
    links = page.eval_on_selector_all(
        "main a[href^='/kb/']", "(links) => links.map((a) => a.getAttribute('href'))"
    )
    assert set(entry_paths) <= set(links)
    assert height < 4000, f"/kb/ is {height} px tall"


def test_the_paste_box_has_the_focus_and_ctrl_enter_sends_it(page):
    page.goto("/")
    assert page.evaluate("document.activeElement.id") == "paste"
    page.keyboard.type("RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED")
    with page.expect_navigation():
        page.keyboard.press("Control+Enter")
    assert "expect_autograd_hooks_" in page.content()
    assert "/kb/" in page.url or "/d" in page.url


def test_the_example_fills_the_box_with_a_real_capture(page, server):
    page.goto("/")
    page.get_by_role("link", name="Try a real example").click()
    box = page.locator("#paste")
    # The script fetches the example: wait for it to land, as a person would.
    expect(box).to_have_value(EXAMPLE.read_text(encoding="utf-8"))
    assert page.evaluate("document.activeElement.id") == "paste"


def test_no_page_asks_for_a_favicon_in_vain(page, server):
    missing = []
    page.on("response", lambda r: r.status == 404 and missing.append(r.url))
    page.goto("/")
    page.goto("/favicon.ico")
    assert missing == []
    assert page.evaluate("document.contentType") == "image/svg+xml"


def test_entry_pages_offer_a_copy_button_on_every_code_block(page):
    page.goto(f"/kb/{SEED}/")
    blocks = page.locator(".highlight > pre, pre.sample").count()
    assert blocks > 0
    assert page.locator("button.copy").count() == blocks


def test_a_code_typed_into_the_search_box_opens_its_entry(page):
    page.goto("/search/")
    page.fill("#q", "ddp-001")
    page.press("#q", "Enter")
    # htmx may first push the search's own address, then follow the redirect to the entry.
    page.wait_for_url(f"**/kb/{SEED}/")


def test_an_error_line_typed_into_the_search_box_ranks_the_entry_that_prints_it_first(page):
    page.goto("/search/")
    page.fill("#q", "Expected to mark a variable ready only once")
    page.press("#q", "Enter")
    first = page.locator("ol.search-results > li").first
    expect(first).to_contain_text("DDP-005")
    expect(first.locator("mark").first).to_be_visible()
