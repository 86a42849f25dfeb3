"""One step of the wizard from a scope and a state: the next question, a tailoring question
(each variable the chosen snippet uses), or the result. The page and the JSON mirror both
render what `next_step` returns."""

from dataclasses import dataclass, field

from kb.rendering import first_sentence
from kb.snippets import used
from wizard import reasoning
from wizard.reasoning import NO, UNSURE, YES
from wizard.state import FRAMEWORK, corrected
from wizard.tailoring import choose_fix, pick_snippet, render_fix

WEAK_ENTRY = 0.6  # below this the result says plainly that the answers do not settle it
RULED_OUT = 0.2


ANSWER_CHOICES = [(YES, "Yes"), (NO, "No"), (UNSURE, "Not sure")]


@dataclass(frozen=True)
class Reason:
    """A sentence of the wizard's own with a {} for each of `names`: causes, entries or
    questions, in content's Markdown. Kept apart so that a page shows each name as rendered
    once per content version (wizard/repository.py) instead of rendering a new sentence."""

    sentence: str
    names: tuple = ()

    def __str__(self):
        return self.sentence.format(*self.names)


@dataclass
class Ask:
    asked: object  # scope.AskedCheck
    reason: Reason
    kind: str = "question"
    choices: list = field(default_factory=lambda: list(ANSWER_CHOICES))

    @property
    def key(self):
        return self.asked.key


@dataclass
class Answered:
    asked: object  # scope.AskedCheck
    answer: str
    known: bool  # proved by the paste
    evidence: str
    correct_query: str  # for an answer the paste proved: the query with it opened again


@dataclass
class Tailor:
    key: str  # "framework" or a variable's key: the query parameter the answer sets
    text: str
    choices: list  # (value, label)
    kind: str = "tailor"


@dataclass
class Result:
    entry: object
    confidence: float  # of the entry
    causes: list  # Trigger
    cause_confidence: float
    fix: object = None
    alternatives: list = field(default_factory=list)
    snippet: object = None  # tailoring.Tailored
    ruled_out: list = field(default_factory=list)  # (Entry, [reasons])
    moved_from: object = None
    separating: object = None  # scope.AskedCheck that would best settle an undecided result
    # (Framework, the query that shows the fix in it, shown now?) when the fix has forms for
    # several: the framework changes the code, never the diagnosis, so it is a switch, not a
    # question.
    frameworks: list = field(default_factory=list)
    kind: str = "result"

    @property
    def settled(self):
        """Sure enough to show one answer: a cause the user did not deny, when the entry has
        causes, at WEAK_ENTRY or more."""
        has_cause = bool(self.causes) or not self.entry.triggers
        return has_cause and self.confidence >= WEAK_ENTRY


@dataclass
class Step:
    scope: object
    state: object
    belief: dict
    current: object  # Ask, Tailor or Result
    answered: list  # Answered
    progress: tuple  # (this step's number, about how many in all)

    @property
    def known_settings(self):
        """What the paste proved of the user's loop (framework, tailoring values): (key,
        value, evidence, the query with it opened again)."""
        state = self.state
        return [
            (k, v, state.evidence.get(k, ""), corrected(state, k))
            for k, v in state.pairs
            if k in state.known and k in state.tailoring
        ]

    @property
    def form_fields(self):
        """The state as the answer form's hidden fields, less the answer it asks for."""
        return self.state.hidden_fields(without=(self.current.key,))

    def candidates(self):
        totals = reasoning.entry_belief(self.belief)
        return sorted(
            ((self.scope.entries[slug], p) for slug, p in totals.items()), key=lambda i: -i[1]
        )


def next_step(scope, state, frameworks, variables):
    """`frameworks` maps keys to content.Framework and `variables` keys to snippets.Variable
    (for tailoring)."""
    questions = scope.reasoning_questions
    answers = {k: v for k, v in state.answers.items() if k in questions}
    belief = reasoning.posterior(scope.prior, questions, answers)
    outcomes = scope.outcomes
    answered = [_answered(scope, state, k, v) for k, v in answers.items()]
    remaining = reasoning.ranked_questions(belief, questions, answers, outcomes)
    done = len([a for a in answered if not a.known])

    if not reasoning.finished(belief, questions, answers, outcomes, remaining):
        key = remaining[0][1]
        current = Ask(scope.questions[key], _reason(scope, belief, questions[key]))
        return Step(scope, state, belief, current, answered, (done + 1, done + len(remaining)))

    result = _result(scope, state, belief, answers)
    if not result.settled:
        result.separating = _separating(scope, belief, answers, outcomes)
    co_cause = _unconfirmed_co_cause(scope, result, answers)
    if co_cause is not None:
        reason = Reason(
            "“{}” causes this failure together with another cause: this question confirms it.",
            (first_sentence(result.causes[0].text),),
        )
        current = Ask(scope.questions[co_cause.key], reason)
        return Step(scope, state, belief, current, answered, (done + 1, done + 1))
    current = _tailoring_question(result, state, variables) or result
    if current is result and result.fix is not None:
        result.snippet = render_fix(result.fix, state, frameworks, variables)
        result.frameworks = _forms(result, state)
    return Step(scope, state, belief, current, answered, (done + 1, done + 1))


def _answered(scope, state, key, answer):
    if key not in state.known:
        return Answered(scope.questions[key], answer, False, "", "")
    evidence = state.evidence.get(key, "")
    return Answered(scope.questions[key], answer, True, evidence, corrected(state, key))


def best_guess(scope, state, frameworks, variables):
    """The result the wizard would give now without asking anything more (the diagnosis
    page's answer to a paste), its fix rendered for what the state knows of the loop."""
    questions = scope.reasoning_questions
    answers = {k: v for k, v in state.answers.items() if k in questions}
    belief = reasoning.posterior(scope.prior, questions, answers)
    result = _result(scope, state, belief, answers)
    if result.fix is not None:
        result.snippet = render_fix(result.fix, state, frameworks, variables)
    return result


def _reason(scope, belief, question):
    pair = reasoning.separates(belief, question)
    if pair is None:
        return Reason("Your answer makes the diagnosis more certain.")
    return Reason("Your answer tells “{}” apart from “{}”.", tuple(_label(scope, h) for h in pair))


def _label(scope, hypothesis):
    entry = scope.entries[hypothesis.entry]
    trigger = entry.trigger(hypothesis.trigger) if hypothesis.trigger else None
    return entry.title if trigger is None else first_sentence(trigger.text)


CO_CAUSE_SHARE = 0.1  # a cause this share of its outcome's belief is named beside the first


def _result(scope, state, belief, answers):
    totals = reasoning.entry_belief(belief)
    slug = reasoning.chosen_entry(belief, scope.start.slug)
    entry = scope.entries[slug]
    denied = _denied_causes(entry, answers)
    own = {h: p for h, p in belief.items() if h.entry == slug and h.trigger not in denied}
    triggers = {t.key: t for t in entry.triggers}
    causes, fix, alternatives, outcome_p = [], None, [], totals[slug]
    if own:
        top = max(own, key=own.get)
        outcome = scope.outcomes.get(top)
        same_fix = {h: p for h, p in own.items() if scope.outcomes.get(h) == outcome}
        outcome_p = sum(same_fix.values())
        ranked = sorted(same_fix, key=lambda h: -same_fix[h])
        causes = [
            triggers[h.trigger]
            for h in ranked
            if h.trigger in triggers and (h == top or same_fix[h] >= CO_CAUSE_SHARE * outcome_p)
        ]
        confirming = {c.confirms: c.key for c in entry.checks if c.confirms is not None}
        for key in causes[0].together_with if causes else ():
            confirmed = answers.get(confirming.get(key)) == YES
            if key in triggers and triggers[key] not in causes and confirmed:
                causes.append(triggers[key])
        fix, alternatives = choose_fix(entry, [t.key for t in causes])
    return Result(
        entry=entry,
        confidence=outcome_p,
        causes=causes,
        cause_confidence=outcome_p / totals[slug] if totals[slug] else 0.0,
        fix=fix,
        alternatives=alternatives,
        ruled_out=_ruled_out(scope, belief, totals, slug, answers),
        moved_from=scope.start if slug != scope.start.slug else None,
    )


def _separating(scope, belief, answers, outcomes):
    """The question answered "not sure" that would teach most about the outcome."""
    unsure = {k: scope.questions[k].reasoning for k, v in answers.items() if v == UNSURE}
    ranked = reasoning.ranked_questions(belief, unsure, (), outcomes)
    return scope.questions[ranked[0][1]] if ranked else None


def _denied_causes(entry, answers):
    """Causes whose confirming check the user answered no: never presented as the answer."""
    return {c.confirms for c in entry.checks if c.confirms is not None and answers.get(c.key) == NO}


def _unconfirmed_co_cause(scope, result, answers):
    """A check the result still needs: one confirming a trigger that acts together with the
    identified cause, when nobody has answered it yet."""
    if not result.causes:
        return None
    confirming = {c.confirms: c for c in result.entry.checks if c.confirms is not None}
    for key in result.causes[0].together_with:
        check = confirming.get(key)
        if check is not None and check.key not in answers and check.key in scope.questions:
            return check
    return None


def _ruled_out(scope, belief, totals, chosen, answers):
    ruled_out = []
    for slug, p in totals.items():
        if slug == chosen or p >= RULED_OUT:
            continue
        hypotheses = [h for h in belief if h.entry == slug]
        reasons = []
        for key, answer in answers.items():
            if answer == UNSURE:
                continue
            question = scope.questions[key].reasoning
            average = sum(question.likelihood(h, answer) for h in hypotheses) / len(hypotheses)
            if average < 0.4:
                word = "yes" if answer == YES else "no"
                asked = scope.questions[key].check.question
                reasons.append(Reason(f"you answered {word} to “{{}}”", (asked,)))
        ruled_out.append((scope.entries[slug], reasons))
    return ruled_out


def _tailoring_question(result, state, variables):
    """The first variable the chosen snippet uses that the user has not answered: only what
    changes the code shown."""
    if result.fix is None or not result.settled:
        return None
    snippet = pick_snippet(result.fix, state.framework)
    if snippet is None:
        return None
    for variable in used(snippet.code, variables):
        if state.value(variable.key) is None:
            choices = [(choice.value, choice.label) for choice in variable.choices]
            return Tailor(variable.key, variable.question, choices)
    return None


def _forms(result, state):
    """The frameworks the fix has a form for, then the entry's others (shown the first form
    with a note), when there are several: each with its query and whether it is shown now."""
    offered = list(dict.fromkeys(s.framework for s in result.fix.snippets))
    if len(offered) < 2 or result.snippet is None:
        return []
    shown = state.framework or result.snippet.framework.key
    others = [f for f in result.entry.frameworks if f not in offered]
    return [(f, state.with_answer(FRAMEWORK, f.key), f.key == shown) for f in offered + others]


def step_as_json(step):
    """The JSON mirror of a step: GET /api/wizard/ with the same query string."""
    state, current = step.state, step.current
    common = {
        "known": {k: v for k, v in state.pairs if k in state.known},
        "answers": dict(state.pairs),
        "candidates": [
            {"slug": entry.slug, "probability": round(p, 3)} for entry, p in step.candidates()
        ],
        "notes": state.notes,
    }
    if isinstance(current, Ask):
        check = current.asked.check
        question = {
            "key": current.asked.key,
            "text": check.question,
            "help": check.how_to_check,
            "reason": str(current.reason),
            "choices": [YES, NO, UNSURE],
        }
        return {"question": question, **common}
    if isinstance(current, Tailor):
        question = {
            "key": current.key,
            "text": current.text,
            "help": "",
            "choices": [value for value, _ in current.choices],
        }
        return {"question": question, **common}
    snippet = current.snippet
    result = {
        "slug": current.entry.slug,
        "code": current.entry.code,
        "causes": [trigger.key for trigger in current.causes],
        "confidence": round(current.confidence, 3),
        "cause_confidence": round(current.cause_confidence, 3),
        "fix": current.fix.key if current.fix else None,
        "framework": snippet.framework.key if snippet else None,
        "frameworks": [framework.key for framework, _, _ in current.frameworks],
        "snippet": snippet.code if snippet else None,
        "moved_from": current.moved_from.slug if current.moved_from else None,
        "settled": current.settled,
        "separating": current.separating.key if current.separating else None,
    }
    return {"result": result, **common}
