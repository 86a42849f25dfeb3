"""The one place where Markdown becomes HTML and code becomes highlighted HTML.

Markdown output is sanitised with nh3 (an allow-list), so content edited in the admin cannot
inject script. Code is highlighted on the server by Pygments; colours live in pygments.css.
"""

import threading
from functools import lru_cache

import markdown
import nh3
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.util import ClassNotFound

MARKDOWN_EXTENSIONS = ["fenced_code", "codehilite", "tables", "sane_lists"]
MARKDOWN_CONFIG = {"codehilite": {"css_class": "highlight", "guess_lang": False}}

ALLOWED_TAGS = nh3.ALLOWED_TAGS | {"pre", "span", "div"}
ALLOWED_ATTRIBUTES = {
    **nh3.ALLOWED_ATTRIBUTES,
    "a": {"href", "title"},
    "span": {"class"},
    "div": {"class"},
    "pre": {"class"},
    "code": {"class"},
}

_formatter = HtmlFormatter(cssclass="highlight")
# Content's texts repeat on every page and wizard step that shows them: each is rendered once
# per process (the texts of a knowledge base, a few megabytes of HTML at most).
RENDERED = 8192


_converters = threading.local()


def _converter():
    # Building a Markdown instance (its extensions, their patterns) costs more than
    # converting a paragraph: one per thread, reset between texts.
    converter = getattr(_converters, "markdown", None)
    if converter is None:
        converter = markdown.Markdown(
            extensions=MARKDOWN_EXTENSIONS, extension_configs=MARKDOWN_CONFIG
        )
        _converters.markdown = converter
    return converter.reset()


@lru_cache(maxsize=RENDERED)
def render_markdown(text):
    html = _converter().convert(text)
    return nh3.clean(html, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES)


@lru_cache(maxsize=RENDERED)
def render_inline_markdown(text):
    """One line of Markdown (`code`, *emphasis*, links) without the surrounding paragraph."""
    html = render_markdown(text).strip()
    if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        html = html[3:-4]
    return html


@lru_cache(maxsize=RENDERED)
def highlight_code(code, language="python"):
    # A long line scrolls inside its block: the block takes the focus so that the keyboard
    # can scroll it too (Pygments escapes the code, so the first "<pre>" is its own).
    html = highlight(code, _lexer(language), _formatter)
    return html.replace("<pre>", '<pre tabindex="0">', 1)


@lru_cache(maxsize=64)
def _lexer(language):
    # Finding a lexer by name costs a quarter of highlighting a snippet; a lexer keeps no
    # state between texts, so one per language serves every snippet.
    try:
        return get_lexer_by_name(language)
    except ClassNotFound:
        return TextLexer()


def pygments_css():
    return _formatter.get_style_defs(".highlight")


def first_sentence(text):
    """The first sentence of a cause or a summary, without its closing period: what a heading
    or a "this tells X apart from Y" line can hold."""
    return text.strip().split(". ")[0].rstrip(".")
