"""The wizard in-process, on plain data read from a taxonomy folder's files: no database, no
HTTP. A simulated user answers it as someone who knows their own setup would; the site's views
add only the reading of the same content from the database (wizard/repository.py)."""

from functools import cache
from pathlib import Path
from urllib.parse import parse_qsl

from kb.taxonomy.reading import read_family_parts, read_taxonomy
from tests.conftest import variables_of
from wizard.content import Entry, Framework
from wizard.flow import next_step, step_as_json
from wizard.paste import paste_state
from wizard.reasoning import NEUTRAL, YES
from wizard.scope import entry_scope, paste_scope
from wizard.state import FRAMEWORK, parse_candidates, parse_state


class Wizard:
    def __init__(self, root):
        taxonomy = read_taxonomy(root)
        self.frameworks = {f["key"]: Framework(f["key"], f["name"]) for f in taxonomy.frameworks}
        self.entries = {
            source.document["slug"]: Entry.from_document(
                source.document, self.frameworks, f"/kb/{source.document['slug']}/"
            )
            for source in taxonomy.entries
            if source.document["status"] == "published"
        }
        self.variables = variables_of(root)
        self.question_facts = {
            q["key"]: q["fact"] for parts in read_family_parts(root) for q in parts["questions"]
        }

    def scope(self, slug, candidates=None):
        if candidates:
            return paste_scope(candidates, self.entries)
        return entry_scope(self.entries[slug], self.entries)

    def paste_pairs(self, diagnosis):
        """The query pairs a paste starts in (what the diagnosis page's "Confirm it" links to)."""
        candidates = [(c.slug, c.confidence) for c in diagnosis.candidates]
        scope = self.scope(None, candidates)
        if scope is None:
            return None
        state = paste_state(
            scope,
            candidates,
            diagnosis.facts,
            self.question_facts,
            self.variables,
            self.frameworks.keys(),
        )
        return _pairs(state.query())

    def step(self, pairs):
        """What GET /api/wizard/ answers for these query pairs (the first names the entry)."""
        given = dict(pairs)
        scope = self.scope(given["entry"], parse_candidates(given.get("cand", "")))
        state = parse_state(
            [p for p in pairs if p[0] not in ("entry", "cand")],
            scope.questions.keys(),
            self.frameworks.keys(),
            self.variables,
        )
        state.entry = scope.start.slug
        state.candidates = parse_candidates(given.get("cand", ""))
        return step_as_json(next_step(scope, state, self.frameworks, self.variables))

    def walk(self, truth, start=None, framework=None, tailoring=None, pairs=(), otherwise="no"):
        """Answer as someone whose setup is `truth` (question key -> answer; `otherwise` to
        the rest) and the `tailoring` values (else each variable's default) until the result,
        then switch it to `framework` where it offers it. Returns (result, the diagnostic
        questions asked, the result's query pairs)."""
        pairs, asked = list(pairs) or [("entry", start)], []
        tailoring = tailoring or {}
        for _ in range(50):
            step = self.step(pairs)
            result = step.get("result")
            if result and framework in result["frameworks"] and result["framework"] != framework:
                pairs.append((FRAMEWORK, framework))  # the switch to the user's framework
                continue
            if result:
                return result, asked, pairs
            key = step["question"]["key"]
            if key in self.variables:
                answer = tailoring.get(key, self.variables[key].default)
            else:
                asked.append(key)
                answer = truth.get(key, otherwise)
            assert answer in step["question"]["choices"], (key, step["question"])
            pairs.append((key, answer))
        raise AssertionError(f"no result after 50 steps: {pairs}")


def _pairs(query):
    return parse_qsl(query, keep_blank_values=True)


@cache
def wizard_of(root):
    return Wizard(Path(root))


def answers_of(scope, hypothesis, neutral="unsure"):
    """What someone whose setup is `hypothesis` answers: yes where its checks expect a yes, no
    where they expect a no, and `neutral` to the questions it says nothing about."""
    answers = {}
    for key, asked in scope.questions.items():
        p = asked.reasoning.p_yes.get(hypothesis, NEUTRAL)
        answers[key] = YES if p > NEUTRAL else "no" if p < NEUTRAL else neutral
    return answers
