"""What keeps a snippet or the base loop from being shown: one judgement (kb/snippets.py) that the
content lint, and so check_taxonomy and load_taxonomy, and the admin forms all ask.

No database: the judgement reads text alone."""

from kb.snippets import python_problem, snippet_problem


def test_a_valid_python_snippet_has_no_problem():
    template = "{% if scheduler %}scheduler.step(){% endif %}\nx = {{ accumulation_steps }}"
    assert snippet_problem(template, "python") is None


def test_a_snippet_whose_template_does_not_parse_is_refused():
    assert snippet_problem("{% for %}\n{% endfor %}", "python") == (
        "not a valid snippet template: 'for' statements should have at least four words: for"
    )


def test_a_snippet_that_fails_only_once_rendered_is_refused():
    # It parses; the wizard's page would raise when rendering it.
    assert snippet_problem('{% include "elsewhere.py" %}', "python") == (
        "not renderable as a snippet: TemplateDoesNotExist: elsewhere.py"
    )


def test_a_python_snippet_is_judged_as_it_renders():
    # Valid with the tags rendered away, invalid as written, and the other way round.
    assert snippet_problem("x = {% if scheduler %}1{% else %}2{% endif %}", "python") is None
    assert snippet_problem("x = 1{% if scheduler %} +{% endif %}", "python") == (
        "not valid Python once rendered: invalid syntax (line 1)"
    )


def test_a_python_snippet_must_be_valid_for_every_answer_the_wizard_can_give():
    # Valid as the entry page shows it (with a scheduler), invalid for a loop without one.
    assert snippet_problem("x = 1{% if not scheduler %} +{% endif %}", "python") == (
        "not valid Python once rendered without a learning-rate scheduler: invalid syntax (line 1)"
    )
    steps = (
        "for _ in range({{ accumulation_steps }}):{% if accumulation_steps > 1 %} pass{% endif %}"
    )
    assert snippet_problem(steps, "python") == (
        "not valid Python once rendered without gradient accumulation: "
        "expected an indented block after 'for' statement on line 1 (line 1)"
    )


def test_a_snippet_in_another_language_only_needs_to_render():
    assert snippet_problem("torchrun --nproc-per-node {{ accumulation_steps }} (", "bash") is None
    assert snippet_problem("{% if %}torchrun", "bash").startswith("not a valid snippet template")


def test_the_base_loop_is_python_as_written_not_a_template():
    assert python_problem('print("{% if %}")') is None
    assert python_problem("for step in range(:\n    pass") == (
        "not valid Python: invalid syntax (line 1)"
    )
