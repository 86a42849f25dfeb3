"""What the wizard reasons about: the hypotheses reachable from a starting entry (its triggers,
and its siblings' triggers), their prior, and the questions (every diagnostic check of those
entries; checks of different entries with the same key, a question their family shares, are one
question). Plain data in (wizard/content.py), plain data out; nothing here is written per
entry: a new entry with checks joins the wizard as is."""

from dataclasses import dataclass, field

from wizard.content import Check, Entry
from wizard.reasoning import CONFIRMS, EXPECTED, RULES_OUT, Hypothesis, Question

START_SHARE = 0.5  # prior mass of the starting entry when it has siblings


@dataclass
class AskedCheck:
    """A question as shown: the text of the first entry in scope that asks it."""

    key: str
    entry: Entry
    check: Check
    reasoning: Question  # what each answer says of each hypothesis


@dataclass
class Scope:
    start: Entry
    entries: dict  # slug -> Entry, the starting entry first
    prior: dict  # Hypothesis -> probability
    questions: dict = field(default_factory=dict)  # key -> AskedCheck

    @property
    def reasoning_questions(self):
        return {key: asked.reasoning for key, asked in self.questions.items()}


def _hypotheses(entry):
    triggers = entry.triggers
    return [Hypothesis(entry.slug, t.key) for t in triggers] or [Hypothesis(entry.slug, None)]


def build_scope(entries):
    """`entries`: the starting entry, then its siblings the user may see (content.around)."""
    start = entries[0]
    entries = {entry.slug: entry for entry in entries}
    prior = {}
    others = [slug for slug in entries if slug != start.slug]
    for slug, entry in entries.items():
        if slug == start.slug:
            mass = START_SHARE if others else 1.0
        else:
            mass = (1 - START_SHARE) / len(others)
        hypotheses = _hypotheses(entry)
        for hypothesis in hypotheses:
            prior[hypothesis] = mass / len(hypotheses)

    scope = Scope(start, entries, prior)
    for entry in entries.values():
        hypotheses = _hypotheses(entry)
        for check in entry.checks:
            asked = scope.questions.get(check.key)
            if asked is None:
                asked = AskedCheck(check.key, entry, check, Question(check.key))
                scope.questions[check.key] = asked
            for hypothesis in hypotheses:
                asked.reasoning.p_yes[hypothesis] = _p_yes(check, hypothesis)
    return scope


def _p_yes(check, hypothesis):
    if check.confirms is not None and check.confirms == hypothesis.trigger:
        return CONFIRMS
    if check.rules_out is not None and check.rules_out == hypothesis.trigger:
        return RULES_OUT
    return EXPECTED.get(check.expected, 0.5)
