"""The tailored fix: the fix that resolves the identified causes, in the user's framework,
rendered with what the user said of their loop (kb/snippets.py renders the template)."""

from dataclasses import dataclass

from kb.snippets import CHOICES, DEFAULTS, render_snippet, uses

STEP_CHOICES = CHOICES["accumulation_steps"]
PLAIN = "pytorch"


@dataclass
class Tailored:
    framework: object  # Framework of the snippet shown
    asked_for: object  # Framework the user chose, when it has no snippet of its own
    code: str
    language: str
    note: str
    values: dict  # the variables the snippet was rendered with


def choose_fix(entry, cause_keys):
    """The fix resolving most of the causes (the entry's order breaks ties), and the others
    that resolve at least one of them."""
    causes = set(cause_keys)
    ranked = []
    for index, fix in enumerate(entry.fixes.all()):
        resolved = len({t.key for t in fix.resolves.all()} & causes)
        if resolved:
            ranked.append((-resolved, index, fix))
    ranked.sort(key=lambda item: item[:2])
    fixes = [fix for _, _, fix in ranked]
    return (fixes[0], fixes[1:]) if fixes else (None, [])


def pick_snippet(fix, framework_key):
    snippets = list(fix.snippets.all())
    for wanted in (framework_key, PLAIN):
        for snippet in snippets:
            if snippet.framework.key == wanted:
                return snippet
    return snippets[0] if snippets else None


def render_fix(fix, state, frameworks):
    snippet = pick_snippet(fix, state.framework)
    if snippet is None:
        return None
    values = {}
    if uses(snippet.code, "accumulation_steps"):
        values["accumulation_steps"] = state.steps or DEFAULTS["accumulation_steps"]
    if uses(snippet.code, "scheduler"):
        values["scheduler"] = DEFAULTS["scheduler"] if state.scheduler is None else state.scheduler
    asked_for = frameworks.get(state.framework)
    return Tailored(
        framework=snippet.framework,
        asked_for=asked_for if asked_for and asked_for != snippet.framework else None,
        code=render_snippet(snippet.code, **values),
        language=snippet.language,
        note=snippet.note,
        values=values,
    )
