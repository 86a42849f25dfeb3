"""Full-text search over entries: SQLite FTS5 on the embedded database, PostgreSQL's full-text
search on PostgreSQL. The diagnosis engine uses it as a weak fallback (`search`: any word), the
search box to find entries with every word (`matching`); `index_entry` keeps it current and is
called wherever an entry's revision is recorded."""

from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector
from django.db import connection

from kb.models import Entry

MAX_WORDS = 64
MAX_SCANNED_CHARS = 20_000
STOP_WORDS = frozenset(
    [
        "the", "and", "for", "with", "that", "this", "from", "are", "was", "not", "but", "you",
        "your", "can", "has", "have", "will", "when", "which", "line", "file", "most", "recent",
        "call", "last", "error", "traceback",
    ]
)  # fmt: skip
_NOT_WORD = {c: " " for c in range(128) if not chr(c).isalnum() and chr(c) != "_"}


def tokens(text):
    """Every word of `text`, lowered: runs of letters, digits and underscores, as code has them."""
    return text.lower().translate(_NOT_WORD).split()


def is_searchable(word):
    return 3 <= len(word) <= 40 and word[0].isalpha() and word not in STOP_WORDS


def words(text, limit=MAX_WORDS):
    """The distinct searchable words of `text` in order: plain string operations, no regex."""
    found = {}  # an ordered set
    for word in tokens(text[:MAX_SCANNED_CHARS]):
        if is_searchable(word):
            found[word] = None
            if len(found) >= limit:
                break
    return list(found)


def entry_text(entry):
    parts = [entry.code, entry.title, entry.summary, entry.explanation]
    parts += [s.text for s in entry.symptoms.all()]
    parts += [s.text for s in entry.sample_lines.all()]
    parts += [s.pattern for s in entry.signatures.all() if s.kind == "literal"]
    return "\n".join(parts)


def index_entry(entry):
    """Refresh the entry's row in the search index (published entries only are searchable)."""
    text = entry_text(entry) if entry.is_published else ""
    Entry.objects.filter(pk=entry.pk).update(search_text=text)
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM kb_entry_fts WHERE rowid = %s", [entry.pk])
            if text:
                cursor.execute(
                    "INSERT INTO kb_entry_fts (rowid, body) VALUES (%s, %s)", [entry.pk, text]
                )


def search(text, limit=10):
    """{slug: strength in (0, 1]} for the entries best matching the words of `text`."""
    query = words(text)
    if not query:
        return {}
    if connection.vendor == "postgresql":
        return _search_postgresql(query, limit)
    if connection.vendor == "sqlite":
        return _search_sqlite(query, limit)
    return {}


def matching(query, prefix=False):
    """{slug: strength in (0, 1]} for the published entries that have every word of the list
    `query`, stemmed ("assertion" finds "assert"); with `prefix`, the last word may also be the
    start of one, as while the user types it."""
    query = [word for word in (_term(word) for word in query) if word]
    if not query:
        return {}
    if connection.vendor == "postgresql":
        return _matching_postgresql(query, prefix)
    if connection.vendor == "sqlite":
        return _matching_sqlite(query, prefix)
    return {}


def _term(word):
    # Both query languages have operators; a word keeps only what an indexed token can hold.
    return "".join(c for c in word if c.isalnum() or c == "_")


def _matching_sqlite(query, prefix):
    # The porter tokenizer stems the indexed words but not a prefix: "memory"* misses the
    # stored "memori", so the whole last word is tried as itself too.
    terms = [f'"{word}"' for word in query]
    if prefix:
        terms[-1] = f"({terms[-1]} OR {terms[-1]}*)"
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT e.slug, bm25(kb_entry_fts) AS rank FROM kb_entry_fts "
            "JOIN kb_entry e ON e.id = kb_entry_fts.rowid "
            "WHERE kb_entry_fts MATCH %s ORDER BY rank",
            [" AND ".join(terms)],
        )
        rows = cursor.fetchall()
    # bm25 is negative, better when lower; a single hit of a rare word can come out at zero.
    return _relative({slug: 1e-6 - rank for slug, rank in rows})


def _matching_postgresql(query, prefix):
    terms = list(query)
    if prefix:
        terms[-1] = f"({terms[-1]} | {terms[-1]}:*)"
    # The english configuration drops stop words from the query: the rest must all be there.
    query = SearchQuery(" & ".join(terms), search_type="raw", config="english")
    rows = (
        Entry.objects.published()
        .annotate(
            document=SearchVector("search_text", config="english"),
            rank=SearchRank(SearchVector("search_text", config="english"), query),
        )
        .filter(document=query)
        .values_list("slug", "rank")
    )
    return _relative({slug: rank + 1e-6 for slug, rank in rows})


def _search_sqlite(query, limit):
    match = " OR ".join(f'"{word}"' for word in query)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT e.slug, bm25(kb_entry_fts) AS rank FROM kb_entry_fts "
            "JOIN kb_entry e ON e.id = kb_entry_fts.rowid "
            "WHERE kb_entry_fts MATCH %s ORDER BY rank LIMIT %s",
            [match, limit],
        )
        rows = cursor.fetchall()
    return _relative({slug: -rank for slug, rank in rows})


def _search_postgresql(query, limit):
    query = SearchQuery(" | ".join(query), search_type="raw", config="english")
    rows = (
        Entry.objects.published()
        .annotate(rank=SearchRank(SearchVector("search_text", config="english"), query))
        .filter(rank__gt=0)
        .order_by("-rank")
        .values_list("slug", "rank")[:limit]
    )
    return _relative(dict(rows))


def _relative(ranks):
    best = max(ranks.values(), default=0)
    return {slug: rank / best for slug, rank in ranks.items() if best > 0 and rank > 0}
