"""Masking: replace what is private (secrets, e-mail addresses, user names) and what varies
between two occurrences of the same failure (paths, addresses, numbers) by placeholders, so that
nothing private is stored and repeats group together.

The rules are the error hook's (`faultline_hook.MASK_RULES`, standard library only, since it
runs inside training jobs), compiled here with RE2: a link the hook prints and the paste it came
from are masked alike. Importing the hook also chains its exception hooks in this process; they
print nothing unless FAULTLINE_URL is set.
"""

import hashlib
from dataclasses import dataclass

import re2

from faultline_hook import MASK_RULES
from kb.patterns import quiet_options

MAX_MASKED_CHARS = 4000


@dataclass(frozen=True)
class _Rule:
    pattern: object  # compiled by RE2
    head: bytes  # the replacement up to its \1 (all of it when there is none)
    tail: bytes | None  # the replacement after its \1; None when there is no \1
    needles: tuple  # bytes; the rule cannot match a text that holds none of them


def _rule(source, replacement, needles):
    head, group, tail = replacement.encode().partition(rb"\1")
    pattern = re2.compile(source.encode(), options=quiet_options())
    return _Rule(pattern, head, tail if group else None, tuple(n.encode() for n in needles))


_RULES = [_rule(*rule) for rule in MASK_RULES]


def _substitute(rule, data):
    """`rule.pattern.sub(replacement, data)`, with the replacement parsed once: google-re2's own
    sub expands the template anew for each match, several microseconds a match, and a paste
    dense with numbers has thousands."""
    pieces, end = [], 0
    for match in rule.pattern.finditer(data):
        start, stop = match.span()
        pieces += (data[end:start], rule.head)
        if rule.tail is not None:
            group_start, group_stop = match.span(1)  # faster than match.group(1)
            pieces += (data[group_start:group_stop], rule.tail)
        end = stop
    if not pieces:
        return data
    pieces.append(data[end:])
    return b"".join(pieces)


def _window(text, limit):
    """The first `limit` characters, less a last word the cut split: a token cut short could
    fall below the length that gives its shape away."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    if text[limit].isspace():
        return head
    words = head.rsplit(None, 1)
    return words[0] if len(words) == 2 else head


def mask(text, limit=MAX_MASKED_CHARS):
    """`text` (at most its first `limit` characters) with secrets, private names, paths,
    addresses and numbers replaced by placeholders. A masked text masks to itself (but where a
    digit is glued to a word: faultline_hook.MASK_RULES)."""
    # On UTF-8 bytes: matching str makes google-re2 convert every match's offsets back.
    data = _window(text, limit).encode()
    for rule in _RULES:
        if not rule.needles or any(needle in data for needle in rule.needles):
            data = _substitute(rule, data)
    return data.decode()


def fingerprint(masked_text):
    return hashlib.sha256(masked_text.encode()).hexdigest()[:32]
