"""The field corpus (tests/field/): real pastes from public threads, each with its source.

The corpus is well-formed (every file recorded in SOURCES.tsv with its source, every folder an
entry or `_negative`), and the engine's accuracy on it is reported and must not fall below
what it was when the corpus was gathered (issue 12 raises these floors)."""

import csv
import re
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from kb.diagnosis import repository
from kb.models import Entry

FIELD = Path(__file__).parent / "field"
COLUMNS = ["file", "source", "torch", "cause", "note"]
SOURCE = re.compile(r"^[\w.-]+/[\w.-]+#\d+$|^https?://\S+$")
EMAIL = re.compile(r"[\w.%+-]+@[\w-]+\.[\w.-]*[a-z]{2,}")
# On the pastes gathered first (157 of entries, 73 negatives): 96.2%, 77.2% and 83.6% with the
# engine they were gathered for; 97.5%, 80.3% and 89.0% once it read log lines, cut tracebacks,
# the SystemError wrapper and torchrun's SIGKILL summary, and weak evidence was weighted so.
# With 25 more (older wordings, torch 1.x, near misses; 173 and 82): 95.4%, 79.2%, 90.2%.
FLOORS = {"top-1": 0.95, "top-1 with match": 0.79, "negatives not match": 0.90}


def sources():
    with (FIELD / "SOURCES.tsv").open(newline="") as table:
        rows = list(csv.DictReader(table, delimiter="\t", quoting=csv.QUOTE_NONE))
    return rows


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
def results(django_db_blocker):
    with django_db_blocker.unblock():
        return [
            (path, repository.diagnose(path.read_text("utf-8", "replace")))
            for path in field_files()
        ]


def test_accuracy_on_the_field_corpus(taxonomy, results, summary):
    counts, per_entry, misses = Counter(), defaultdict(Counter), []
    for path, diagnosis in results:
        label, best = path.parent.name, diagnosis.best
        slug = best.slug if best else None
        if label == "_negative":
            counts["negatives"] += 1
            counts["negatives not match"] += diagnosis.verdict != "match"
            if diagnosis.verdict == "match":
                misses.append(f"_negative/{path.name}: matched {slug}")
            continue
        right = slug == label
        counts["pastes"] += 1
        counts["top-1"] += right
        counts["top-1 with match"] += right and diagnosis.verdict == "match"
        per_entry[label]["files"] += 1
        per_entry[label]["top-1"] += right
        per_entry[label]["match"] += right and diagnosis.verdict == "match"
        if not (right and diagnosis.verdict == "match"):
            misses.append(f"{label}/{path.name}: {diagnosis.verdict} {slug}")
    rates = {
        "top-1": counts["top-1"] / counts["pastes"],
        "top-1 with match": counts["top-1 with match"] / counts["pastes"],
        "negatives not match": counts["negatives not match"] / counts["negatives"],
    }
    rows = [f"{'entry':40} files top-1 match"]
    rows += [
        f"{label:40} {c['files']:5} {c['top-1']:5} {c['match']:5}"
        for label, c in sorted(per_entry.items())
    ]
    rows.append(f"{counts['pastes']} pastes of {len(per_entry)} entries, {counts['negatives']} "
                "negatives: " + ", ".join(f"{k} {v:.1%}" for k, v in rates.items()))  # fmt: skip
    rows += ["Not top-1 with match (and negatives matched):", *misses]
    summary("field corpus accuracy", "\n".join(rows))
    assert {k: v for k, v in rates.items() if v < FLOORS[k]} == {}
