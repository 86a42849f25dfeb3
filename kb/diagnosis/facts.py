"""Facts: what a paste proves about the setup that produced it, as stable keys and values
(`framework=lightning`, `static_graph=yes`, `torch_version=2.13.0`). The rules are content
(`fixtures/diagnosis.yaml`); a fact is only set when a rule's pattern is in the text, and the
first rule that matches a key decides its value."""

from bisect import bisect_right
from dataclasses import dataclass

from kb.diagnosis.patternset import PatternSet


@dataclass(frozen=True)
class Fact:
    key: str
    value: str
    line: int  # index of the normalised line that proves it
    evidence: str  # the text that matched


class FactRules:
    def __init__(self, rules):
        self.rules = list(rules)
        self._text = [i for i, rule in enumerate(self.rules) if rule.scope == "text"]
        self._frames = [i for i, rule in enumerate(self.rules) if rule.scope == "frames"]
        self._text_set = PatternSet([self.rules[i].pattern for i in self._text])
        self._frame_set = PatternSet([self.rules[i].pattern for i in self._frames])

    def extract(self, normalised, parsed):
        found = {}  # rule index -> (match, line index)
        for hit in self._text_set.hits(normalised.text):
            match = self._text_set.matches(hit, normalised.text, limit=1)[0]
            found[self._text[hit]] = (match, normalised.line_at(match.start()))

        frames = [frame for block in parsed.exceptions for frame in block.frames]
        if frames and self._frame_set:
            starts, total = [], 0
            for frame in frames:
                starts.append(total)
                total += len(frame.path) + len(frame.function) + 2
            text = "\n".join(f"{frame.path} {frame.function}" for frame in frames)
            for hit in self._frame_set.hits(text):
                match = self._frame_set.matches(hit, text, limit=1)[0]
                frame = frames[bisect_right(starts, match.start()) - 1]
                found[self._frames[hit]] = (match, frame.index)

        facts = {}
        for index in sorted(found):
            rule = self.rules[index]
            if rule.key in facts:
                continue
            match, line = found[index]
            value = rule.value
            if "{1}" in value:
                value = value.replace("{1}", match.group(1) or "")
            facts[rule.key] = Fact(rule.key, value, line, match.group(0))
        return facts
