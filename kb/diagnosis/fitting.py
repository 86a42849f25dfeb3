"""Fitting the calibration (calibration.py) on corpora of pastes whose answer is known, and
measuring it on pastes it did not see.

A sample is one paste: its label (the entry the thread or the lab found, or None for a failure
outside the knowledge base), the source it came from (a repository: a thread never scores
itself), and its options: the candidates' features and the paste's "none" features, which do
not depend on the calibration. The fit is a conditional logit (the softmax over the options)
by maximum likelihood, with a small L2 penalty and non-negative evidence coefficients (more
evidence for an entry never counts against it), solved by Newton's method in plain Python:
the vectors are short and sparse, and the site needs no numerical library.
"""

import hashlib
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace

from kb.diagnosis.calibration import FEATURES, NONE_FEATURES, Calibration

PARAMETERS = [*FEATURES, *(f"none.{name}" for name in NONE_FEATURES)]
POSITION = {name: i for i, name in enumerate(PARAMETERS)}
PENALTY = 0.05  # L2, per parameter: keeps a kind of evidence seen only in a few pastes sane
PRECISION = 0.97  # of `match`, on pastes the fit did not see
LEAST_MATCH = 0.5  # never a `match` for an answer less likely than not, however precise the rest
POSSIBLE = 0.2  # `possible` from a one-in-five chance that the top entry is the failure
FOLDS = 5
BINS = 10


@dataclass(frozen=True)
class Option:
    slug: str
    code: str
    features: tuple  # ((feature, strength), ...)
    specific: bool  # has evidence a `match` may rest on


@dataclass(frozen=True)
class Sample:
    name: str
    corpus: str  # "lab" or "field"
    source: str  # what the paste came from: a thread's repository, or a lab scenario
    label: str | None  # the entry, or None: outside the knowledge base
    options: tuple  # Option, ...
    none: tuple  # ((none feature, value), ...)
    near_miss: bool = False


@dataclass(frozen=True)
class Prediction:
    sample: Sample
    top: str | None
    confidence: float
    verdict: str

    @property
    def right(self):
        return self.top is not None and self.top == self.sample.label


def _vector(pairs, prefix=""):
    return tuple((POSITION[prefix + name], value) for name, value in pairs if value)


def _design(sample):
    """The sample's options as sparse vectors, none first; and the label's position."""
    vectors = [_vector(sample.none, "none.")] + [_vector(o.features) for o in sample.options]
    slugs = [o.slug for o in sample.options]
    chosen = 0 if sample.label is None else (slugs.index(sample.label) + 1)
    return vectors, chosen


def fit(samples, penalty=PENALTY, iterations=50):
    """Coefficients (parameter -> value) maximising the likelihood of the samples' labels.
    Samples whose label is not among their options say nothing about the coefficients."""
    designs = []
    for sample in samples:
        if sample.label is None or sample.label in {o.slug for o in sample.options}:
            designs.append(_design(sample))
    n = len(PARAMETERS)
    theta = [0.0] * n
    free = set(range(n))  # evidence coefficients held at 0 leave this set
    for _ in range(4 * n):
        theta = _newton(designs, theta, free, penalty, iterations)
        negative = [i for i in free if i < len(FEATURES) and theta[i] < 0]
        if not negative:
            break
        for i in negative:
            theta[i] = 0.0
            free.discard(i)
    return dict(zip(PARAMETERS, theta, strict=True))


def _newton(designs, theta, free, penalty, iterations):
    n = len(theta)
    for _ in range(iterations):
        gradient = [-penalty * t for t in theta]
        hessian = [[0.0] * n for _ in range(n)]
        for i in range(n):
            hessian[i][i] = penalty
        for vectors, chosen in designs:
            utilities = [sum(theta[i] * v for i, v in vector) for vector in vectors]
            top = max(utilities)
            weights = [math.exp(u - top) for u in utilities]
            total = sum(weights)
            mean = defaultdict(float)
            for weight, vector in zip(weights, vectors, strict=True):
                for i, v in vector:
                    mean[i] += weight / total * v
            for i, v in vectors[chosen]:
                gradient[i] += v
            for i, v in mean.items():
                gradient[i] -= v
            for weight, vector in zip(weights, vectors, strict=True):
                p = weight / total
                for i, vi in vector:
                    for j, vj in vector:
                        hessian[i][j] += p * vi * vj
            for i, vi in mean.items():
                for j, vj in mean.items():
                    hessian[i][j] -= vi * vj
        keep = sorted(free)
        step = _solve([[hessian[i][j] for j in keep] for i in keep], [gradient[i] for i in keep])
        # A full Newton step can overshoot where the data nearly separate (one fold's fit then
        # ran off to coefficients that rank nothing right): halve it until the objective rises.
        before, scale = _objective(designs, theta, penalty), 1.0
        while True:
            trial = theta[:]
            for i, delta in zip(keep, step, strict=True):
                trial[i] += scale * delta
            if _objective(designs, trial, penalty) >= before or scale < 1e-4:
                break
            scale /= 2
        theta = trial
        if max((abs(scale * d) for d in step), default=0.0) < 1e-7:
            break
    return theta


def _objective(designs, theta, penalty):
    """The penalised log-likelihood that the fit maximises."""
    total = -penalty / 2 * sum(t * t for t in theta)
    for vectors, chosen in designs:
        utilities = [sum(theta[i] * v for i, v in vector) for vector in vectors]
        top = max(utilities)
        total += utilities[chosen] - top - math.log(sum(math.exp(u - top) for u in utilities))
    return total


def _solve(matrix, vector):
    """Gaussian elimination with partial pivoting (the matrix is small and positive
    definite)."""
    n = len(vector)
    rows = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            for c in range(col, n + 1):
                rows[r][c] -= factor * rows[col][c]
    solution = [0.0] * n
    for r in range(n - 1, -1, -1):
        rest = sum(rows[r][c] * solution[c] for c in range(r + 1, n))
        solution[r] = (rows[r][n] - rest) / rows[r][r]
    return solution


def calibration_of(coefficients, match, possible=POSSIBLE, fitted="", held_out=()):
    return Calibration(
        coefficients={name: round(coefficients[name], 4) for name in FEATURES},
        none={name: round(coefficients[f"none.{name}"], 4) for name in NONE_FEATURES},
        match=round(match, 4),
        possible=possible,
        fitted=fitted,
        held_out=tuple(held_out),
    )


def as_part(calibration):
    """The calibration as family.yaml holds it (`calibration:`)."""
    return {
        "fitted": calibration.fitted,
        "coefficients": [
            {"feature": name, "coefficient": value}
            for name, value in calibration.coefficients.items()
        ],
        "none": [
            {"feature": name, "coefficient": value} for name, value in calibration.none.items()
        ],
        "match": calibration.match,
        "possible": calibration.possible,
        "held_out": [dict(row) for row in calibration.held_out],
    }


@dataclass
class _Scored:
    slug: str
    code: str
    features: dict
    specific: bool
    score: float = 0.0
    confidence: float = 0.0
    reasons: list = field(default_factory=list)

    @property
    def has_specific_evidence(self):
        return self.specific


def predict(calibration, sample):
    """What the engine would answer for the sample under this calibration."""
    candidates = [_Scored(o.slug, o.code, dict(o.features), o.specific) for o in sample.options]
    ranked = calibration.apply(candidates, sample.none)
    top = ranked[0] if ranked else None
    return Prediction(
        sample,
        top.slug if top else None,
        top.confidence if top else 0.0,
        calibration.verdict(ranked),
    )


def match_threshold(predictions, precision=PRECISION):
    """The lowest top confidence from which the answers that may be a `match` (specific
    evidence) are right at least `precision` of the time, and never below LEAST_MATCH (right
    answers far above it would otherwise carry wrong ones below it). Where none is, the one
    from which they are right most often, among those that keep at least half of them (a
    threshold that keeps only the few surest is no answer for the rest); the report then
    shows the precision it fell short at."""
    eligible = sorted(
        (p for p in predictions if p.top is not None and _specific(p)),
        key=lambda p: -p.confidence,
    )
    reached, best, best_precision, right = None, 1.0, -1.0, 0
    for count, prediction in enumerate(eligible, 1):
        right += prediction.right
        if count < len(eligible) and eligible[count].confidence == prediction.confidence:
            continue  # a threshold cannot split equal confidences
        if prediction.confidence < LEAST_MATCH:
            break
        if right / count >= precision:
            reached = prediction.confidence
        if count * 2 >= len(eligible) and right / count >= best_precision:
            best, best_precision = prediction.confidence, right / count
    return reached if reached is not None else best


def _specific(prediction):
    return any(o.specific for o in prediction.sample.options if o.slug == prediction.top)


def folds_of(samples, k=FOLDS):
    """Field samples in k folds by source, as even as the sources allow, the same on every
    machine: the largest sources first, each to the fold with the fewest samples."""
    sizes = Counter(s.source for s in samples)
    order = sorted(sizes, key=lambda s: (-sizes[s], hashlib.md5(s.encode()).hexdigest()))
    fold_of, load = {}, [0] * k
    for source in order:
        fold = min(range(k), key=lambda f: (load[f], f))
        fold_of[source] = fold
        load[fold] += sizes[source]
    return [[s for s in samples if fold_of[s.source] == f] for f in range(k)]


@dataclass
class Evaluation:
    calibration: Calibration
    folds: list  # [[Prediction, ...] per held-out fold of the field corpus]
    lab: list  # [Prediction] of the lab corpus under the final calibration

    @property
    def held_out(self):
        return [p for fold in self.folds for p in fold]


def evaluate(samples, k=FOLDS, precision=PRECISION, penalty=PENALTY, fitted=""):
    """Cross-validate by source, then fit on everything.

    Each fold of the field corpus is scored by coefficients fitted on the lab and the other
    folds, and judged `match` or not by a threshold chosen on the other folds' scores (each
    from coefficients that did not see that fold): no paste is scored by a fit that saw its
    repository, and no threshold is chosen on the scores it is applied to. The final
    calibration is fitted on everything, with the threshold chosen on all the folds' scores."""
    lab = [s for s in samples if s.corpus == "lab"]
    folds = folds_of([s for s in samples if s.corpus != "lab"], k)
    scored = []  # per fold: its coefficients, and its pastes scored by them (no threshold)
    for i, fold in enumerate(folds):
        rest = [s for j, other in enumerate(folds) if j != i for s in other]
        coefficients = fit(lab + rest, penalty)
        unthresholded = calibration_of(coefficients, match=1.0)
        scored.append((coefficients, [predict(unthresholded, s) for s in fold]))
    predicted = []
    for i, (coefficients, _) in enumerate(scored):
        others = [p for j, (_, fold) in enumerate(scored) if j != i for p in fold]
        calibration = calibration_of(coefficients, match_threshold(others, precision))
        predicted.append([predict(calibration, s) for s in folds[i]])
    coefficients = fit(lab + [s for fold in folds for s in fold], penalty)
    threshold = match_threshold([p for _, fold in scored for p in fold], precision)
    final = calibration_of(coefficients, threshold, fitted=fitted)
    final = replace(final, held_out=tuple(per_entry([p for fold in predicted for p in fold])))
    return Evaluation(final, predicted, [predict(final, s) for s in lab])


def figures(predictions):
    """The report's figures for some predictions (None where nothing counts)."""
    known = [p for p in predictions if p.sample.label is not None]
    negatives = [p for p in predictions if p.sample.label is None]
    near = [p for p in negatives if p.sample.near_miss]
    matches = [p for p in predictions if p.verdict == "match"]

    def rate(part, good):
        return sum(map(good, part)) / len(part) if part else None

    return {
        "pastes": len(known),
        "negatives": len(negatives),
        "top-1": rate(known, lambda p: p.right),
        "top-1 with match": rate(known, lambda p: p.right and p.verdict == "match"),
        "negatives not match": rate(negatives, lambda p: p.verdict != "match"),
        "near misses not match": rate(near, lambda p: p.verdict != "match"),
        "match precision": rate(matches, lambda p: p.right),
        "ECE": expected_calibration_error(predictions),
    }


def expected_calibration_error(predictions, bins=BINS):
    """|confidence − accuracy| of the top entry, averaged over 10 equal-width bins of
    confidence weighted by their size; pastes with no candidate at all predict nothing."""
    scored = [p for p in predictions if p.top is not None]
    if not scored:
        return None
    binned = defaultdict(list)
    for p in scored:
        binned[min(int(p.confidence * bins), bins - 1)].append(p)
    return sum(
        abs(sum(p.confidence for p in part) - sum(p.right for p in part))
        for part in binned.values()
    ) / len(scored)


def confusions(predictions):
    """(label or "outside", what came first instead) -> count, for the wrong answers that
    matter: a known failure ranked under another entry, an outside one matched."""
    table = Counter()
    for p in predictions:
        if p.sample.label is None:
            if p.verdict == "match":
                table[("outside", p.top)] += 1
        elif not p.right:
            table[(p.sample.label, p.top or "nothing")] += 1
    return table


def per_entry(predictions):
    """Held-out figures by entry, as the calibration stores them."""
    rows = defaultdict(lambda: {"pastes": 0, "top1": 0, "match": 0, "confused": Counter()})
    for p in predictions:
        if p.sample.label is None:
            continue
        row = rows[p.sample.label]
        row["pastes"] += 1
        row["top1"] += p.right
        row["match"] += p.right and p.verdict == "match"
        if not p.right:
            row["confused"][p.top or "nothing"] += 1
    return [
        {
            "entry": slug,
            "pastes": row["pastes"],
            "top1": row["top1"],
            "match": row["match"],
            "confused_with": ", ".join(f"{s} ×{n}" for s, n in row["confused"].most_common()),
        }
        for slug, row in sorted(rows.items())
    ]
