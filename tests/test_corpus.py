"""Accuracy over the regression corpus of real captured output (tests/corpus/).

Each folder is named after the entry its files must match; a folder of a failure that is not
(yet) in the knowledge base, and `_negative/`, must not get `match` at all."""

from collections import Counter, defaultdict
from pathlib import Path

from kb.diagnosis import repository
from kb.models import Entry

CORPUS = Path(__file__).parent / "corpus"


def corpus_files():
    return sorted(CORPUS.glob("*/*.txt"))


def test_the_corpus_is_not_empty():
    labels = {path.parent.name for path in corpus_files()}
    assert "ddp-expect-autograd-hooks-assert" in labels
    assert "_negative" in labels


def test_every_captured_file_ranks_its_own_entry_first_and_nothing_else_matches(taxonomy, capsys):
    published = set(Entry.objects.published().values_list("slug", flat=True))
    verdicts, top1, files, wrong = defaultdict(Counter), Counter(), Counter(), []
    for path in corpus_files():
        label = path.parent.name
        diagnosis = repository.diagnose(path.read_text("utf-8", "replace"))
        best = diagnosis.best.slug if diagnosis.best else None
        files[label] += 1
        verdicts[label][diagnosis.verdict] += 1
        if label in published:
            top1[label] += best == label
            if diagnosis.verdict != "match" or best != label:
                wrong.append(f"{path.relative_to(CORPUS)}: {diagnosis.verdict} {best}")
        elif diagnosis.verdict == "match":
            wrong.append(f"{path.relative_to(CORPUS)}: outside the KB but matched {best}")

    rows = [f"{'corpus folder':44} {'files':>5} {'top-1':>5}  match possible no_match"]
    for label in sorted(files):
        known = f"{top1[label]:5}" if label in published else "    -"
        counts = verdicts[label]
        rows.append(
            f"{label:44} {files[label]:5} {known}  {counts['match']:5} "
            f"{counts['possible']:8} {counts['no_match']:8}"
        )
    with capsys.disabled():
        print("\n" + "\n".join(rows))
    assert not wrong, "\n".join(wrong)
