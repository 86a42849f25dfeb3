"""Fix snippets are templates: the wizard fills them with what it learned about the user's
training loop. Django's template language, with autoescaping off (the output is code, shown
escaped by the page like any text), from content reviewed in git.

`snippet_problem` is the one judgement of whether a snippet can be shown: the content lint (so
`check_taxonomy` and `load_taxonomy`) and the admin forms all ask it."""

import ast
from itertools import product

from django.template import Context, Engine, TemplateSyntaxError

# What a snippet may use, with the values the entry page and the lint render it with.
DEFAULTS = {
    "accumulation_steps": 4,  # micro-batches per optimizer step; 1 = no accumulation
    "scheduler": True,  # whether the loop steps a learning-rate scheduler
}
# What the wizard offers for each (wizard/flow.py asks with these): a snippet must be valid for
# every combination of the choices of the variables it uses.
CHOICES = {"accumulation_steps": (1, 2, 4, 8, 16), "scheduler": (True, False)}
# How a page says what a snippet was rendered with: a phrase per variable and value, where
# "{}" stands for the value and the key None for any value not listed.
PHRASES = {
    "accumulation_steps": {1: "without gradient accumulation", None: "for {} accumulation steps"},
    "scheduler": {
        True: "with a learning-rate scheduler",
        False: "without a learning-rate scheduler",
    },
}

_engine = Engine(autoescape=False, debug=False, string_if_invalid="")


def render_snippet(template, **values):
    """The snippet with `values` (missing ones take DEFAULTS)."""
    context = {**DEFAULTS, **{k: v for k, v in values.items() if k in DEFAULTS}}
    return _engine.from_string(template).render(Context(context)).strip("\n")


def defaults_used(template):
    """The DEFAULTS of the variables the template uses: what its default rendering depends on."""
    return {name: value for name, value in DEFAULTS.items() if uses(template, name)}


def describe(values):
    """What a snippet was rendered with, as words: "for 4 accumulation steps, with a
    learning-rate scheduler"; empty when there were no values."""
    phrases = []
    for name, value in values.items():
        forms = PHRASES[name]
        phrases.append((forms[value] if value in forms else forms[None]).format(value))
    return ", ".join(phrases)


def renderings(template):
    """(values, code) for every rendering the wizard can show: one per combination of the
    choices of the variables the template uses (just the one when it uses none)."""
    used = [name for name in DEFAULTS if uses(template, name)]
    for combination in product(*(CHOICES[name] for name in used)):
        values = dict(zip(used, combination, strict=True))
        yield values, render_snippet(template, **values)


def snippet_problem(template, language):
    """Why the wizard could not show this snippet, or None: its template does not parse or does
    not render, or (for Python) one of its renderings is not valid Python."""
    try:
        shown = defaults_used(template)  # what the entry page shows comes first, said plainly
        for values, code in sorted(renderings(template), key=lambda r: r[0] != shown):
            if language == "python" and (syntax := _syntax_error(code)):
                rendered = f" {describe(values)}" if values != shown else ""
                return f"not valid Python once rendered{rendered}: {syntax}"
    except TemplateSyntaxError as error:
        return f"not a valid snippet template: {error}"
    except Exception as error:  # whatever rendering raises here, the wizard's page would raise
        return f"not renderable as a snippet: {type(error).__name__}: {error}"
    return None


def python_problem(code):
    """Why `code`, shown as it is (not a template), is not valid Python, or None."""
    error = _syntax_error(code)
    return f"not valid Python: {error}" if error else None


def _syntax_error(code):
    try:
        ast.parse(code)
    except SyntaxError as error:
        return f"{error.msg} (line {error.lineno})"
    return None


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
