"""The wizard's reasoning: a belief over hypotheses, updated by answers, and the next question
chosen by expected information gain. Small exact arithmetic, deterministic, no Django.

A hypothesis is (entry, trigger): a failure and the context that causes it. A question gives,
for each hypothesis, the probability of a "yes"; an answer multiplies the belief by it (or by
its complement for "no") and renormalises; "not sure" changes nothing.

What the user gets is an outcome: the entry and the fix for its cause. Two causes the same fix
resolves are one outcome, so questions are chosen, and the walk stops, by what they teach about
the outcome, never by what they would add to a certainty nobody acts on.
"""

import math
from dataclasses import dataclass, field
from typing import NamedTuple

YES, NO, UNSURE = "yes", "no", "unsure"
ANSWERS = (YES, NO, UNSURE)
CONFIRMS, RULES_OUT, NEUTRAL = 0.9, 0.1, 0.5
EXPECTED = {YES: 0.9, NO: 0.1}  # what the entry implies, whatever its trigger
CONFIDENT = 0.9  # stop when one hypothesis, or one entry with nothing left to learn, has this
MIN_GAIN = 0.02  # bits: a question that teaches less than this is not worth the user's time
TIE = 0.01  # entries whose beliefs are this close are tied


class Hypothesis(NamedTuple):
    # A tuple rather than a frozen dataclass: hypotheses key every dict of the arithmetic
    # below, and a tuple hashes in C where a dataclass calls its Python __hash__ each time.
    entry: str
    trigger: str | None


@dataclass
class Question:
    key: str
    p_yes: dict = field(default_factory=dict)  # Hypothesis -> P(yes | hypothesis)

    def likelihood(self, hypothesis, answer):
        p = self.p_yes.get(hypothesis, NEUTRAL)
        return {YES: p, NO: 1 - p}.get(answer, 1.0)


def summing_to_one(belief):
    total = sum(belief.values())
    if total <= 0:
        return {h: 1 / len(belief) for h in belief} if belief else {}
    return {h: p / total for h, p in belief.items()}


def update(belief, question, answer):
    if answer not in (YES, NO):
        return dict(belief)
    return summing_to_one({h: p * question.likelihood(h, answer) for h, p in belief.items()})


def posterior(prior, questions, answers):
    """`answers` maps question keys to yes/no/unsure; unknown keys are ignored."""
    belief = summing_to_one(prior)
    for key, answer in answers.items():
        if key in questions:
            belief = update(belief, questions[key], answer)
    return belief


def entropy(belief):
    return -sum(p * math.log2(p) for p in belief.values() if p > 0)


def outcome_belief(belief, outcomes):
    """{outcome: probability}; `outcomes` maps each hypothesis to its outcome (the hypothesis
    itself where it has none)."""
    totals = {}
    for hypothesis, p in belief.items():
        outcome = outcomes.get(hypothesis, hypothesis)
        totals[outcome] = totals.get(outcome, 0.0) + p
    return totals


def expected_gain(belief, question, outcomes=None):
    """Bits the answer is expected to teach about the outcome."""
    return _Outcomes(belief, outcomes or {}).gain(question)


def ranked_questions(belief, questions, answered, outcomes=None):
    """Unanswered questions worth asking, best first: (gain, key). A question every live
    hypothesis answers alike teaches nothing and is never asked."""
    table = _Outcomes(belief, outcomes or {})
    gains = []
    for key, question in questions.items():
        if key in answered:
            continue
        p_yes = table.p_yes(question)
        if table.disputed(p_yes):
            gains.append((table.gain(question, p_yes), key))
    return sorted(((g, k) for g, k in gains if g >= MIN_GAIN), key=lambda item: (-item[0], item[1]))


LIVE = 0.01  # a hypothesis below this no longer decides which questions are worth asking


class _Outcomes:
    """One belief laid out once for scoring every question against it: its probabilities in
    order and each hypothesis's outcome as an index. The sums run in the order update,
    outcome_belief and entropy would run them, so the gains are the same floats."""

    def __init__(self, belief, outcomes):
        self.hypotheses, self.ps = list(belief), list(belief.values())
        order = {}
        self.index = [order.setdefault(outcomes.get(h, h), len(order)) for h in self.hypotheses]
        self.size = len(order)
        self.before = self._entropy(self.ps)

    def p_yes(self, question):
        """P(yes | hypothesis), in the belief's order."""
        p_yes = question.p_yes
        return [p_yes.get(h, NEUTRAL) for h in self.hypotheses]

    def disputed(self, p_yes):
        return len({p for p, belief in zip(p_yes, self.ps, strict=True) if belief >= LIVE}) > 1

    def gain(self, question, p_yes=None):
        p_yes = self.p_yes(question) if p_yes is None else p_yes
        yes = [p * likelihood for p, likelihood in zip(self.ps, p_yes, strict=True)]
        no = [p * (1 - likelihood) for p, likelihood in zip(self.ps, p_yes, strict=True)]
        p_answer_yes = sum(yes)
        gain = self.before
        for weights, p_answer in ((yes, p_answer_yes), (no, 1 - p_answer_yes)):
            if p_answer > 0:
                gain -= p_answer * self._entropy(_normalised(weights))
        return max(gain, 0.0)

    def _entropy(self, ps):
        totals = [0.0] * self.size
        for index, p in zip(self.index, ps, strict=True):
            totals[index] += p
        return -sum(p * math.log2(p) for p in totals if p > 0)


def _normalised(weights):
    total = sum(weights)
    if total <= 0:
        return [1 / len(weights) for _ in weights]
    return [w / total for w in weights]


def entry_belief(belief):
    totals = {}
    for hypothesis, p in belief.items():
        totals[hypothesis.entry] = totals.get(hypothesis.entry, 0.0) + p
    return totals


def chosen_entry(belief, start):
    """The most likely entry. A tie goes to the entry with the most likely single cause (a
    generic entry whose every cause the user denied can add up to as much as one specific
    cause the user confirmed), then to the starting entry."""
    totals = entry_belief(belief)
    best = max(totals.values())
    tied = [entry for entry, total in totals.items() if total >= best - TIE]
    best_cause = {entry: max(p for h, p in belief.items() if h.entry == entry) for entry in tied}
    return max(tied, key=lambda entry: (round(best_cause[entry], 9), entry == start))


def finished(belief, questions, answered, outcomes=None, ranked=None):
    """Confident in one outcome, or nothing left that would change it. `ranked`: what
    ranked_questions gave for the same arguments, when the caller has it already."""
    totals = outcome_belief(belief, outcomes or {})
    if totals and max(totals.values()) >= CONFIDENT:
        return True
    if ranked is None:
        ranked = ranked_questions(belief, questions, answered, outcomes)
    return not ranked


def separates(belief, question):
    """The two most likely hypotheses on opposite sides of the question, or None."""
    ranked = sorted(belief.items(), key=lambda item: -item[1])
    for i, (first, _) in enumerate(ranked):
        for second, _ in ranked[i + 1 :]:
            if abs(question.likelihood(first, YES) - question.likelihood(second, YES)) >= 0.3:
                return first, second
    return None
