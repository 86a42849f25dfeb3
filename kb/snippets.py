"""Fix snippets are templates: the wizard fills them with what it learned about the user's
training loop. Django's template language, with autoescaping off (the output is code, shown
escaped by the page like any text), from content reviewed in git.

The variables a snippet may use are content: each family declares its own (family.yaml,
`variables`), and a snippet uses one by naming it in a template tag. `snippet_problem` is the
one judgement of whether a snippet can be shown: the content lint (so `check_taxonomy` and
`load_taxonomy`) and the admin forms all ask it."""

import ast
from dataclasses import dataclass
from itertools import product

from django.template import Context, Engine, TemplateSyntaxError


@dataclass(frozen=True)
class Choice:
    value: str  # as the wizard's query string carries it
    label: str  # as the wizard offers it
    says: str  # how a page says a snippet was rendered with it


@dataclass(frozen=True)
class Variable:
    """A tailoring variable a family declares (its family.yaml): what the wizard asks, what it
    offers, and what the entry page renders with."""

    key: str
    question: str
    type: str  # number, yes_no or text: what the snippet's template is given
    default: str
    choices: tuple  # Choice

    @classmethod
    def from_document(cls, item):
        choices = tuple(Choice(c["value"], c["label"], c["says"]) for c in item["choices"])
        return cls(item["key"], item["question"], item["type"], item["default"], choices)

    def choice(self, value):
        return next((choice for choice in self.choices if choice.value == value), None)

    def given(self, value):
        """The value as the template sees it: a number, a truth value or the text."""
        if self.type == "number":
            return int(value)
        if self.type == "yes_no":
            return value == "yes"
        return value


def variables_from(documents):
    """{key: Variable} from families' `variables` lists, in their order."""
    return {item["key"]: Variable.from_document(item) for item in documents}


_engine = Engine(autoescape=False, debug=False, string_if_invalid="")


def render_snippet(template, variables, values=None):
    """The snippet with `values` ({key: choice value}); every variable not given takes its
    default."""
    values = values or {}
    context = {
        name: variable.given(values.get(name, variable.default))
        for name, variable in variables.items()
    }
    return _engine.from_string(template).render(Context(context)).strip("\n")


def used(template, variables):
    """The variables the template uses, in their declared order: what the wizard must ask."""
    return [variable for name, variable in variables.items() if uses(template, name)]


def defaults_used(template, variables):
    """{key: default} of the variables the template uses: what its default rendering depends
    on."""
    return {variable.key: variable.default for variable in used(template, variables)}


def describe(values, variables):
    """What a snippet was rendered with, as words: each value's `says`, joined; empty when
    there were no values."""
    return ", ".join(variables[name].choice(value).says for name, value in values.items())


def renderings(template, variables):
    """(values, code) for every rendering the wizard can show: one per combination of the
    choices of the variables the template uses (just the one when it uses none)."""
    asked = used(template, variables)
    for combination in product(*([c.value for c in v.choices] for v in asked)):
        values = {v.key: value for v, value in zip(asked, combination, strict=True)}
        yield values, render_snippet(template, variables, values)


def snippet_problem(template, language, variables):
    """Why the wizard could not show this snippet, or None: its template does not parse or does
    not render, or (for Python) one of its renderings is not valid Python."""
    try:
        shown = defaults_used(template, variables)  # the entry page's rendering comes first
        for values, code in sorted(renderings(template, variables), key=lambda r: r[0] != shown):
            if language == "python" and (syntax := _syntax_error(code)):
                rendered = f" {describe(values, variables)}" if values != shown else ""
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
