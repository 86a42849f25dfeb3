"""The wizard's start from a paste: the engine's candidates become the prior (scope.paste_scope)
and every fact the paste proves answers what it can, marked known with the text that proved it
(the user may correct each): a family question whose fact is key=value (yes when the paste shows
that value, no when it shows another), the framework, and a tailoring variable that a fact of
the same key sets to one of its choices. Plain data: `facts` maps keys to objects with `value`
and `evidence` (kb.diagnosis.facts.Fact)."""

from wizard.state import FRAMEWORK, State

CANDIDATES = 5


def paste_state(scope, candidates, facts, question_facts, variables, framework_keys):
    """The State a paste starts in. `question_facts` maps question keys to "fact=value"
    (families.Families.facts); `variables` maps keys to snippets.Variable."""
    state = State(
        entry=scope.start.slug,
        candidates=[(slug, p) for slug, p in candidates[:CANDIDATES]],
        tailoring=frozenset([FRAMEWORK, *variables]),
    )
    for key in scope.questions:
        fact_key, _, fact_value = question_facts.get(key, "").partition("=")
        fact = facts.get(fact_key) if fact_key else None
        if fact is not None:
            _known(state, key, "yes" if fact.value == fact_value else "no", fact.evidence)
    framework = facts.get(FRAMEWORK)
    if framework is not None and framework.value in framework_keys:
        _known(state, FRAMEWORK, framework.value, framework.evidence)
    for key, variable in variables.items():
        fact = facts.get(key)
        if fact is not None and fact.value in {choice.value for choice in variable.choices}:
            _known(state, key, fact.value, fact.evidence)
    return state


def _known(state, key, value, evidence):
    state.pairs.append((key, value))
    state.known.append(key)
    state.evidence[key] = evidence
