"""Fix snippets are templates: the wizard fills them with what it learned about the user's
training loop. Django's template language, with autoescaping off (the output is code, shown
escaped by the page like any text), from content reviewed in git."""

from django.template import Context, Engine

# What a snippet may use, with the values the entry page and the lint render it with.
DEFAULTS = {
    "accumulation_steps": 4,  # micro-batches per optimizer step; 1 = no accumulation
    "scheduler": True,  # whether the loop steps a learning-rate scheduler
}
VARIABLES = tuple(DEFAULTS)

_engine = Engine(autoescape=False, debug=False, string_if_invalid="")


def render_snippet(template, **values):
    """The snippet with `values` (missing ones take DEFAULTS)."""
    context = {**DEFAULTS, **{k: v for k, v in values.items() if k in DEFAULTS}}
    return _engine.from_string(template).render(Context(context)).strip("\n")


def uses(template, variable):
    """Whether a template tag of the snippet names `variable` (so the wizard must ask it)."""
    for opening, closing in (("{{", "}}"), ("{%", "%}")):
        start = template.find(opening)
        while start != -1:
            end = template.find(closing, start)
            if end == -1:
                break
            if variable in template[start + 2 : end].split():
                return True
            start = template.find(opening, end)
    return False
