"""How fast the diagnosis engine is, and how that grows with the knowledge base and the paste.

Run by hand, not by the test suite: `.venv/bin/python benchmarks/diagnose.py`. It reads the
shipped taxonomy files (no database), builds knowledge bases 1×, 10× and 100× the shipped one
(copy 0 is the real entries; copy k has every literal, regex and assert site made distinct by a
word of its own) and times `Engine.diagnose` on a 5 KB and a 500 KB paste built from the captured
corpus in tests/corpus/, ending in the seed failure. A naive baseline runs every signature with
Python's `re`, one pattern at a time. Then the adversarial table: every shape of
benchmarks/adversarial.py (pastes built to find a slow path) at 100 KB and 400 KB against the
shipped taxonomy. It ends with where the time goes and the targets.
"""

import math
import os
import re
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from benchmarks.adversarial import SHAPES  # noqa: E402
from kb.diagnosis import Engine, _failure_text  # noqa: E402
from kb.diagnosis.config import DiagnosisConfig  # noqa: E402
from kb.diagnosis.mask import fingerprint, mask  # noqa: E402
from kb.diagnosis.normalize import normalise  # noqa: E402
from kb.diagnosis.parse import parse  # noqa: E402
from kb.diagnosis.rank import EntryInfo, SignatureIndex, SignatureSpec, evidence  # noqa: E402
from kb.patterns import regex_for  # noqa: E402
from kb.taxonomy.reading import read_family_parts, read_taxonomy  # noqa: E402

SEED = "ddp-expect-autograd-hooks-assert"
CORPUS = ROOT / "tests" / "corpus"
MULTIPLIERS = (1, 10, 100)
PASTES = {"5 KB": (5_000, 200), "500 KB": (500_000, 30)}  # size, repetitions
BASELINE_REPS = {1: 20, 10: 5, 100: 3}
ADVERSARIAL_SIZES = (100_000, 400_000)
ADVERSARIAL_REPS = 9
ADVERSARIAL_LIMIT_MS = 100  # at 100 KB
ADVERSARIAL_GROWTH = 5.0  # at most, for 4× the paste (linear: 4; quadratic: 16)
# What marks a failure line (argparse prints "prog: error: ..." after its usage line).
FAILURE = (
    "Error",
    "Exception",
    "ASSERT",
    "Traceback",
    "raise ",
    "Interrupt",
    "-- Process",
    ": error: ",
)


def percentile(samples, q):
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def ms(value, width=10):
    return f"{value:.1f}ms".rjust(width) if value is not None else "-".rjust(width)


def timed(functions, reps, warmup=2):
    """{name: (p50, p99)} in ms. The functions take turns, so that load from other processes
    falls on all of them alike."""
    samples = {name: [] for name in functions}
    for round_ in range(warmup + reps):
        for name, function in functions.items():
            start = time.perf_counter()
            function()
            if round_ >= warmup:
                samples[name].append((time.perf_counter() - start) * 1000)
    return {name: (percentile(s, 0.5), percentile(s, 0.99)) for name, s in samples.items()}


def best(function, reps):
    """The fastest of `reps` runs in ms: on a shared machine, what the code itself costs."""
    fastest = float("inf")
    for _ in range(reps):
        start = time.perf_counter()
        function()
        fastest = min(fastest, (time.perf_counter() - start) * 1000)
    return fastest


def word(k):
    """A distinct, pronounceable word per copy: 1 → "bako", 2 → "bake"..."""
    consonants, vowels, letters = "bdfgklmnprstvz", "aeiou", []
    while True:
        k, v = divmod(k, len(vowels))
        k, c = divmod(k, len(consonants))
        letters.append(consonants[c] + vowels[v])
        if not k:
            return "".join(reversed(letters)) + "o"


def distinct(kind, pattern, k):
    if k == 0 or kind == "exception":
        return pattern
    if kind == "literal":
        return f"{pattern} {word(k)}"
    if kind == "regex":
        flags = ""
        if (
            pattern.startswith("(?")
            and ")" in pattern
            and pattern[2 : pattern.index(")")].isalpha()
        ):
            flags, pattern = pattern[: pattern.index(")") + 1], pattern[pattern.index(")") + 1 :]
        return f"{flags}(?:{pattern}) {word(k)}\\b"  # a global flag must stay in front
    head, _, tail = pattern.rpartition("/")
    return f"{head}/{word(k)}_{tail}" if head else f"{word(k)}_{tail}"


def knowledge_base(documents, copies):
    infos, specs = [], []
    for k in range(copies):
        for doc in documents:
            slug = doc["slug"] if k == 0 else f"{doc['slug']}-{word(k)}"
            code = doc["code"] if k == 0 else f"{doc['code']}-{k}"
            fingerprint = (doc.get("fingerprint") or {}).get("steps") or []
            steps = tuple((step["level"], step.get("pattern") or "") for step in fingerprint)
            infos.append(EntryInfo(slug, code, doc["title"], steps))
            for s in doc["signatures"]:
                pattern = distinct(s["kind"], s["pattern"], k)
                specs.append(SignatureSpec(slug, s["kind"], pattern, s["weight"], s["scope"]))
    return infos, specs


def corpus_files():
    return sorted(CORPUS.glob("*/*.txt"))


def paste(size, seed_tail, filler):
    """`size` characters of log ending in the seed failure."""
    lines, total, step = [], len(seed_tail), 0
    while total < size:
        line = filler[step % len(filler)].format(step=step, loss=2.5 / (1 + step / 500))
        lines.append(line)
        total += len(line) + 1
        step += 1
    return "\n".join(lines) + "\n" + seed_tail


def filler_lines():
    """Realistic log lines: training steps, and every corpus line outside a traceback or an
    error (so that the seed failure at the end is the paste's root failure)."""
    lines = [
        "2026-11-30 08:42:{step:02d},373 INFO trainer: step {step} loss {loss:.4f} lr 3.0e-04",
        "[rank0]:[W1130 08:42:51.838722244 ProcessGroupNCCL.cpp:4561] Warning: barrier {step}",
        "[rank1]: epoch 0 step {step} grad_norm 1.{step:03d} tokens/s 51234",
        "node-3:5875:5875 [0] NCCL INFO Channel {step:02d}/0 : 0[0] -> 1[1] via P2P/IPC",
        "UserWarning: torch.utils.checkpoint: the use_reentrant parameter should be passed",
    ]
    for path in corpus_files():
        for line in path.read_text("utf-8", "replace").splitlines():
            if line.strip() and not line[0].isspace() and not any(w in line for w in FAILURE):
                lines.append(line.replace("{", "{{").replace("}", "}}"))
    return lines


def seed_failure(documents):
    seed_files = sorted((CORPUS / SEED).glob("*.txt"))
    if seed_files:
        return seed_files[0].read_text("utf-8", "replace")
    seed = next(doc for doc in documents if doc["slug"] == SEED)
    return "\n".join(sample["text"] for sample in seed["sample_output"]) + "\n"


def baseline(specs):
    compiled = [re.compile(regex_for(s.kind, s.pattern), re.MULTILINE) for s in specs]
    return lambda text: [pattern.search(text) for pattern in compiled]


def stages(engine, text, reps):
    """p50 of each step of `Engine.diagnose`, run one by one on the same paste."""
    config = engine.config
    normalised = normalise(text)
    parsed = parse(normalised, config.wrapper_exceptions)
    steps = {
        "diagnose": partial(engine.diagnose, text),
        "normalise": partial(normalise, text),
        "parse": partial(parse, normalised, config.wrapper_exceptions),
        "facts": partial(engine.fact_rules.extract, normalised, parsed),
        "evidence": partial(evidence, engine.index, normalised, parsed),
        "rank": partial(engine._first_failing_rank, normalised, parsed),
        "mask": lambda: fingerprint(mask(_failure_text(normalised, parsed))),
    }
    return {name: times[0] for name, times in timed(steps, reps).items()}


def adversarial_table(engine):
    """Time every adversarial shape at two sizes; returns the targets as (passed, label,
    value) rows: the slowest shape at 100 KB, the steepest growth."""
    small, large = ADVERSARIAL_SIZES
    ratio = large / small
    print(
        f"\nAdversarial pastes, shipped taxonomy (best of {ADVERSARIAL_REPS} runs; growth from "
        f"{small // 1000} KB to {large // 1000} KB, where linear is {ratio:.1f}×):"
    )
    print(f"{'shape':<34} {small // 1000:>6} KB {large // 1000:>6} KB {'growth':>7}  verdict")
    worst_time, worst_growth = 0.0, 0.0
    for name, make in SHAPES.items():
        texts = {size: make(size) for size in ADVERSARIAL_SIZES}
        times = {
            size: best(partial(engine.diagnose, text), ADVERSARIAL_REPS)
            for size, text in texts.items()
        }
        growth = times[large] / max(times[small], 0.01)
        verdict = engine.diagnose(texts[small]).verdict
        print(f"{name:<34} {ms(times[small], 9)} {ms(times[large], 9)} {growth:>6.2f}×  {verdict}")
        worst_time = max(worst_time, times[small])
        worst_growth = max(worst_growth, growth)
    return [
        (
            worst_time < ADVERSARIAL_LIMIT_MS,
            f"adversarial: slowest shape at 100 KB < {ADVERSARIAL_LIMIT_MS} ms",
            worst_time,
        ),
        (
            worst_growth < ADVERSARIAL_GROWTH,
            f"adversarial: growth for {ratio:.0f}× the paste < {ADVERSARIAL_GROWTH}×",
            worst_growth,
        ),
    ]


def main():
    taxonomy = read_taxonomy(settings.TAXONOMY_DIR)
    documents = [e.document for e in taxonomy.entries if e.document["status"] == "published"]
    config = DiagnosisConfig.combined(read_family_parts(settings.TAXONOMY_DIR))
    tail, filler = seed_failure(documents), filler_lines()
    pastes = {name: paste(size, tail, filler) for name, (size, _) in PASTES.items()}
    print(f"{len(documents)} published entries, {len(corpus_files())} corpus files")
    print(", ".join(f"{name} paste: {len(text):,} chars" for name, text in pastes.items()))

    # First, while the process holds only the shipped taxonomy, as a server does.
    infos, specs = knowledge_base(documents, 1)
    adversarial = adversarial_table(
        Engine(SignatureIndex(infos, specs, config.generic_lines), config)
    )

    engines = {}
    for copies in MULTIPLIERS:
        infos, specs = knowledge_base(documents, copies)
        start = time.perf_counter()
        engines[copies] = Engine(SignatureIndex(infos, specs, config.generic_lines), config)
        build = (time.perf_counter() - start) * 1000
        print(
            f"{copies:>4}× KB: {len(infos)} entries, {len(specs)} signatures, "
            f"{len(engines[copies].index.patterns)} text patterns, built in {build:.0f} ms"
        )

    results = {}
    for name, (_, reps) in PASTES.items():
        calls = {copies: partial(engines[copies].diagnose, pastes[name]) for copies in engines}
        for copies, times in timed(calls, reps).items():
            results[copies, name] = times
    for copies, engine in engines.items():
        naive = partial(baseline(engine.index.text_specs), pastes["500 KB"])
        results[copies, "re"] = timed({"re": naive}, BASELINE_REPS[copies], 1)["re"]

    print(f"\n{'KB':>5} {'paste':>6} {'engine p50':>11} {'p99':>9}  verdict")
    for copies, engine in engines.items():
        for name in PASTES:
            diagnosis = engine.diagnose(pastes[name])
            best = diagnosis.best.slug if diagnosis.best else "-"
            p50, p99 = results[copies, name]
            print(
                f"{copies:>4}× {name:>6} {p50:>9.2f}ms {p99:>7.2f}ms  "
                f"{diagnosis.verdict} ({best}, {len(diagnosis.candidates)} candidates)"
            )
    print("\nNaive baseline, Python re one pattern at a time, 500 KB paste:")
    print(f"{'KB':>5} {'p50':>10} {'p99':>10}")
    for copies, engine in engines.items():
        p50, p99 = results[copies, "re"]
        print(f"{copies:>4}× {p50:>8.1f}ms {p99:>8.1f}ms  ({len(engine.index.patterns)} patterns)")

    breakdown = {copies: stages(engine, pastes["500 KB"], 20) for copies, engine in engines.items()}
    print("\nWhere the time goes, 500 KB paste (p50 of each stage, ms; rest = diagnose - stages):")
    print(f"{'KB':>5} " + " ".join(f"{stage:>10}" for stage in breakdown[1]) + f" {'rest':>10}")
    for copies, times in breakdown.items():
        rest = times["diagnose"] - sum(t for stage, t in times.items() if stage != "diagnose")
        columns = " ".join(f"{t:>10.2f}" for t in [*times.values(), rest])
        print(f"{copies:>4}× {columns}")

    largest = MULTIPLIERS[-1]
    big, small = results[largest, "500 KB"][0], results[largest, "5 KB"][0]
    big_growth, small_growth = big / results[1, "500 KB"][0], small / results[1, "5 KB"][0]
    speedup = results[largest, "re"][0] / big
    print("\nTargets:")
    for passed, label, value in [
        (big_growth < 1.5, f"500 KB: engine growth 1× → {largest}× < 1.5×", big_growth),
        (small_growth < 1.5, f"5 KB: engine growth 1× → {largest}× < 1.5×", small_growth),
        (speedup >= 100, f"500 KB at {largest}×: engine ≥ 100× faster than re", speedup),
        (small < 10, f"5 KB at {largest}×: engine p50 < 10 ms", small),
        (big < 150, f"500 KB at {largest}×: engine p50 < 150 ms", big),
        *adversarial,
    ]:
        print(f"  {'PASS' if passed else 'FAIL'}  {label} (measured {value:.2f})")


if __name__ == "__main__":
    main()
