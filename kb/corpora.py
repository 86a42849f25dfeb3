"""The corpora of pastes whose answer is known, read into samples for the calibration's fit
and its report (kb/diagnosis/fitting.py).

- The lab corpus, `tests/corpus/<entry>/*.txt`: what this machine prints, captured by the
  lab's scenarios; `_negative/` and `_silent/` hold failures outside the knowledge base.
- The field corpus, `tests/field/<entry>/*.txt`: real pastes from public threads, each
  recorded in `tests/field/SOURCES.tsv` with its source (and, for `_negative/`, whether it is
  a near miss of some entry).

Each paste is diagnosed by the current engine; what a sample keeps (the candidates' features
and the paste's) does not depend on the calibration, so one reading serves every fit.
"""

import csv
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings

from kb.diagnosis import repository
from kb.diagnosis.calibration import none_features
from kb.diagnosis.fitting import Option, Sample
from kb.models import Entry

LAB = Path(settings.BASE_DIR) / "tests" / "corpus"
FIELD = Path(settings.BASE_DIR) / "tests" / "field"
OUTSIDE = ("_negative", "_silent")


def read_sources(field=FIELD):
    with (field / "SOURCES.tsv").open(newline="", encoding="utf-8") as table:
        return list(csv.DictReader(table, delimiter="\t", quoting=csv.QUOTE_NONE))


def repository_of(source):
    """`owner/repo#123` -> owner/repo; a page's address -> its site."""
    if source.startswith(("http://", "https://")):
        return urlsplit(source).netloc
    return source.partition("#")[0]


def samples(lab=LAB, field=FIELD):
    published = set(Entry.objects.published().values_list("slug", flat=True))
    found = []
    for path in sorted(lab.glob("*/*.txt")):
        label = _label(path, published)
        found.append(_sample(path, "lab", f"lab:{path.parent.name}", label))
    for row in read_sources(field):
        path = field / row["file"]
        label = _label(path, published)
        near_miss = label is None and "near miss" in row["note"]
        found.append(_sample(path, "field", repository_of(row["source"]), label, near_miss))
    return found


def _label(path, published):
    folder = path.parent.name
    if folder in OUTSIDE:
        return None
    if folder not in published:
        raise ValueError(f"{path}: the folder names no published entry")
    return folder


def _sample(path, corpus, source, label, near_miss=False):
    diagnosis = repository.diagnose(path.read_text("utf-8", "replace"))
    options = tuple(
        Option(c.slug, c.code, tuple(sorted(c.features.items())), c.has_specific_evidence)
        for c in diagnosis.candidates
    )
    return Sample(
        name=f"{corpus}:{path.parent.name}/{path.name}",
        corpus=corpus,
        source=source,
        label=label,
        options=options,
        none=none_features(diagnosis.parsed),
        near_miss=near_miss,
    )
