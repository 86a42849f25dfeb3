"""What the wizard reasons about: the hypotheses it may end on, their prior, and the questions
(every diagnostic check of those entries; checks of different entries with the same key, a
question their family shares, are one question). Plain data in (wizard/content.py), plain data
out; nothing here is written per entry: a new entry with checks joins the wizard as is.

Two starts. From an entry (its page, a link): that entry and its siblings, half the belief on
the entry. From a paste: the engine's calibrated candidates are the prior, and an entry the
paste shows no sign of is not a hypothesis at all, unless its failure can end in a candidate's
message (content marks such siblings `prints_this`: the desyncs that end in a timeout)."""

from dataclasses import dataclass, field

from wizard.content import Check, Entry
from wizard.reasoning import CONFIRMS, EXPECTED, RULES_OUT, Hypothesis, Question
from wizard.tailoring import choose_fix

START_SHARE = 0.5  # prior mass of the starting entry when it has siblings
LIVE_CANDIDATE = 0.02  # a paste's candidate below this is not a hypothesis
PRINTS_SHARE = 0.5  # a sibling that prints a candidate's message, against that candidate


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
    outcomes: dict = field(default_factory=dict)  # Hypothesis -> (entry slug, fix key)

    @property
    def reasoning_questions(self):
        return {key: asked.reasoning for key, asked in self.questions.items()}


def _hypotheses(entry):
    triggers = entry.triggers
    return [Hypothesis(entry.slug, t.key) for t in triggers] or [Hypothesis(entry.slug, None)]


def entry_scope(start, known):
    """From an entry: it and the siblings it lists that are in `known` ({slug: Entry})."""
    siblings = [known[slug] for slug in dict.fromkeys(start.siblings) if slug in known]
    siblings = [entry for entry in siblings if entry.slug != start.slug]
    masses = {start.slug: START_SHARE if siblings else 1.0}
    masses.update({entry.slug: (1 - START_SHARE) / len(siblings) for entry in siblings})
    return build_scope([start, *siblings], masses)


def paste_scope(candidates, known):
    """From a paste: `candidates` [(slug, probability)], best first, as the engine ranked them;
    those in `known` with at least LIVE_CANDIDATE, and the siblings that print their message."""
    live = [(known[s], p) for s, p in candidates if s in known and p >= LIVE_CANDIDATE]
    if not live:
        return None
    masses = {entry.slug: p for entry, p in live}
    entries = [entry for entry, _ in live]
    for entry, p in live:
        for slug in entry.prints_this:
            if slug in known and slug not in masses:
                entries.append(known[slug])
            if slug in known:
                masses[slug] = max(masses.get(slug, 0.0), PRINTS_SHARE * p)
    return build_scope(entries, masses)


def build_scope(entries, masses):
    """`entries`, the starting one first; `masses` {slug: prior mass}, spread over each
    entry's causes."""
    start = entries[0]
    entries = {entry.slug: entry for entry in entries}
    prior = {}
    for slug, entry in entries.items():
        hypotheses = _hypotheses(entry)
        for hypothesis in hypotheses:
            prior[hypothesis] = masses[slug] / len(hypotheses)
    total = sum(prior.values())
    prior = {h: p / total for h, p in prior.items()}

    scope = Scope(start, entries, prior)
    for entry in entries.values():
        hypotheses = _hypotheses(entry)
        for hypothesis in hypotheses:
            # Causes that act together (content's together_with) get the fix of the pair.
            trigger = entry.trigger(hypothesis.trigger) if hypothesis.trigger else None
            together = trigger.together_with if trigger else ()
            fix, _ = choose_fix(entry, [hypothesis.trigger, *together])
            scope.outcomes[hypothesis] = (entry.slug, fix.key if fix else None)
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
