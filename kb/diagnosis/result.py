"""The Diagnosis: what every surface (results page, API, CLI, /go, wizard) reads."""

from dataclasses import dataclass, field

MATCH, POSSIBLE, NO_MATCH = "match", "possible", "no_match"


@dataclass
class Reason:
    kind: str  # signature, exception, assert_site, fingerprint or fulltext
    summary: str  # for people: what matched where
    lines: tuple = ()  # indices of normalised lines
    weight: float = 0.0  # what it added to the score (the utility: calibration.py)
    generic: bool = False  # matched only lines that never identify a failure alone
    feature: str = ""  # the kind of evidence it counts as (calibration.FEATURES)
    amount: float = 0.0  # its strength: the signature's weight


@dataclass
class Candidate:
    slug: str
    code: str
    title: str
    score: float = 0.0  # utility
    confidence: float = 0.0  # the calibrated probability that this is the failure
    reasons: list = field(default_factory=list)
    features: dict = field(default_factory=dict)  # calibration feature -> strength

    @property
    def has_specific_evidence(self):
        """A signature hit on a line that is not generic: what a `match` requires."""
        return any(r.kind in ("signature", "assert_site") and not r.generic for r in self.reasons)


@dataclass
class Diagnosis:
    verdict: str
    candidates: list
    facts: dict  # key -> Fact
    normalised: object  # normalize.Normalised
    parsed: object  # parse.Parsed
    first_failing_rank: int | None
    masked: str  # the masked root failure, for grouping unmatched pastes
    fingerprint: str

    @property
    def best(self):
        return self.candidates[0] if self.candidates else None

    @property
    def root(self):
        return self.parsed.root

    def source_lines(self, candidate=None):
        """Line numbers (0-based) of the paste that the candidate's reasons point at."""
        candidate = candidate or self.best
        if candidate is None:
            return set()
        lines = self.normalised.lines
        return {lines[i].source for reason in candidate.reasons for i in reason.lines}
