"""What keeps a snippet or the base loop from being shown: one judgement (kb/snippets.py) that the
content lint, and so check_taxonomy and load_taxonomy, and the admin forms all ask.

No database: the judgement reads text alone, with the toy family's variables (batch_size: 8,
16 or 32, by default 16; drop_last: yes or no, by default no)."""

import pytest

from kb.snippets import defaults_used, describe, python_problem, render_snippet, snippet_problem
from tests.conftest import TOY_TAXONOMY, variables_of

VARIABLES = variables_of(TOY_TAXONOMY)


def problem(template, language="python"):
    return snippet_problem(template, language, VARIABLES)


def test_a_valid_python_snippet_has_no_problem():
    assert problem("{% if drop_last %}drop(){% endif %}\nx = {{ batch_size }}") is None


def test_a_snippet_whose_template_does_not_parse_is_refused():
    assert problem("{% for %}\n{% endfor %}") == (
        "not a valid snippet template: 'for' statements should have at least four words: for"
    )


def test_a_snippet_that_fails_only_once_rendered_is_refused():
    # It parses; the wizard's page would raise when rendering it.
    assert problem('{% include "elsewhere.py" %}') == (
        "not renderable as a snippet: TemplateDoesNotExist: elsewhere.py"
    )


def test_a_python_snippet_is_judged_as_it_renders():
    # Valid with the tags rendered away, invalid as written, and the other way round.
    assert problem("x = {% if drop_last %}1{% else %}2{% endif %}") is None
    assert problem("x = 1{% if not drop_last %} +{% endif %}") == (
        "not valid Python once rendered: invalid syntax (line 1)"
    )


def test_a_python_snippet_must_be_valid_for_every_answer_the_wizard_can_give():
    # Valid as the entry page shows it (keeping the last batch), invalid when dropping it.
    assert problem("x = 1{% if drop_last %} +{% endif %}") == (
        "not valid Python once rendered dropping the last batch: invalid syntax (line 1)"
    )
    batches = "for _ in range({{ batch_size }}):{% if batch_size > 8 %} pass{% endif %}"
    assert problem(batches) == (
        "not valid Python once rendered for batches of 8: "
        "expected an indented block after 'for' statement on line 1 (line 1)"
    )


def test_a_snippet_in_another_language_only_needs_to_render():
    assert problem("toyrun --workers {{ batch_size }} (", "bash") is None
    assert problem("{% if %}toyrun", "bash").startswith("not a valid snippet template")


def test_the_base_loop_is_python_as_written_not_a_template():
    assert python_problem('print("{% if %}")') is None
    assert python_problem("for step in range(:\n    pass") == (
        "not valid Python: invalid syntax (line 1)"
    )


# --- Rendering and saying what was rendered -----------------------------------------------------


def test_a_snippet_renders_each_variable_as_its_type_gives_it():
    template = "n = {{ batch_size }}{% if drop_last %}  # dropping{% endif %}"
    assert render_snippet(template, VARIABLES) == "n = 16"
    assert render_snippet(template, VARIABLES, {"batch_size": "8", "drop_last": "yes"}) == (
        "n = 8  # dropping"
    )


def test_a_default_rendering_depends_only_on_the_variables_its_template_names():
    assert defaults_used("{% if drop_last %}drop(){% endif %}", VARIABLES) == {"drop_last": "no"}
    assert defaults_used("n = {{ batch_size }}", VARIABLES) == {"batch_size": "16"}
    assert defaults_used("optimizer.step()  # no batch_size here", VARIABLES) == {}


@pytest.mark.parametrize(
    "values, words",
    [
        ({"batch_size": "8"}, "for batches of 8"),
        ({"drop_last": "yes"}, "dropping the last batch"),
        ({"batch_size": "32", "drop_last": "no"}, "for batches of 32, keeping the last batch"),
        ({}, ""),
    ],
)
def test_describe_says_each_value_a_snippet_was_rendered_with(values, words):
    assert describe(values, VARIABLES) == words
