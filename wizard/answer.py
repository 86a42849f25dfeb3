"""The answer to a paste, as the wizard reasons it: what the diagnosis page leads with. From the
engine's candidates and the paste's facts (wizard/paste.py), the most likely entry, cause and
fix before any question, and the query of the wizard's first step to confirm it."""

from dataclasses import dataclass

from kb import families
from wizard import repository
from wizard.flow import best_guess
from wizard.paste import paste_state
from wizard.scope import paste_scope


@dataclass
class Answer:
    result: object  # flow.Result: entry, causes, fix, snippet, confidence, settled
    query: str  # the wizard's first step from this paste: /wizard/?<query>


def answer_for(diagnosis, staff=False):
    """None when no candidate of the diagnosis is an entry the visitor may see."""
    known = repository.current(staff=staff)
    candidates = [(c.slug, c.confidence) for c in diagnosis.candidates]
    scope = paste_scope(candidates, known.entries)
    if scope is None:
        return None
    parts = families.current()
    state = paste_state(
        scope, candidates, diagnosis.facts, parts.facts, parts.variables, known.frameworks.keys()
    )
    result = best_guess(scope, state, known.frameworks, parts.variables)
    return Answer(result, state.query())
