"""The search box (/search/): entries for some words, an error code or a line of error text.
A whole paste goes to the diagnosis engine (kb/diagnosis/) instead.

An entry ranks first when the query is its code, then by its literal error texts found in the
query, then by how many of the query's words appear in its title, summary, code, slug, symptoms
and sample output. Plain substring and set operations only: nothing here can take more than
linear time in the size of the query.
"""

from dataclasses import dataclass

from kb.fulltext import words as _words

MAX_QUERY_CHARS = 100_000


@dataclass
class Hit:
    entry: object
    score: float
    matched: list  # the signature texts or words that matched


def words(text):
    return set(_words(text, limit=10_000))


def entry_words(entry):
    parts = [entry.title, entry.summary, entry.code, entry.slug]
    parts += [symptom.text for symptom in entry.symptoms.all()]
    parts += [sample.text for sample in entry.sample_lines.all()]
    return words(" ".join(parts))


def search(query, entries):
    """The Hits of the `entries` QuerySet for `query`, best first."""
    query = query[:MAX_QUERY_CHARS]
    lowered = query.lower()
    query_words = words(query)
    hits = []
    for entry in entries.prefetch_related("symptoms", "sample_lines", "signatures"):
        literals = [
            signature.pattern
            for signature in entry.signatures.all()
            if signature.kind == "literal" and signature.pattern.lower() in lowered
        ]
        common = sorted(query_words & entry_words(entry))
        score = 10.0 * len(literals) + len(common) / max(len(query_words), 1)
        if entry.code.lower() == lowered.strip():
            score += 100.0
        if literals or common:
            hits.append(Hit(entry, score, literals or common))
    return sorted(hits, key=lambda hit: (-hit.score, hit.entry.code))
