"""The field corpus (tests/field/): real pastes from public threads, each with its source.

The corpus is well-formed (every file recorded in SOURCES.tsv with its source, every folder an
entry or `_negative`), and the engine's accuracy on it is reported and must not fall below
what it was when the corpus was gathered (issue 12 raises these floors)."""

import re
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from django.conf import settings

from kb import corpora
from kb.diagnosis import fitting, repository
from kb.models import Entry
from tests.conftest import once_per_run

pytestmark = pytest.mark.content

FIELD = Path(__file__).parent / "field"
COLUMNS = ["file", "source", "torch", "cause", "note"]
SOURCE = re.compile(r"^[\w.-]+/[\w.-]+#\d+$|^https?://\S+$")
EMAIL = re.compile(r"[\w.%+-]+@[\w-]+\.[\w.-]*[a-z]{2,}")
# The shipped engine on every paste. On the pastes gathered first (157 of entries, 73
# negatives): 96.2%, 77.2% and 83.6% with the engine they were gathered for; 97.5%, 80.3% and
# 89.0% once it read log lines, cut tracebacks, the SystemError wrapper and torchrun's SIGKILL
# summary; with 25 more (173 and 82): 95.4%, 79.2%, 90.2% with hand-set weights; 95.4%, 79.2%,
# 95.1% with the fitted calibration; 98.3%, 86.7%, 95.1% once the signatures covered the
# wordings the field showed, wrapped messages were joined and the in-place error weighed what
# it proves. With the GPU, network and environment families (372 and 84): 99.2%, 96.2%, 90.5%;
# with the numerics, data, checkpoint, compile, FSDP and device families (568 and 72): 98.9%,
# 97.5%, 87.5%.
# The negatives fell because the families brought near misses whose text is their entry's own
# message, word for word, while the thread found another cause (a CUDA OOM that a driver update
# cured, a "No such operator torchvision::nms" from code that never imported torchvision): no
# reading of the text can refuse them. Signatures that weigh what each text proves brought them
# back to 94.4%, and 95.8% (68 of 71) once the lazy-modules line from quanto's tensor subclasses
# became its entry's second cause; three word-for-word near misses still match.
FLOORS = {"top-1": 0.98, "top-1 with match": 0.95, "negatives not match": 0.95}
# Held out (each fold scored by a fit that never saw it): issue 12's targets are the floors.
# 99.0%, 97.2%, 95.8%, 96.9%, 98.8%, ECE 0.017 on SQLite over the corpora of twelve families
# (PostgreSQL: 99.0%, 97.0%, 95.8%, 96.9%, 98.8%, ECE 0.019); 98.9%, 97.4%, 87.5%, 90.8%, 97.7%
# before the signatures weighed what each text proves; 97.7%, 75.7%, 95.1%, 97.8%, 96.3%, ECE
# 0.034 with the DDP family alone. With match at 97% precision, top-1 with match swings by
# several points with one paste more or less, and negatives by 1.4 points a paste.
TARGETS = {
    "top-1 with match": 0.95,
    "negatives not match": 0.95,
    "near misses not match": 0.90,
    "match precision": 0.97,
    "ECE": "<= 0.05",
}
HELD_OUT_FLOORS = {
    "top-1": 0.98,
    "top-1 with match": TARGETS["top-1 with match"],
    "negatives not match": TARGETS["negatives not match"],
    "near misses not match": TARGETS["near misses not match"],
    "match precision": TARGETS["match precision"],
}
HELD_OUT_MAX_ECE = 0.05
REPORTED = [
    "top-1",
    "top-1 with match",
    "negatives not match",
    "near misses not match",
    "match precision",
    "ECE",
]


def sources():
    return corpora.read_sources(FIELD)


def field_files():
    return sorted(FIELD.glob("*/*.txt"))


def test_every_file_is_recorded_once_with_its_source():
    rows = sources()
    assert list(rows[0]) == COLUMNS
    recorded = [row["file"] for row in rows]
    assert len(recorded) == len(set(recorded))
    assert sorted(recorded) == [str(p.relative_to(FIELD)) for p in field_files()]
    assert [row["file"] for row in rows if not SOURCE.match(row["source"])] == []
    assert [row["file"] for row in rows if not row["cause"]] == []


def test_every_folder_is_an_entry_or_the_negatives(taxonomy):
    slugs = set(Entry.objects.values_list("slug", flat=True))
    folders = {path.parent.name for path in field_files()}
    assert folders - slugs == {"_negative"}


def test_no_paste_holds_an_e_mail_address():
    assert [p.name for p in field_files() if EMAIL.search(p.read_text("utf-8"))] == []


@pytest.fixture(scope="module")
def samples(django_db_blocker, tmp_path_factory, worker_id):
    def diagnose_the_corpora():
        with django_db_blocker.unblock():
            return corpora.samples()

    return once_per_run(tmp_path_factory, worker_id, "corpora", diagnose_the_corpora)


@pytest.fixture(scope="module")
def evaluation(samples):
    return fitting.evaluate(samples)


# Field pastes that hold none of their entry's signatures (each a signature would only fit to
# this one paste, or the text says nothing of the cause), and why.
UNSIGNED = {
    "ddp-state-dict-module-prefix/pfnet-pfrl-55.txt": "missing keys without the module. prefix",
    "ddp-torch-compile/lightning-ai-pytorch-lightning-18798.txt": "a plain AttributeError",
    "ddp-uneven-inputs-hang/qwenaudio-cosyvoice-297.txt": "the user replaced the number by xxxx",
    "torchrun-child-failed/bmaltais-kohya_ss-1270.txt": "only torchrun's summary",
    "torchrun-child-failed/hiyouga-llamafactory-7032.txt": "only torchrun's summary",
    "fp16-loss-scale-minimum/ymcui-chinese-llama-alpaca-534.txt": "only the overflow lines before",
}


def test_every_field_paste_holds_a_signature_of_its_entry(taxonomy, samples):
    """Every wording an entry's failure has had is one of its signatures: a paste of it is
    recognised by its text (a message wrapped over lines too), not by full-text search alone."""
    unsigned = [
        s.name.partition(":")[2]
        for s in samples
        if s.corpus == "field"
        and s.label is not None
        and not any(o.slug == s.label and o.specific for o in s.options)
    ]
    assert sorted(unsigned) == sorted(UNSIGNED)


def _row(title, predictions):
    values = fitting.figures(predictions)
    shown = "  ".join(
        "      -" if values[name] is None else f"{values[name]:7.3f}" for name in REPORTED
    )
    return f"{title:22} {values['pastes']:5} {values['negatives']:5}  {shown}"


def test_the_accuracy_report_on_held_out_folds(taxonomy, evaluation, summary):
    """Each fold of the field corpus is scored by a calibration fitted on the lab and the
    other folds (kb/diagnosis/fitting.py): the figures a user can expect, and the targets of
    issue 12 beside them."""
    held_out = fitting.figures(evaluation.held_out)
    rows = [f"{'':22} {'known':>5} {'outs':>5}  " + "  ".join(f"{n[:7]:>7}" for n in REPORTED)]
    rows += [_row("lab (final fit)", evaluation.lab)]
    rows += [_row(f"held-out fold {i}", fold) for i, fold in enumerate(evaluation.folds, 1)]
    rows += [_row("held-out, all folds", evaluation.held_out)]
    rows += [_row("field (final fit)", [fitting.predict(evaluation.calibration, p.sample)
                                        for p in evaluation.held_out])]  # fmt: skip
    rows.append("Targets (held out): " + ", ".join(f"{k} {v}" for k, v in TARGETS.items()))
    rows.append("Held-out confusions (label -> ranked first instead):")
    confused = fitting.confusions(evaluation.held_out)
    rows += [f"  {a} -> {b} ×{n}" for (a, b), n in sorted(confused.items())] or ["  none"]
    summary("accuracy on held-out folds of the field corpus", "\n".join(rows))
    lab = fitting.figures(evaluation.lab)
    assert lab["top-1"] == 1.0 and lab["negatives not match"] == 1.0
    below = {k: held_out[k] for k, floor in HELD_OUT_FLOORS.items() if held_out[k] < floor}
    assert below == {}
    assert held_out["ECE"] <= HELD_OUT_MAX_ECE


@pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3",
    reason="the shipped calibration is fitted with SQLite's full-text ranking",
)
def test_the_shipped_calibration_is_the_fit_of_the_corpora(taxonomy, evaluation):
    """After adding content or pastes, `manage.py refit --write` stores the new fit."""
    shipped = repository.current_engine().config.calibration
    fitted = evaluation.calibration
    assert shipped.coefficients == pytest.approx(fitted.coefficients, abs=1e-3)
    assert shipped.none == pytest.approx(fitted.none, abs=1e-3)
    assert shipped.match == pytest.approx(fitted.match, abs=1e-3)
    assert shipped.held_out == fitted.held_out


def test_accuracy_of_the_shipped_engine_on_the_whole_field_corpus(taxonomy, samples, summary):
    """The shipped engine on every paste, the ones its calibration was fitted on included."""
    shipped = repository.current_engine().config.calibration
    predictions = [fitting.predict(shipped, s) for s in samples if s.corpus == "field"]
    per_entry, misses = defaultdict(Counter), []
    for p in predictions:
        label, slug = p.sample.label, p.top
        if label is None:
            if p.verdict == "match":
                misses.append(f"{p.sample.name}: matched {slug}")
            continue
        per_entry[label]["files"] += 1
        per_entry[label]["top-1"] += p.right
        per_entry[label]["match"] += p.right and p.verdict == "match"
        if not (p.right and p.verdict == "match"):
            misses.append(f"{p.sample.name}: {p.verdict} {slug}")
    rates = fitting.figures(predictions)
    rows = [f"{'entry':40} files top-1 match"]
    rows += [
        f"{label:40} {c['files']:5} {c['top-1']:5} {c['match']:5}"
        for label, c in sorted(per_entry.items())
    ]
    rows.append(", ".join(f"{k} {rates[k]:.1%}" for k in FLOORS))
    rows += ["Not top-1 with match (and negatives matched):", *misses]
    summary("field corpus accuracy of the shipped engine", "\n".join(rows))
    assert {k: rates[k] for k in FLOORS if rates[k] < FLOORS[k]} == {}


# Pastes whose text is another family's entry: only the thread knew better.
CROSSING = {
    "ddp-state-dict-module-prefix/pfnet-pfrl-55.txt": "missing keys with no module. prefix shown",
}


def test_no_paste_is_ranked_first_by_an_entry_of_another_family(taxonomy, evaluation):
    """Families share words (NCCL, CUDA, exit codes) but not failures: a memory paste answered
    with a DDP entry would send the user to the wrong part of the knowledge base. Held out, and
    in the lab; a no-match names no entry, so it cannot cross."""
    family = dict(Entry.objects.values_list("slug", "category__family__slug"))
    crossed = [
        f"{p.sample.name}: {p.sample.label} ({family[p.sample.label]}) -> {p.top} ({family[p.top]})"
        for p in evaluation.held_out + evaluation.lab
        if p.sample.label is not None and p.verdict != "no_match"
        and family[p.top] != family[p.sample.label]
        and p.sample.name.partition(":")[2] not in CROSSING
    ]  # fmt: skip
    assert crossed == []
