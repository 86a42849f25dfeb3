"""Entry pages read top-down by someone mid-incident: what it is, is it mine, what to do first;
the rest below, collapsed where long. Every published entry page is rendered once and read
here as a tree of elements."""

import re
from html.parser import HTMLParser

import pytest

from kb.models import Entry, Family
from tests.conftest import make_entry

SEED_URL = "/kb/ddp-expect-autograd-hooks-assert/"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class Page(HTMLParser):
    """The parts of a page these tests read: each id with whether a closed <details> hides it,
    the in-page links, and the text a reader sees as prose (outside code, pre and script)."""

    def __init__(self, html):
        super().__init__()
        self.stack, self.ids, self.links, self.prose = [], {}, [], []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        hidden = any(t == "details" and not open_ for t, open_, _ in self.stack)
        if "id" in attrs:
            # A closed <details> shows its summary: an id on the <details> itself lands there.
            self.ids[attrs["id"]] = hidden
        if tag == "a" and (attrs.get("href") or "").startswith("#"):
            self.links.append(attrs["href"][1:])
        if tag not in VOID:
            self.stack.append((tag, "open" in attrs, attrs))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if not any(t in ("code", "pre", "script", "style", "title") for t, _, _ in self.stack):
            self.prose.append(data)

    def text(self):
        return " ".join(self.prose)


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_an_entry_page_leads_with_the_summary_then_is_it_this_then_the_first_fix(client, seed):
    html = page(client, SEED_URL)
    first_fix = seed.fixes.first()
    order = [
        html.index('class="lede"'),
        html.index('id="is-it-this"'),
        html.index('id="symptoms"'),
        html.index('<pre class="sample">'),
        html.index('id="fixes"'),
        html.index(f'id="fix-{first_fix.key}"'),
        html.index('id="checklist"'),
        html.index('id="triggers"'),
        html.index('id="other-fixes"'),
    ]
    assert order == sorted(order)
    assert "The fix to try first" in html and first_fix.title in html
    # Content order decides which fix comes first: the page does not claim it is the commonest.
    assert "most common" not in html


def test_long_parts_are_collapsed_and_the_first_fix_shows_its_first_snippet(client, seed):
    html = page(client, SEED_URL)
    parsed = Page(html)
    first, *others = seed.fixes.all()
    assert parsed.ids[f"fix-{first.key}"] is False
    for fix in others:
        assert re.search(rf'<details class="fix" id="fix-{fix.key}">\s*<summary><h3>', html)
    assert parsed.ids["base-loop"] is False and '<details class="fix" id="base-loop">' in html
    checks = seed.checks.count()
    assert html.count('<details class="how">') == checks  # "how to check" behind each question
    # One snippet per fix is shown; the other frameworks wait behind their names.
    snippets = sum(fix.snippets.count() for fix in seed.fixes.all())
    assert html.count('<details class="snippet-more">') == snippets - seed.fixes.count()


def test_the_explanation_is_open_when_short_and_collapsed_when_long(client, db):
    make_entry(slug="short", code="TST-010", explanation="Short enough to read at once.")
    make_entry(slug="long", code="TST-011", explanation="A long explanation. " * 60)
    assert '<details id="why" class="section" open>' in page(client, "/kb/short/")
    assert '<details id="why" class="section">' in page(client, "/kb/long/")


def test_entry_js_opens_a_collapsed_part_a_link_points_into(client, seed):
    html = page(client, SEED_URL)
    assert '<script src="/static/js/entry.js" defer></script>' in html
    script = client.get("/static/js/entry.js")
    assert script.status_code == 200
    assert b"node.open = true" in b"".join(script.streaming_content)


@pytest.fixture
def published_pages(taxonomy, published_entry_pages):
    """(entry, html) for every published entry."""
    entries = Entry.objects.filter(status="published").prefetch_related("fixes")
    return [(entry, published_entry_pages[entry.slug]) for entry in entries]


@pytest.mark.content
def test_every_published_entry_page_is_readable_as_prose(published_pages):
    """One pass over every page: anchors land on what a reader sees, Markdown is rendered (no
    literal backtick outside code) and no word of the team's own reaches the reader."""
    banned = [
        item["phrase"]
        for parts in Family.objects.values_list("parts", flat=True)
        for item in parts.get("not_for_readers", [])
    ]
    assert "the lab" in banned and "seed entry" in banned
    problems = []
    for entry, html in published_pages:
        parsed = Page(html)
        # What other pages link to: the wizard (#fixes, #fix-<key>, #checklist), the diagnosis.
        linked = ["fixes", "checklist"] + [f"fix-{fix.key}" for fix in entry.fixes.all()]
        for anchor in linked + parsed.links:
            if anchor not in parsed.ids:
                problems.append(f"{entry.code}: #{anchor} links to nothing")
            elif parsed.ids[anchor]:
                problems.append(f"{entry.code}: #{anchor} is hidden in a closed <details>")
        text = parsed.text()
        if "`" in text:
            at = text.index("`")
            problems.append(f"{entry.code}: a literal backtick: {text[at - 40 : at + 40]!r}")
        for phrase in banned:
            if re.search(rf"\b{re.escape(phrase)}\b", text, re.IGNORECASE):
                problems.append(f"{entry.code}: says {phrase!r}")
    assert len(published_pages) > 100
    assert problems == []
