from pathlib import Path

from django.conf import settings

from kb.rendering import highlight_code, pygments_css, render_markdown


def test_markdown_keeps_formatting_and_drops_script():
    html = render_markdown(
        "**bold** `code` [link](https://example.org)\n\n"
        "<script>alert(1)</script>\n\n[x](javascript:alert(1)) <a href='#' onclick='alert(1)'>y</a>"
    )
    assert "<strong>bold</strong>" in html and "<code>code</code>" in html
    assert 'href="https://example.org"' in html
    assert "script" not in html and "javascript:" not in html and "onclick" not in html


def test_fenced_code_in_markdown_is_highlighted():
    html = render_markdown("```python\nx = 1\n```")
    assert '<div class="highlight">' in html and '<span class="n">x</span>' in html


def test_unknown_languages_fall_back_to_plain_text():
    assert "x = 1" in highlight_code("x = 1", "no-such-language")


def test_the_shipped_pygments_stylesheet_matches_the_highlighter():
    shipped = Path(settings.BASE_DIR, "static/css/pygments.css").read_text()
    assert pygments_css() in shipped
