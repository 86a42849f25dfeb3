"""From evidence to probabilities: how much each kind of evidence counts, fitted on real pastes.

Every candidate entry has features: the strength (its signatures' weights, from the entry
files) of what matched, summed by kind and by place (the root exception, another error line,
any other line). Its utility is Σ coefficient × feature; "none of the known entries" has a
utility of its own, from what the paste is (a bias, and whether it holds a Python traceback).
The probabilities are the softmax over the candidates and that "none": a conditional logit,
so they add up to at most 1 across the candidates, and the top one's probability is the
`confidence` that it is the failure.

The coefficients, and the confidence from which the verdict is `match`, are content
(`calibration:` in a family.yaml, written by `manage.py refit`), fitted on the lab and field
corpora (kb/diagnosis/fitting.py). A taxonomy without a calibration uses UNFITTED.
"""

import math
from dataclasses import dataclass, field

from kb.diagnosis.result import MATCH, NO_MATCH, POSSIBLE

# Evidence a candidate has, by kind and place.
FEATURES = {
    "text_root": "a signature on the root exception (or the failure's log lines)",
    "text_error": "a signature on another error line",
    "text_other": "a signature on any other line",
    "root_text_elsewhere": "a signature meant for the root exception, found elsewhere",
    "generic": "a signature on lines that never identify a failure alone",
    "assert_root": "a C++ assert site on the root exception",
    "assert_elsewhere": "a C++ assert site elsewhere",
    "exception_root": "the exception type of the root exception",
    "exception_elsewhere": "the exception type of another exception",
    "fingerprint": "the log fingerprint, in order",
    "fulltext": "words of the paste (full-text search)",
}
# What the paste is, for the utility of "none of the known entries".
NONE_FEATURES = {
    "bias": "always 1",
    "traceback": "1 when the paste holds a Python exception",
}


@dataclass(frozen=True)
class Calibration:
    coefficients: dict  # feature -> utility per unit of strength
    none: dict  # none feature -> utility
    match: float  # the top confidence from which the verdict is `match`
    possible: float  # ... and `possible`
    fitted: str = ""  # on what, and when
    held_out: tuple = field(default=(), compare=False)  # per-entry figures of the fit

    @classmethod
    def from_part(cls, part):
        """From `calibration:` as family.yaml holds it."""
        return cls(
            coefficients={i["feature"]: i["coefficient"] for i in part["coefficients"]},
            none={i["feature"]: i["coefficient"] for i in part["none"]},
            match=part["match"],
            possible=part["possible"],
            fitted=part["fitted"],
            held_out=tuple(part["held_out"]),
        )

    def utility(self, features):
        return sum(self.coefficients.get(name, 0.0) * value for name, value in features.items())

    def none_utility(self, none):
        return sum(self.none.get(name, 0.0) * value for name, value in none)

    def apply(self, candidates, none):
        """Set each candidate's score (utility), confidence (probability) and reasons'
        weights, `none` being the paste's none_features; return them best first."""
        for candidate in candidates:
            candidate.score = self.utility(candidate.features)
            for reason in candidate.reasons:
                reason.weight = round(self.coefficients.get(reason.feature, 0.0) * reason.amount, 3)
        ranked = sorted(candidates, key=lambda c: (-c.score, c.code))
        for candidate, p in zip(ranked, probabilities(self, ranked, none), strict=True):
            candidate.confidence = round(p, 3)
            candidate.score = round(candidate.score, 3)
        return ranked

    def verdict(self, candidates):
        if not candidates:
            return NO_MATCH
        top = candidates[0]
        if top.confidence >= self.match and top.has_specific_evidence:
            return MATCH
        if top.confidence >= self.possible:
            return POSSIBLE
        return NO_MATCH


def none_features(parsed):
    return (("bias", 1.0), ("traceback", 1.0 if parsed.root is not None else 0.0))


def probabilities(calibration, candidates, none):
    """P(each candidate), the rest being P(none of them), from utilities (softmax)."""
    utilities = [calibration.none_utility(none)] + [c.score for c in candidates]
    top = max(utilities)
    weights = [math.exp(u - top) for u in utilities]
    total = sum(weights)
    return [w / total for w in weights[1:]]


# Until `manage.py refit` has run on a taxonomy: every signature on the failure's own lines
# counts fully, elsewhere less, and one such signature of full weight is a `match`.
UNFITTED = Calibration(
    coefficients={
        "text_root": 3.0,
        "text_error": 1.8,
        "text_other": 0.9,
        "root_text_elsewhere": 0.9,
        "generic": 0.6,
        "assert_root": 3.0,
        "assert_elsewhere": 1.8,
        "exception_root": 0.6,
        "exception_elsewhere": 0.3,
        "fingerprint": 1.0,
        "fulltext": 0.5,
    },
    none={"bias": 1.0},
    match=0.8,
    possible=0.5,
    fitted="not fitted: run manage.py refit",
)
