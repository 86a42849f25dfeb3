"""The tailored fix: the fix that resolves the identified causes, in the user's framework,
rendered with what the user said of their loop (kb/snippets.py renders the template)."""

from dataclasses import dataclass

from kb.snippets import describe, render_snippet, used


@dataclass
class Tailored:
    framework: object  # content.Framework of the snippet shown
    asked_for: object  # content.Framework the user chose, when it has no snippet of its own
    code: str
    language: str
    note: str
    values: dict  # {key: choice value} of the variables the snippet was rendered with
    variables: dict  # {key: Variable}, to say them in words

    @property
    def description(self):
        """What it was rendered for, in words (each chosen value's `says`)."""
        return describe(self.values, self.variables)


def choose_fix(entry, cause_keys):
    """The fix resolving most of the causes (the entry's order breaks ties), and the others
    that resolve at least one of them."""
    causes = set(cause_keys)
    ranked = []
    for index, fix in enumerate(entry.fixes):
        resolved = len(set(fix.resolves) & causes)
        if resolved:
            ranked.append((-resolved, index, fix))
    ranked.sort(key=lambda item: item[:2])
    fixes = [fix for _, _, fix in ranked]
    return (fixes[0], fixes[1:]) if fixes else (None, [])


def pick_snippet(fix, framework_key):
    """The fix's snippet for the framework, else its first (content puts first the form every
    framework's loop can be read from)."""
    snippets = fix.snippets
    chosen = next((s for s in snippets if s.framework.key == framework_key), None)
    return chosen or (snippets[0] if snippets else None)


def render_fix(fix, state, frameworks, variables):
    """The fix's snippet for the user's framework, rendered with the user's answer for each
    variable it uses (the default where they gave none)."""
    snippet = pick_snippet(fix, state.framework)
    if snippet is None:
        return None
    values = {v.key: state.value(v.key) or v.default for v in used(snippet.code, variables)}
    asked_for = frameworks.get(state.framework)
    return Tailored(
        framework=snippet.framework,
        asked_for=asked_for if asked_for and asked_for != snippet.framework else None,
        code=render_snippet(snippet.code, variables, values),
        language=snippet.language,
        note=snippet.note,
        values=values,
        variables=variables,
    )
