"""Masking: replace what varies between two occurrences of the same failure (paths, addresses,
numbers) so that they group together. Used on short texts only (a root message, a few lines)."""

import hashlib

import re2

from kb.patterns import quiet_options

_RULES = [
    (re2.compile(r"(?:[A-Za-z]:)?(?:[\w.~+-]*[/\\])+([\w.+-]+)", quiet_options()), r"<path>/\1"),
    (re2.compile(r"\b0x[0-9a-fA-F]+\b", quiet_options()), "<hex>"),
    (re2.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b", quiet_options()), "<addr>"),
    (re2.compile(r"\b[0-9a-f]{12,}\b", quiet_options()), "<id>"),
    (re2.compile(r"\d+(?:\.\d+)?", quiet_options()), "<n>"),
]
MAX_MASKED_CHARS = 4000


def mask(text):
    text = text[:MAX_MASKED_CHARS]
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text


def fingerprint(masked_text):
    return hashlib.sha256(masked_text.encode()).hexdigest()[:32]
