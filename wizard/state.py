"""The wizard's whole state lives in the query string, so back, refresh, bookmarks and links in
tickets all work: `entry=<slug>` (where it started), `cand=<slug>:<p>,...` (the paste's
candidates and their probabilities, when it started from a paste), one
`<question key>=yes|no|unsure` per answer in the order given, `framework=<key>`, one
`<variable key>=<choice>` per tailoring variable answered (the families declare them), and
`known=<key>,...` for the answers a paste proved (with `ev.<key>=` the text that proved
them)."""

from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode

from wizard.reasoning import ANSWERS

FRAMEWORK = "framework"
MAX_EVIDENCE_CHARS = 200


@dataclass
class State:
    entry: str | None = None
    candidates: list = field(default_factory=list)  # (slug, probability), from a paste
    pairs: list = field(default_factory=list)  # (key, value) in the order answered
    known: list = field(default_factory=list)  # keys the paste answered
    evidence: dict = field(default_factory=dict)  # key -> text from the paste
    notes: list = field(default_factory=list)  # what was ignored, for the user
    tailoring: frozenset = frozenset()  # the keys of pairs that tailor the fix

    @property
    def answers(self):
        return {k: v for k, v in self.pairs if k not in self.tailoring}

    def value(self, key):
        return next((v for k, v in reversed(self.pairs) if k == key), None)

    @property
    def framework(self):
        return self.value(FRAMEWORK)

    def query(self, pairs=None):
        items = [("entry", self.entry)] if self.entry else []
        if self.candidates:
            items.append(("cand", format_candidates(self.candidates)))
        items += list(self.pairs if pairs is None else pairs)
        if self.known:
            items.append(("known", ",".join(self.known)))
        items += [(f"ev.{key}", text) for key, text in self.evidence.items()]
        return urlencode(items)

    def with_answer(self, key, value):
        pairs = [(k, v) for k, v in self.pairs if k != key] + [(key, value)]
        return self.query(pairs)

    def back(self):
        """The query one answer ago (answers the paste proved are not undone by Back)."""
        for index in range(len(self.pairs) - 1, -1, -1):
            if self.pairs[index][0] not in self.known:
                return self.query(self.pairs[:index] + self.pairs[index + 1 :])
        return None

    def restart(self):
        """The same start, with only what the paste proved."""
        return self.query([pair for pair in self.pairs if pair[0] in self.known])

    def hidden_fields(self, without=()):
        """The state as form fields, so that a plain GET form carries it on."""
        pairs = parse_qsl(self.query(), keep_blank_values=True)
        return [(k, v) for k, v in pairs if k not in without]


def parse_state(params, question_keys, framework_keys, variables):
    """Read a QueryDict (or any list of pairs); whatever is unknown is dropped with a note.
    `variables` maps each tailoring variable's key to its snippets.Variable."""
    items = list(params.lists()) if hasattr(params, "lists") else [(k, [v]) for k, v in params]
    state = State(tailoring=frozenset([FRAMEWORK, *variables]))
    for key, values in items:
        value = values[-1].strip()
        if key == "entry":
            state.entry = value or None
        elif key == "cand":
            state.candidates = parse_candidates(value)
        elif key == "known":
            state.known = [k for k in value.split(",") if k]
        elif key.startswith("ev."):
            state.evidence[key[3:]] = value[:MAX_EVIDENCE_CHARS]
        elif key == FRAMEWORK:
            _keep(state, key, value, value in framework_keys, "an unknown framework")
        elif key in variables:
            choices = [choice.value for choice in variables[key].choices]
            _keep(state, key, value, value in choices, f"not one of {', '.join(choices)}")
        elif key in question_keys:
            _keep(state, key, value, value in ANSWERS, "not yes, no or unsure")
        else:
            state.notes.append(f"Ignored “{key}”: the wizard has no such question.")
    state.known = [k for k in state.known if k in state.answers or k == FRAMEWORK]
    state.evidence = {k: v for k, v in state.evidence.items() if k in state.known}
    return state


def _keep(state, key, value, valid, why):
    if valid:
        state.pairs = [(k, v) for k, v in state.pairs if k != key] + [(key, value)]
    else:
        state.notes.append(f"Ignored {key}={value!r}: {why}.")


def corrected(state, key):
    """The query with a pre-answered question opened again (the paste was wrong about it)."""
    pairs = [(k, v) for k, v in state.pairs if k != key]
    known = [k for k in state.known if k != key]
    evidence = {k: v for k, v in state.evidence.items() if k != key}
    return State(
        state.entry, state.candidates, pairs, known, evidence, tailoring=state.tailoring
    ).query()


MAX_CANDIDATES = 8


def parse_candidates(value):
    """[(slug, probability)] from "slug:0.91,other:0.05"; what cannot be read is left out."""
    candidates = []
    for item in value.split(",")[:MAX_CANDIDATES]:
        slug, _, p = item.partition(":")
        try:
            p = float(p)
        except ValueError:
            continue
        if slug and 0.0 <= p <= 1.0:
            candidates.append((slug, p))
    return candidates


def format_candidates(candidates):
    return ",".join(f"{slug}:{p:.3f}" for slug, p in candidates[:MAX_CANDIDATES])
