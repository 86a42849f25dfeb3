"""The wizard's blank start, as plain data: a few multiple-choice questions that lead someone
with no paste from nothing to one entry's checklist (`/wizard/?entry=<slug>`).

The first question is always what happened (the kinds the families declare under `happened`,
each entry's from its family's `shows`: its own line, else its category's or the nearest
ancestor's). Then, over the entries still possible, the question whose answer tells the most
(the entropy of how its choices split them; someone who knows their failure picks one choice):
which area (the category tree, one level at a time) or "which of these does your error say?"
(at most MAX_CHOICES entries, "none of these" moving on to the others). Where a question has
more choices than MAX_CHOICES, the largest keep theirs and the rest are one "something else".

The whole state is the query string: `happened=<kind>|unsure`, `area=<category>` (entries
under it), `area=-<category>,...` (none of those: "something else"), `area=unsure` (no more
area questions) and `not=<slug>,...` (entries seen and refused). Nothing here names a
family, category, kind or entry: they all come from the content."""

import math
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlencode

MAX_CHOICES = 7
UNSURE = "unsure"  # kb/taxonomy/lint.py refuses a kind with this key
HAPPENED, AREA, NOT = "happened", "area", "not"
PARAMETERS = (HAPPENED, AREA, NOT)
MAX_VALUES = 50  # answers per parameter: more than any walk gives


@dataclass(frozen=True)
class Kind:
    key: str
    label: str
    note: str = ""


@dataclass(frozen=True)
class Choice:
    label: str
    note: str = ""
    query: str = ""  # the next query: the blank start's, or the wizard step `entry` opens
    entry: str = ""  # the slug whose checklist this choice opens


def opening(slug):
    """The step a failure picked here opens: its checklist, started as a paste of its message
    would start it, with that entry the only candidate. Someone who picked it by what their
    error says has ruled out the siblings that say something else (those that print this
    message too stay in, as after a paste)."""
    return urlencode({"entry": slug, "cand": f"{slug}:1.000"})


@dataclass(frozen=True)
class Question:
    key: str  # HAPPENED, AREA or NOT (which parameter its choices set)
    text: str
    help: str
    choices: tuple  # Choice
    other: Choice  # "not sure" or "none of these"


@dataclass
class State:
    happened: str = ""
    areas: list = field(default_factory=list)  # "slug", "-slug,-slug" or UNSURE
    refused: list = field(default_factory=list)  # "slug,slug": one per "none of these"
    problems: list = field(default_factory=list)

    def pairs(self):
        pairs = [(HAPPENED, self.happened)] if self.happened else []
        return pairs + [(AREA, a) for a in self.areas] + [(NOT, n) for n in self.refused]

    def query(self, pairs=None):
        return urlencode(self.pairs() if pairs is None else pairs)

    def adding(self, key, value):
        return self.query([*self.pairs(), (key, value)])

    def back(self):
        pairs = self.pairs()
        return self.query(pairs[:-1]) if pairs else None


@dataclass(frozen=True)
class Step:
    state: State
    question: Question | None  # None: nothing left that fits the answers
    candidates: tuple  # the entries still possible
    answered: tuple  # (what was asked, the answer), in order


def category_paths(categories):
    """{slug: ((slug, name), ...) from the root down to it} for (slug, name, parent slug or
    None) triples in any order."""
    by_slug = {slug: (name, parent) for slug, name, parent in categories}
    paths = {}
    for slug in by_slug:
        chain, node = [], slug
        while node in by_slug and node not in {s for s, _ in chain}:
            chain.append((node, by_slug[node][0]))
            node = by_slug[node][1]
        paths[slug] = tuple(reversed(chain))
    return paths


class Questions:
    """The blank start over `entries` (content.Entry with `areas` and `seen`), built once
    per content version: `parts` are the families' parts (Family.parts)."""

    def __init__(self, entries, parts):
        parts = list(parts)
        self.entries = tuple(sorted(entries, key=lambda e: ([s for s, _ in e.areas], e.code)))
        self.by_slug = {e.slug: e for e in self.entries}
        self.kinds_of = _kinds_of(self.entries, parts)
        shown = {kind for kinds in self.kinds_of.values() for kind in kinds}
        self.kinds = tuple(
            Kind(k["key"], k["label"], k.get("note", ""))
            for p in parts
            for k in p.get("happened", ())
            if k["key"] in shown
        )
        self.area_names = {slug: name for e in self.entries for slug, name in e.areas}

    def parse(self, params):
        """A State from a QueryDict (or a dict of lists); what it cannot use is a problem, and
        parameters it does not read are left out."""
        state = State()
        values = {key: _values(params, key) for key in PARAMETERS}
        if values[HAPPENED]:
            state.happened = values[HAPPENED][-1]
            if state.happened not in {k.key for k in self.kinds} | {UNSURE}:
                state.problems.append(
                    f"“{state.happened}” is not one of the kinds of failure the wizard asks "
                    f"about ({', '.join(k.key for k in self.kinds)})."
                )
        for value in values[AREA]:
            slugs = [s.removeprefix("-") for s in value.split(",")]
            unknown = [s for s in slugs if s not in self.area_names]
            if value != UNSURE and unknown:
                state.problems.append(f"“{unknown[0]}” is not an area of the knowledge base.")
            state.areas.append(value)
        for value in values[NOT]:
            unknown = [s for s in value.split(",") if s not in self.by_slug]
            if unknown:
                state.problems.append(f"“{unknown[0]}” is not an entry the wizard can show.")
            state.refused.append(value)
        if len(state.areas) > MAX_VALUES or len(state.refused) > MAX_VALUES:
            state.problems.append("The link holds more answers than any walk could give.")
        return state

    def candidates(self, state):
        refused = {slug for value in state.refused for slug in value.split(",")}
        return tuple(
            e
            for e in self.entries
            if e.slug not in refused
            and (state.happened in ("", UNSURE) or state.happened in self.kinds_of[e.slug])
            and all(_within(e, area) for area in state.areas)
        )

    def step(self, state):
        candidates = self.candidates(state)
        answered = tuple(self._answered(state))
        if not state.happened:
            return Step(state, self._happened_question(state), candidates, answered)
        options = [self._entries_question(state, candidates)]
        if UNSURE not in state.areas:
            depths = range(max((len(e.areas) for e in candidates), default=0))
            options += [self._area_question(state, candidates, depth) for depth in depths]
        options = [(score, -i, q) for i, (score, q) in enumerate(o for o in options if o)]
        question = max(options)[2] if candidates else None
        return Step(state, question, candidates, answered)

    def _happened_question(self, state):
        counts = Counter(kind for kinds in self.kinds_of.values() for kind in kinds)
        return Question(
            HAPPENED,
            "What happened?",
            "Pick the closest; the next questions narrow it down.",
            tuple(
                Choice(k.label, k.note, state.adding(HAPPENED, k.key))
                for k in self.kinds
                if counts[k.key]
            ),
            Choice(
                "Not sure", "Every kind of failure stays possible.", state.adding(HAPPENED, UNSURE)
            ),
        )

    def _entries_question(self, state, candidates):
        """(score, question) listing the first MAX_CHOICES candidates."""
        shown, rest = candidates[:MAX_CHOICES], candidates[MAX_CHOICES:]
        if not shown:
            return None
        refusal = ",".join(e.slug for e in shown)
        other = Choice(
            "None of these",
            f"{len(rest)} other{'s' if len(rest) != 1 else ''} to show"
            if rest
            else "Nothing else fits your answers: paste the output or browse instead.",
            state.adding(NOT, refusal),
        )
        question = Question(
            NOT,
            "Which of these does your error say, or do you see?",
            "Each opens that failure's checklist.",
            tuple(Choice(e.title, e.seen, opening(e.slug), entry=e.slug) for e in shown),
            other,
        )
        # Listing everything left ends the blank start: preferred over an equal split.
        return _entropy([1] * len(shown) + [len(rest)]) + (0.0 if rest else 0.01), question

    def _area_question(self, state, candidates, depth):
        """(score, question) asking which area at `depth` of the tree, or None where the
        candidates all share one."""
        groups = Counter(e.areas[min(depth, len(e.areas) - 1)][0] for e in candidates if e.areas)
        if len(groups) < 2:
            return None
        order = sorted(groups, key=lambda slug: -groups[slug])  # stable: content order on ties
        kept = order if len(order) <= MAX_CHOICES else order[: MAX_CHOICES - 1]
        rest = [slug for slug in order if slug not in kept]
        choices = [
            Choice(self.area_names[slug], _failures(groups[slug]), state.adding(AREA, slug))
            for slug in kept
        ]
        if rest:
            remaining = sum(groups[slug] for slug in rest)
            others = ", ".join(self.area_names[slug] for slug in rest)
            choices.append(
                Choice("Something else", f"{others} ({_failures(remaining)})",
                       state.adding(AREA, ",".join(f"-{slug}" for slug in kept)))
            )  # fmt: skip
        sizes = [groups[slug] for slug in kept] + ([remaining] if rest else [])
        question = Question(
            AREA,
            "Which part of the job is it about?",
            "If the error names a library or a step of the job, that is the part.",
            tuple(choices),
            Choice("Not sure", "Show the failures themselves instead.", state.adding(AREA, UNSURE)),
        )
        return _entropy(sizes), question

    def _answered(self, state):
        labels = {k.key: k.label for k in self.kinds}
        if state.happened:
            yield "What happened?", labels.get(state.happened, "Not sure")
        for area in state.areas:
            if area == UNSURE:
                yield "Which part of the job is it about?", "Not sure"
            elif area.startswith("-"):
                yield "Which part of the job is it about?", "Something else"
            else:
                yield "Which part of the job is it about?", self.area_names.get(area, area)
        for _ in state.refused:
            yield "Which of these does your error say?", "None of these"


def _kinds_of(entries, parts):
    by_category, by_entry = {}, {}
    for item in (item for p in parts for item in p.get("shows", ())):
        if item.get("entry"):
            by_entry[item["entry"]] = tuple(item["happened"])
        elif item.get("category"):
            by_category[item["category"]] = tuple(item["happened"])
    return {
        e.slug: by_entry.get(e.slug)
        or next((by_category[s] for s, _ in reversed(e.areas) if s in by_category), ())
        for e in entries
    }


def _within(entry, area):
    if area == UNSURE:
        return True
    slugs = {slug for slug, _ in entry.areas}
    if area.startswith("-"):
        return not slugs & {s.removeprefix("-") for s in area.split(",")}
    return area in slugs


def _values(params, key):
    values = params.getlist(key) if hasattr(params, "getlist") else params.get(key, [])
    return [v.strip() for v in values if v.strip()]


def _entropy(sizes):
    total = sum(sizes)
    return -sum(n / total * math.log2(n / total) for n in sizes if n)


def _failures(count):
    return f"{count} failure{'s' if count != 1 else ''}"
