"""Ranking: turn signature hits, fingerprints and full-text scores into candidates.

Each candidate gathers its evidence by kind and place (a signature on the root exception, on
another error line, on any other line; an assert site; the exception type; the log
fingerprint in order; words of the paste), each with its strength (the signature's weight);
the calibration (calibration.py) turns that into a utility, a probability and a verdict.
"""

from collections import defaultdict
from dataclasses import dataclass

from kb.diagnosis.patternset import PatternSet
from kb.diagnosis.result import Candidate, Reason
from kb.patterns import regex_for

MAX_LINES_PER_HIT = 20
MAX_LEVEL_LINES = 5000
SHORT_PASTE_LINES = 3
MAX_UNWRAPPED_CHARS = 4000  # a wrapped message is a few lines; a log after it is not joined


@dataclass(frozen=True)
class SignatureSpec:
    entry: str  # slug
    kind: str
    pattern: str
    weight: float = 1.0
    scope: str = "any"


@dataclass(frozen=True)
class EntryInfo:
    slug: str
    code: str
    title: str
    fingerprint: tuple = ()  # ((level, pattern), ...)


class SignatureIndex:
    """Every published signature, compiled once into one RE2 set (plus the generic lines)."""

    def __init__(self, entries, signatures, generic_lines=()):
        self.entries = {entry.slug: entry for entry in entries}
        signatures = [s for s in signatures if s.entry in self.entries]
        self.text_specs = [s for s in signatures if s.kind in ("literal", "regex")]
        self.exception_specs = [s for s in signatures if s.kind == "exception"]
        self.site_specs = [s for s in signatures if s.kind == "assert_site"]
        # Looked up from what the paste holds (a few exceptions and assert sites), so that the
        # cost does not grow with the number of entries.
        self.exceptions_of = defaultdict(list)  # entry slug -> its exception signatures
        for spec in self.exception_specs:
            self.exceptions_of[spec.entry].append(spec)
        self.sites_in_file = defaultdict(list)
        for i, spec in enumerate(self.site_specs):
            self.sites_in_file[_file_name(spec.pattern)].append(i)
        self.patterns = PatternSet([regex_for(s.kind, s.pattern) for s in self.text_specs])
        self.generic = PatternSet(list(generic_lines))
        steps = sorted({pattern for e in entries for _, pattern in e.fingerprint if pattern})
        self._step_patterns = PatternSet(steps)
        self._step_index = {pattern: i for i, pattern in enumerate(steps)}

    def step_matches(self, pattern, text):
        if not pattern:
            return True
        return self._step_patterns.regex(self._step_index[pattern]).search(text) is not None


def _file_name(path):
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def _line_sets(normalised, parsed):
    root = parsed.root
    if root is not None:
        root_lines = set(range(root.index, root.last_index + 1))
    error_lines = {i for i, level in parsed.levels if level in ("ERROR", "CRITICAL")}
    if root is None:
        # No exception: a paste of the message alone, a cut-off one, or a failure printed as
        # log lines (C++ `[E ...]` lines, a launcher's ERROR summary). The assert line, else
        # the error-level lines, else the warnings (a paste of nothing worse is about them),
        # else every line of a paste that short, is the failure.
        warnings = {i for i, level in parsed.levels if level == "WARNING"}
        root_lines = {site.index for site in parsed.assert_sites} or set(error_lines) or warnings
        if not root_lines and len(normalised.lines) <= SHORT_PASTE_LINES:
            root_lines = set(range(len(normalised.lines)))
    elif parsed.root_is_wrapper:
        # Only a launcher's summary, no worker's exception (a worker killed by a signal prints
        # none): what the launcher logged about the worker is the failure as much as its box.
        root_lines |= {site.index for site in parsed.assert_sites} or error_lines
    for block in parsed.exceptions:
        error_lines.update(range(block.index, block.last_index + 1))
    return root_lines, error_lines


def _where(lines, root_lines, error_lines):
    if lines & root_lines:
        return "root"
    if lines & error_lines:
        return "error"
    return "other"


def _describe(spec, where):
    place = {"root": "the root exception", "error": "an error line", "other": "a line"}[where]
    kind = {"literal": "text", "regex": "pattern", "exception": "exception type"}.get(
        spec.kind, "C++ assert site"
    )
    return f"{kind} “{spec.pattern}” on {place}"


def evidence(index, normalised, parsed, fulltext=None):
    """Candidates for the paste, in no order, each with its reasons and features."""
    root_lines, error_lines = _line_sets(normalised, parsed)
    found = {}  # slug -> Candidate
    generic_cache = {}

    def generic(lines):
        """Only lines that signatures hit are checked against the generic patterns."""
        for line in lines:
            if line not in generic_cache:
                generic_cache[line] = bool(index.generic.hits(normalised.lines[line].text))
        return bool(lines) and all(generic_cache[line] for line in lines)

    def add(spec, kind, lines, where, generic=False):
        entry = index.entries[spec.entry]
        candidate = found.setdefault(entry.slug, Candidate(entry.slug, entry.code, entry.title))
        feature = _feature(kind, spec.scope, where, generic)
        candidate.reasons.append(
            Reason(
                kind,
                _describe(spec, where),
                tuple(sorted(lines)),
                generic=generic,
                feature=feature,
                amount=spec.weight,
            )
        )
        candidate.features[feature] = candidate.features.get(feature, 0.0) + spec.weight

    located = index.patterns.locate(normalised.text, limit=MAX_LINES_PER_HIT)
    for hit, offsets in sorted(located.items()):
        spec = index.text_specs[hit]
        lines = {normalised.line_at(offset) for offset in offsets}
        add(spec, "signature", lines, _where(lines, root_lines, error_lines), generic(lines))
    for hit in sorted(_unwrapped_hits(index, parsed.root) - set(located)):
        lines = set(range(parsed.root.index, parsed.root.last_index + 1))
        add(index.text_specs[hit], "signature", lines, "root")

    site_lines = defaultdict(set)
    for site in parsed.assert_sites:
        for i in index.sites_in_file.get(_file_name(site.path), ()):
            if index.site_specs[i].pattern in site.path:
                site_lines[i].add(site.index)
    for i in sorted(site_lines):
        lines = site_lines[i]
        add(index.site_specs[i], "assert_site", lines, _where(lines, root_lines, error_lines))

    raised = defaultdict(set)  # exception name -> its lines
    for block in parsed.exceptions:
        raised[block.type].add(block.index)
        raised[block.short_type].add(block.index)
    for slug in list(found):  # an exception type only supports other evidence
        for spec in index.exceptions_of.get(slug, ()):
            lines = raised.get(spec.pattern)
            if lines:
                add(spec, "exception", lines, _where(lines, root_lines, error_lines))

    for candidate in found.values():
        steps = index.entries[candidate.slug].fingerprint
        matched = _fingerprint_lines(index, normalised, parsed, steps)
        if matched:
            candidate.reasons.append(
                Reason(
                    "fingerprint",
                    "the log fingerprint, in order",
                    matched,
                    feature="fingerprint",
                    amount=1.0,
                )
            )
            candidate.features["fingerprint"] = 1.0

    for slug, strength in (fulltext or {}).items():
        entry = index.entries.get(slug)
        if entry is None or strength <= 0:
            continue
        candidate = found.setdefault(slug, Candidate(entry.slug, entry.code, entry.title))
        amount = min(strength, 1.0)
        candidate.reasons.append(
            Reason("fulltext", "words of the paste", (), feature="fulltext", amount=amount)
        )
        candidate.features["fulltext"] = amount
    return list(found.values())


def _unwrapped_hits(index, root):
    """Signatures found in the root exception's message once its lines are joined: a message
    a terminal, a notebook or a forum wrapped over several lines, at a space (joined with
    one) or in the middle of a word (joined with none)."""
    if root is None or root.last_index == root.index:
        return set()
    lines = root.message[:MAX_UNWRAPPED_CHARS].splitlines()
    at_spaces = " ".join(" ".join(lines).split())
    in_words = "".join(lines)
    return set(index.patterns.hits(at_spaces)) | set(index.patterns.hits(in_words))


def _feature(kind, scope, where, generic):
    if kind == "assert_site":
        return "assert_root" if where == "root" else "assert_elsewhere"
    if kind == "exception":
        return "exception_root" if where == "root" else "exception_elsewhere"
    if generic:
        return "generic"
    if where == "root":
        return "text_root"
    if scope == "root":
        return "root_text_elsewhere"
    return f"text_{where}"


def _fingerprint_lines(index, normalised, parsed, steps):
    """The lines where the fingerprint's steps occur in order, or () if they do not all."""
    if not steps:
        return ()
    matched, position = [], 0
    levels = parsed.levels[:MAX_LEVEL_LINES]
    for level, pattern in steps:
        while position < len(levels):
            line, line_level = levels[position]
            position += 1
            same_level = line_level == level or (level == "ERROR" and line_level == "CRITICAL")
            if same_level and index.step_matches(pattern, normalised.lines[line].text):
                matched.append(line)
                break
        else:
            return ()
    return tuple(matched)
