"""What the step and result templates show of the wizard's own words."""

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

from kb.rendering import render_inline_markdown

register = template.Library()


@register.filter
def reason(reason):
    """A flow.Reason as HTML: its sentence escaped, each name rendered as inline Markdown
    (kb/rendering.py sanitises it)."""
    names = [render_inline_markdown(name) for name in reason.names]
    return mark_safe(escape(reason.sentence).format(*names))
