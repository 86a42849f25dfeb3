"""The search box (/search/): entries for some words, an error code or a line of error text.
A whole paste goes to the diagnosis engine (kb/diagnosis/) instead.

An exact code opens its entry (`entry_for_code`). Otherwise every word of the query must be in
the entry (the last one may be the start of a word, as while the user types it), found either in
its fields or by the database's full-text search, which also knows the stems of words. Hits
rank by where the query is found: the error text the entry prints (its literal signatures and
sample output) outranks its names, which outrank its prose; a line of error text found whole
outranks scattered words. Only when no entry has every word do the entries with most of them
come back, marked as partial. Plain substring and set operations only: nothing here can take
more than linear time in the size of the query.
"""

from dataclasses import dataclass, field

from kb import fulltext
from kb.models import SampleLine, Signature, Symptom

MAX_QUERY_CHARS = 100_000
MAX_CODE_CHARS = 20  # Entry.code's max_length
# Where a word or a phrase of the query is found, and what that says of the entry.
PRINTS, NAMES, DESCRIBES, PROSE = 3.0, 2.0, 1.5, 0.5
PRINTED_TEXT = 10.0  # the query holds an error text the entry prints, or is part of one
PARTIAL_SHARE = 0.6  # of the query's words, when no entry has all of them
SNIPPET_CHARS = 240
MAX_PHRASE_CHARS = 2_000  # a phrase longer than any line an entry prints cannot be in one
WHERE = {PRINTS: "error text", NAMES: "title", DESCRIBES: "symptoms", PROSE: "explanation"}


@dataclass
class Hit:
    entry: object
    score: float
    matched: list  # the error texts of the entry that the query holds
    where: str = ""  # which part of the entry the snippet comes from
    snippet: list = field(default_factory=list)  # (text, is_match) pieces of that text


@dataclass
class Results:
    hits: list
    partial: bool = False  # no entry has every word: these have most of them


@dataclass
class Query:
    text: str  # lowered, whitespace collapsed, without a launcher's rank prefix
    words: list
    prefix: bool  # the last word may be the start of a word
    phrase: str  # its words in order, as Field.words has them; empty for a single word

    @classmethod
    def parse(cls, text):
        text = text[:MAX_QUERY_CHARS]
        words = fulltext.words(text, limit=fulltext.MAX_WORDS)
        typed = fulltext.tokens(text[-50:])
        still_typing = bool(text) and (text[-1].isalnum() or text[-1] == "_")
        prefix = bool(words) and still_typing and bool(typed) and typed[-1] == words[-1]
        typed = fulltext.tokens(text[:MAX_PHRASE_CHARS])
        phrase = " " + " ".join(typed) + ("" if prefix else " ") if len(words) >= 2 else ""
        return cls(_plain(text), words, prefix, phrase)

    def has(self, word, field):
        """Whether the word of the query is a word of the Field (or starts one, for the last)."""
        if f" {word} " in field.words:
            return True
        return self.prefix and word == self.words[-1] and f" {word}" in field.words


@dataclass
class Field:
    """A part of an entry as search reads it."""

    weight: float
    text: str
    plain: str  # as _plain() makes it
    words: str  # its words, each between spaces: a word or a phrase is found by substring


def entry_for_code(query, entries):
    """The entry of `entries` whose code, or former code, is the whole query (any case)."""
    query = query.strip()
    if not query or len(query) > MAX_CODE_CHARS or any(c.isspace() for c in query):
        return None
    return entries.resolve("code", query)[0]


def search(query, entries):
    """The Results of the `entries` QuerySet for the text `query`, best hit first."""
    query = Query.parse(query)
    stemmed = fulltext.matching(query.words, prefix=query.prefix) if query.words else {}
    scored = [
        _score(query, entry, fields, stemmed.get(entry.slug))
        for entry, fields in _documents(entries)
    ]
    hits = [hit for hit, complete in scored if hit and complete]
    partial = not hits
    if partial:
        hits = [hit for hit, _ in scored if hit]
    return Results(sorted(hits, key=lambda hit: (-hit.score, hit.entry.code)), partial)


def _documents(entries):
    """(entry, [Field]) for each of `entries`. The entries' prose is left to the full-text
    search, which has it indexed: reading every explanation on each search is what took time.
    The rows are read as plain values, which costs a tenth of making them models."""
    entries = list(entries)
    parts = {entry.pk: [] for entry in entries}
    literals = Signature.objects.filter(entry__in=parts, kind=Signature.Kind.LITERAL)
    for rows, weight in (
        (literals.values_list("entry_id", "pattern"), PRINTS),
        (SampleLine.objects.filter(entry__in=parts).values_list("entry_id", "text"), PRINTS),
        (Symptom.objects.filter(entry__in=parts).values_list("entry_id", "text"), DESCRIBES),
    ):
        for entry_id, text in rows.order_by("entry_id", "order", "pk"):
            parts[entry_id].append(_field(weight, text))
    for entry in entries:
        names = [_field(NAMES, text) for text in (entry.code, entry.title, entry.slug)]
        yield entry, parts[entry.pk] + names + [_field(DESCRIBES, entry.summary)]


def _field(weight, text):
    return Field(weight, text, _plain(text), " " + " ".join(fulltext.tokens(text)) + " ")


def _score(query, entry, fields, strength):
    """(Hit or None, whether it has every word of the query)."""
    printed = [
        field.text
        for field in fields
        if field.weight == PRINTS and len(field.plain) >= 8 and field.plain in query.text
    ]
    literals = {field.text for field in fields if field.weight == PRINTS}
    phrase = query.phrase
    whole = max((field.weight for field in fields if phrase and phrase in field.words), default=0)
    found = {}  # word: the weight of the best field it is in
    for word in query.words:
        weights = [field.weight for field in fields if query.has(word, field)]
        if weights:
            found[word] = max(weights)
        elif strength:
            found[word] = PROSE  # in the prose, or a stem of it: what the full-text search knows
    share = len(found) / max(len(query.words), 1)
    exact = entry.code.lower() == query.text
    complete = exact or bool(printed) or whole > 0 or share == 1
    if not (complete or (len(query.words) >= 3 and share >= PARTIAL_SHARE)):
        return None, False
    score = (
        PRINTED_TEXT * (len(printed) + whole / PRINTS + 10 * exact)
        + sum(found.values()) / max(len(query.words), 1)
        + (strength or 0)
    )
    hit = Hit(entry, score, [text for text in printed if text in literals])
    hit.where, hit.snippet = _snippet(query, fields, printed, phrase)
    return hit, complete


def _snippet(query, fields, printed, phrase):
    """(where, pieces): the text of the entry that best shows why it was found, marked."""
    if printed:
        return WHERE[PRINTS], highlight(printed[0], [_plain(printed[0])])
    best, best_text = 0, ""
    for part in fields:
        if phrase and phrase in part.words:
            value = 100 * part.weight
        else:
            value = part.weight * sum(query.has(word, part) for word in query.words)
        if value > best:
            best, best_text, where = value, part.text, WHERE[part.weight]
    if not best:
        return "", []
    # The phrase as typed, where the text has it so; its words wherever else.
    terms = [query.text] if phrase and query.text in _plain(best_text) else query.words
    return where, highlight(_prose(best_text), terms)


def highlight(text, terms):
    """`text` as (piece, is_match) pieces, the matches being where a word of the text starts
    with one of `terms` (case and whitespace aside), cut to a window around the first."""
    flat = " ".join(text.split())
    lowered = flat.lower()
    spans = []
    for term in terms:
        start = lowered.find(term)
        while start >= 0:
            if start == 0 or not _is_word_char(lowered[start - 1]):
                stop = start + len(term)
                while stop < len(lowered) and _is_word_char(lowered[stop]):
                    stop += 1  # the whole word that starts with the term
                spans.append((start, stop))
            start = lowered.find(term, start + 1)
    spans = _merged(sorted(spans))
    first = spans[0][0] if spans else 0
    begin = max(0, min(first - SNIPPET_CHARS // 3, len(flat) - SNIPPET_CHARS))
    end = begin + SNIPPET_CHARS
    pieces = [("…", False)] if begin else []
    at = begin
    for start, stop in spans:
        if start >= end:
            break
        start, stop = max(start, at), min(stop, end)
        if start > at:
            pieces.append((flat[at:start], False))
        if stop > start:
            pieces.append((flat[start:stop], True))
        at = max(at, stop)
    if at < min(end, len(flat)):
        pieces.append((flat[at:end], False))
    if end < len(flat):
        pieces.append(("…", False))
    return pieces


def _merged(spans):
    merged = []
    for start, stop in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(stop, merged[-1][1]))
        else:
            merged.append((start, stop))
    return merged


def _is_word_char(char):
    return char.isalnum() or char == "_"


def _plain(text):
    """Lowered, whitespace collapsed, and without the `[rank3]:` that launchers put in front
    of a line: the same line printed by another rank is the same text."""
    text = " ".join(text.lower().split())
    if text.startswith("[rank"):
        end = text.find("]:", 0, 16)
        if end > 0 and text[5:end].isdigit():
            text = text[end + 2 :].lstrip()
    return text


def _prose(text):
    # Markdown's emphasis and code marks are noise in a one-line excerpt.
    return text.replace("`", "").replace("**", "")
