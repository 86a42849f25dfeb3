from django import template
from django.utils.safestring import mark_safe

from kb.rendering import first_sentence as _first_sentence
from kb.rendering import highlight_code, render_inline_markdown, render_markdown
from kb.snippets import defaults_used, describe, render_snippet

register = template.Library()


@register.filter
def markdown(text):
    return mark_safe(render_markdown(text))  # sanitised by nh3 in render_markdown


@register.filter
def inline_markdown(text):
    return mark_safe(render_inline_markdown(text))  # sanitised by nh3 in render_markdown


@register.filter
def first_sentence(text):
    return _first_sentence(text)


@register.filter
def highlight(code, language="python"):
    return mark_safe(highlight_code(code, language))  # Pygments escapes the code


@register.simple_tag
def default_rendering(template, variables):
    """A fix snippet as the entry page shows it: its template rendered with the defaults of
    `variables` (the families' tailoring variables), and the words for the defaults it used
    (empty when it used none: nothing to tailor)."""
    return {
        "code": render_snippet(template, variables),
        "description": describe(defaults_used(template, variables), variables),
    }
