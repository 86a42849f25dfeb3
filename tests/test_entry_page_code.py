"""The code an entry page shows is code a reader can copy: every snippet is rendered (with the
defaults of kb/snippets.py), says what it was rendered with, and points to the wizard, which
tailors it; no template source reaches the page."""

from html.parser import HTMLParser

import pytest
from django.conf import settings

from kb.models import Entry, Fix, Framework, Snippet
from kb.snippets import render_snippet
from tests.conftest import make_entry, variables_of

WIZARD = "/wizard/?entry="
VARIABLES = variables_of(settings.TAXONOMY_DIR)


class CodeBlocks(HTMLParser):
    """The text of every <pre> and <code> on a page, and the page's text outside tags."""

    def __init__(self):
        super().__init__()
        self.blocks, self.text, self._open = [], [], []

    def handle_starttag(self, tag, attrs):
        if tag in ("pre", "code"):
            self._open.append([])

    def handle_endtag(self, tag):
        if tag in ("pre", "code") and self._open:
            self.blocks.append("".join(self._open.pop()))

    def handle_data(self, data):
        self.text.append(data)
        for block in self._open:
            block.append(data)


def read(page_html):
    parser = CodeBlocks()
    parser.feed(page_html)
    return parser.blocks, "".join(parser.text)


def entry_with_snippets(*templates):
    """A published entry with one fix whose PyTorch snippets are `templates`."""
    entry = make_entry()
    fix = Fix.objects.create(entry=entry, key="the-fix", title="The fix", why="Because.")
    pytorch = Framework.objects.get(key="pytorch")
    for order, template in enumerate(templates):
        Snippet.objects.create(fix=fix, framework=pytorch, order=order, code=template)
    return entry


PUBLISHED = sorted(
    path.stem
    for path in settings.TAXONOMY_DIR.glob("families/*/entries/*.md")
    if "\nstatus: published\n" in path.read_text()
)


@pytest.mark.content
@pytest.mark.parametrize("slug", PUBLISHED)
def test_no_published_entry_page_shows_template_source(published_entry_pages, slug):
    blocks, text = read(published_entry_pages[slug])
    assert blocks
    assert [block for block in blocks if "{%" in block or "{{" in block] == []
    assert "{%" not in text and "{{" not in text


def test_every_published_entry_is_walked_above(taxonomy):
    assert sorted(Entry.objects.published().values_list("slug", flat=True)) == PUBLISHED


def test_every_snippet_is_shown_as_its_default_rendering(client, seed):
    blocks, _ = read(client.get(seed.get_absolute_url()).content.decode())
    shown = {block.rstrip("\n") for block in blocks}
    snippets = Snippet.objects.filter(fix__entry=seed)
    assert snippets.count() > 1
    for snippet in snippets:
        assert render_snippet(snippet.code, VARIABLES) in shown, snippet


def test_a_snippet_says_it_is_shown_for_the_defaults_it_uses_and_links_to_the_wizard(client, db):
    entry = entry_with_snippets(
        "steps = {{ accumulation_steps }}\n{% if scheduler %}scheduler.step(){% endif %}"
    )
    page = client.get(entry.get_absolute_url()).content.decode()
    assert "Shown for 4 accumulation steps, with a learning-rate scheduler." in page
    assert f'<a href="{WIZARD}{entry.slug}">Tailor it to your training loop</a>' in page


def test_a_snippet_names_only_the_variables_its_template_uses(client, db):
    entry = entry_with_snippets("{% if scheduler %}scheduler.step(){% endif %}", "step()")
    page = client.get(entry.get_absolute_url()).content.decode()
    assert "Shown with a learning-rate scheduler." in page
    assert "accumulation steps" not in page
    assert page.count("Shown ") == 1, "a snippet with nothing to tailor says nothing"
