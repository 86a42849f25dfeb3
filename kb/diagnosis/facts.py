"""Facts: what a paste proves about the setup that produced it, as stable keys and values
(`framework=<key>`, and whatever keys and values the families' rules set). The rules
are content (each family's family.yaml); a fact is only set when a rule's pattern is in the
text, and the first rule that matches a key decides its value.

Exception messages are searched apart from the rest: PyTorch's messages give advice (they
name the keyword argument or the setting that would avoid the error), which proves nothing
about the script, so only rules written for messages look inside them."""

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
        self._scopes = {
            scope: [i for i, rule in enumerate(self.rules) if rule.scope == scope]
            for scope in ("text", "messages", "frames")
        }
        self._sets = {
            scope: PatternSet([self.rules[i].pattern for i in indices])
            for scope, indices in self._scopes.items()
        }

    def extract(self, normalised, parsed):
        found = {}  # rule index -> (match, line index)
        outside, inside = _split_messages(normalised, parsed)
        for scope, text in (("text", outside), ("messages", inside)):
            patterns = self._sets[scope]
            for hit in patterns.hits(text):
                match = patterns.matches(hit, text, limit=1)[0]
                found[self._scopes[scope][hit]] = (match, normalised.line_at(match.start()))

        frames = [frame for block in parsed.exceptions for frame in block.frames]
        if frames and self._sets["frames"]:
            starts, total = [], 0
            for frame in frames:
                starts.append(total)
                total += len(frame.path) + len(frame.function) + 2
            text = "\n".join(f"{frame.path} {frame.function}" for frame in frames)
            for hit in self._sets["frames"].hits(text):
                match = self._sets["frames"].matches(hit, text, limit=1)[0]
                frame = frames[bisect_right(starts, match.start()) - 1]
                found[self._scopes["frames"][hit]] = (match, frame.index)

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


def _split_messages(normalised, parsed):
    """The text twice, offsets kept: once with the exceptions' messages blanked, once with
    everything else blanked. A blanked run keeps the line breaks at its ends, so `^` and `$`
    still hold on the lines left; it is built from slices, whatever the number of lines."""
    text, offsets, lines = normalised.text, normalised.offsets, normalised.lines
    outside, inside, position = [], [], 0
    for block in sorted(parsed.exceptions, key=lambda block: block.index):
        start = max(offsets[block.index], position)
        end = offsets[block.last_index] + len(lines[block.last_index].text)
        if end <= start:
            continue
        outside += [text[position:start], " " * (end - start)]
        inside += [_blank(text[position:start]), text[start:end]]
        position = end
    if not inside:
        return text, ""
    outside.append(text[position:])
    inside.append(_blank(text[position:]))
    return "".join(outside), "".join(inside)


def _blank(segment):
    """Spaces as long as `segment`, but for the line breaks that begin and end it."""
    head = "\n" if segment.startswith("\n") else ""
    tail = "\n" if len(segment) > len(head) and segment.endswith("\n") else ""
    return head + " " * (len(segment) - len(head) - len(tail)) + tail
