"""Accuracy over the regression corpus of real captured output (tests/corpus/).

Each folder is named after the entry its files must match: the file must rank that entry first
with verdict `match`. The one exception is an entry whose only evidence is generic lines (the
launcher's summary that some rank failed): those never make a `match`, so its files must rank it
first as `possible`. `_negative/` (failures outside the knowledge base) and `_silent/` (what
silent failures print) must not get `match` at all."""

from collections import Counter, defaultdict

import pytest

from kb.diagnosis import repository
from kb.models import Entry
from tools.repro.run import CORPUS_DIR

pytestmark = pytest.mark.content


def corpus_files():
    return sorted(CORPUS_DIR.glob("*/*.txt"))


def generic_only(candidate):
    signatures = [r for r in candidate.reasons if r.kind in ("signature", "assert_site")]
    return bool(signatures) and all(r.generic for r in signatures)


def test_the_corpus_is_not_empty():
    labels = {path.parent.name for path in corpus_files()}
    assert "ddp-expect-autograd-hooks-assert" in labels
    assert "_negative" in labels


def test_every_captured_file_ranks_its_own_entry_first_and_nothing_else_matches(taxonomy, summary):
    published = set(Entry.objects.published().values_list("slug", flat=True))
    verdicts, top1, files, wrong = defaultdict(Counter), Counter(), Counter(), []
    confusion = defaultdict(Counter)  # folder -> what ranked first instead
    for path in corpus_files():
        label = path.parent.name
        diagnosis = repository.diagnose(path.read_text("utf-8", "replace"))
        best = diagnosis.best
        slug = best.slug if best else None
        files[label] += 1
        verdicts[label][diagnosis.verdict] += 1
        if label in published:
            top1[label] += slug == label
            if slug != label:
                confusion[label][slug] += 1
            expected = "possible" if slug == label and generic_only(best) else "match"
            if diagnosis.verdict != expected or slug != label:
                wrong.append(f"{path.relative_to(CORPUS_DIR)}: {diagnosis.verdict} {slug}")
        elif diagnosis.verdict == "match":
            confusion[label][slug] += 1
            wrong.append(f"{path.relative_to(CORPUS_DIR)}: outside the KB but matched {slug}")

    rows = [f"{'corpus folder':40} {'files':>5} {'top-1':>5}  match possible no_match"]
    for label in sorted(files):
        known = f"{top1[label]:5}" if label in published else "    -"
        counts = verdicts[label]
        rows.append(
            f"{label:40} {files[label]:5} {known}  {counts['match']:5} "
            f"{counts['possible']:8} {counts['no_match']:8}"
        )
    rows.append(f"{sum(files.values())} files, {len(published)} published entries")
    rows.append("Confusions (folder -> entry ranked first instead):")
    rows += [f"  {label} -> {dict(c)}" for label, c in sorted(confusion.items())] or ["  none"]
    summary("corpus accuracy and confusions", "\n".join(rows))
    assert not wrong, "\n".join(wrong)
