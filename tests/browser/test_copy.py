"""Copy buttons work where the Clipboard API does not exist: on a plain-HTTP address that is not
localhost, the way the portal runs on a closed network (README's http://faultline.internal).

The page under test has no navigator.clipboard, so what it copied is read back by a page of the
same browser on the secure origin (the clipboard is the browser's, not a page's)."""

import pytest

from .conftest import SEED

pytestmark = pytest.mark.slow

CODE_BLOCKS = ".highlight > pre, pre.sample"


@pytest.fixture
def clipboard(context, server):
    """read() gives what the browser's clipboard holds; it starts out holding a marker."""
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    reader = context.new_page()
    reader.goto("/")
    reader.evaluate("navigator.clipboard.writeText('nothing copied yet')")

    class Clipboard:
        def read(self):
            return reader.evaluate("navigator.clipboard.readText()")

    return Clipboard()


@pytest.fixture
def plain_page(browser, plain_http_server):
    plain = browser.new_context(base_url=plain_http_server)
    yield plain.new_page()
    plain.close()


def code_text(block):
    return block.inner_text().rstrip("\n")


def test_the_plain_http_address_has_no_clipboard_api(plain_page):
    plain_page.goto(f"/kb/{SEED}/")
    assert plain_page.evaluate("window.isSecureContext") is False
    assert plain_page.evaluate("navigator.clipboard") is None


def test_every_code_block_on_an_entry_page_has_a_copy_button(plain_page):
    plain_page.goto(f"/kb/{SEED}/")
    # The other fixes and frameworks are collapsed: opened, their code has buttons too.
    plain_page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    blocks = plain_page.locator(CODE_BLOCKS)
    # Every snippet of the four fixes, the base loop, the sample output, code in the checklist.
    assert blocks.count() >= 4 * 4 + 3
    assert plain_page.get_by_role("button", name="Copy code").count() == blocks.count()
    assert plain_page.get_by_role("status").count() == blocks.count()


def test_copying_a_snippet_over_plain_http_puts_its_rendered_code_on_the_clipboard(
    plain_page, clipboard
):
    # A link into a collapsed fix opens it (static/js/entry.js).
    plain_page.goto(f"/kb/{SEED}/#fix-static-graph-off")
    assert plain_page.locator("#fix-static-graph-off").get_attribute("open") is not None
    figure = plain_page.locator("#fix-static-graph-off figure.snippet").first
    figure.get_by_role("button", name="Copy code").click()

    figure.get_by_role("button", name="Copied").wait_for()
    assert figure.get_by_role("status").inner_text() == "Copied"
    copied = clipboard.read()
    assert copied.rstrip("\n") == code_text(figure.locator("pre"))
    assert "DistributedDataParallel" in copied and "{%" not in copied and "{{" not in copied
    assert plain_page.evaluate("getSelection().toString()") == "", "the selection is put back"


def test_copying_the_sample_output_over_plain_http(plain_page, clipboard):
    plain_page.goto(f"/kb/{SEED}/")
    section = plain_page.locator("#output")
    section.get_by_role("button", name="Copy code").click()
    section.get_by_role("button", name="Copied").wait_for()
    assert clipboard.read().rstrip("\n") == code_text(section.locator("pre.sample"))


def test_the_wizard_result_copies_its_tailored_snippet_over_plain_http(
    plain_page, clipboard, wizard_result_path
):
    plain_page.goto(wizard_result_path)
    plain_page.get_by_role("button", name="Copy code").click()
    plain_page.get_by_role("button", name="Copied").wait_for()
    snippet = plain_page.locator("#snippet-code").inner_text()
    assert snippet.strip() and clipboard.read().rstrip("\n") == snippet.rstrip("\n")


def test_when_the_browser_refuses_to_copy_the_code_is_left_selected_for_ctrl_c(
    plain_page, clipboard
):
    plain_page.goto(f"/kb/{SEED}/")
    plain_page.evaluate("document.execCommand = () => false")
    figure = plain_page.locator("figure.snippet").first
    figure.get_by_role("button", name="Copy code").click()

    figure.get_by_role("button", name="Press Ctrl+C to copy").wait_for()
    assert figure.get_by_role("status").inner_text() == "Press Ctrl+C to copy"
    selected = plain_page.evaluate("getSelection().toString()")
    assert selected.rstrip("\n") == code_text(figure.locator("pre"))
    assert clipboard.read() == "nothing copied yet"
