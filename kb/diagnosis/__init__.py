"""The diagnosis engine: paste → normalise → parse → facts → signatures → rank → Diagnosis.

Plain modules with no Django imports; `kb.diagnosis.repository` feeds them from the database.
"""

import gc
import threading

from kb.diagnosis.calibration import none_features
from kb.diagnosis.facts import FactRules
from kb.diagnosis.mask import fingerprint, mask
from kb.diagnosis.normalize import ascii_int, normalise
from kb.diagnosis.parse import parse
from kb.diagnosis.rank import evidence
from kb.diagnosis.result import Diagnosis
from kb.patterns import compile_regex

MASKED_TAIL_LINES = 12


class _CollectorPaused:
    """Python's cyclic garbage collector paused while pastes are diagnosed.

    A paste of many lines makes hundreds of thousands of small objects (lines, frames,
    blocks), none in a reference cycle: reference counting frees them all. Left running, the
    collector walks the whole heap again and again as they pile up, which doubles the time of
    a large paste and makes it grow faster than the paste. Threads of one process share the
    collector, so the last diagnosis to finish turns it back on."""

    def __init__(self):
        self._lock = threading.Lock()
        self._running = 0
        self._was_enabled = False

    def __enter__(self):
        with self._lock:
            if self._running == 0:
                self._was_enabled = gc.isenabled()
                gc.disable()
            self._running += 1

    def __exit__(self, *exc_info):
        with self._lock:
            self._running -= 1
            if self._running == 0 and self._was_enabled:
                gc.enable()


collector_paused = _CollectorPaused()


class Engine:
    """Everything compiled from the knowledge base and the diagnosis config, built once per
    content revision and shared by every request."""

    def __init__(self, index, config):
        self.index = index
        self.config = config
        self.fact_rules = FactRules(config.facts)
        self._failing_rank = [_compile(p) for p in config.failing_rank]

    def diagnose(self, text, fulltext=None):
        """`fulltext(query) -> {slug: strength}` is the optional full-text fallback."""
        with collector_paused:
            return self._diagnose(text, fulltext)

    def _diagnose(self, text, fulltext):
        normalised = normalise(text)
        parsed = parse(normalised, self.config.wrapper_exceptions)
        facts = self.fact_rules.extract(normalised, parsed)
        query = _failure_text(normalised, parsed)
        found = evidence(self.index, normalised, parsed, fulltext(query) if fulltext else None)
        calibration = self.config.calibration
        candidates = calibration.apply(found, none_features(parsed))
        masked = mask(query)
        return Diagnosis(
            verdict=calibration.verdict(candidates),
            candidates=candidates,
            facts=facts,
            normalised=normalised,
            parsed=parsed,
            first_failing_rank=self._first_failing_rank(normalised, parsed),
            masked=masked,
            fingerprint=fingerprint(masked),
        )

    def _first_failing_rank(self, normalised, parsed):
        for pattern in self._failing_rank:
            match = pattern.search(normalised.text)
            rank = ascii_int(match.group(1) or "") if match else None
            if rank is not None:
                return rank
        if parsed.root is not None and parsed.root.rank is not None:
            return parsed.root.rank
        return None


def _compile(pattern):
    return compile_regex(f"(?m){pattern}")


def _failure_text(normalised, parsed):
    """What identifies this failure: the root exception and its innermost frames, else the
    last lines of the paste."""
    root = parsed.root
    if root is not None:
        frames = " < ".join(frame.function for frame in reversed(root.frames[-5:]))
        return f"{root.type}: {root.message}\n{frames}".strip()
    tail = []
    for line in reversed(normalised.lines):
        if len(tail) == MASKED_TAIL_LINES:
            break
        if line.text.strip():
            tail.append(line.text)
    return "\n".join(reversed(tail))
