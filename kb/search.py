"""Finding entries for a query or a pasted error, until the diagnosis engine takes over.

An entry ranks high when its literal error text appears in the paste, then by how many of the
query's words appear in its title, summary, symptoms and sample output. Plain substring and set
operations only: nothing here can take more than linear time in the size of the paste.
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
    """Rank `entries` (with symptoms, sample_lines and signatures prefetched) for `query`."""
    query = query[:MAX_QUERY_CHARS]
    lowered = query.lower()
    query_words = words(query)
    hits = []
    for entry in entries:
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
