"""How a Diagnosis is shown: on the results page (the paste with matched lines marked, and a
link into the wizard with what the paste proved already answered) and as JSON (the API and the
CLI). Line numbers shown to people are 1-based lines of their paste."""

from dataclasses import dataclass

MAX_SHOWN_LINES = 400
CONTEXT_LINES = 6
MAX_LINE_CHARS = 2000


@dataclass(frozen=True)
class ShownLine:
    number: int
    text: str
    hit: bool


@dataclass(frozen=True)
class Gap:
    count: int


def paste_lines(diagnosis):
    """The paste's lines with the best candidate's lines marked. A long paste is cut to the
    windows around the marked lines and its end (where the failure usually is)."""
    original = diagnosis.normalised.original
    hits = diagnosis.source_lines()
    if len(original) <= MAX_SHOWN_LINES:
        keep = range(len(original))
    else:
        wanted = set(range(len(original) - CONTEXT_LINES * 4, len(original)))
        for hit in sorted(hits)[:40]:
            wanted.update(range(hit - CONTEXT_LINES, hit + CONTEXT_LINES + 1))
        keep = sorted(n for n in wanted if 0 <= n < len(original))[-MAX_SHOWN_LINES:]
    rows, previous = [], -1
    for number in keep:
        if number > previous + 1:
            rows.append(Gap(number - previous - 1))
        rows.append(ShownLine(number + 1, original[number][:MAX_LINE_CHARS], number in hits))
        previous = number
    if previous < len(original) - 1:
        rows.append(Gap(len(original) - 1 - previous))
    return rows


def reason_rows(diagnosis, candidate):
    lines = diagnosis.normalised.lines
    return [
        {
            "kind": reason.kind,
            "summary": reason.summary,
            "weight": round(reason.weight, 3),
            "generic": reason.generic,
            "lines": sorted({lines[i].source + 1 for i in reason.lines}),
        }
        for reason in candidate.reasons
    ]


def fact_rows(diagnosis):
    lines = diagnosis.normalised.lines
    return [
        {"key": f.key, "value": f.value, "line": lines[f.line].source + 1, "evidence": f.evidence}
        for f in diagnosis.facts.values()
    ]


def as_json(diagnosis, url_for, limit=5):
    """The API's answer. `url_for(slug)` gives an entry's absolute URL."""
    root = diagnosis.root
    return {
        "verdict": diagnosis.verdict,
        "matches": [
            {
                "slug": c.slug,
                "code": c.code,
                "title": c.title,
                "url": url_for(c.slug),
                "confidence": c.confidence,
                "reasons": reason_rows(diagnosis, c),
            }
            for c in diagnosis.candidates[:limit]
        ],
        "facts": {f.key: f.value for f in diagnosis.facts.values()},
        "root": {"type": root.type, "message": root.message[:2000]} if root else None,
        "ranks": diagnosis.normalised.ranks,
        "first_failing_rank": diagnosis.first_failing_rank,
    }


# Why a candidate, in words, by the kind of evidence (kb.diagnosis.calibration.FEATURES): the
# engine's own summaries quote its patterns and weights, which only staff are shown.
EVIDENCE_WORDS = {
    "text_root": "The root exception is the message this failure prints",
    "text_error": "Another error in the paste is a message this failure prints",
    "text_other": "A line of the paste is one this failure prints",
    "root_text_elsewhere": "The message this failure raises appears in the paste, though not "
    "as its last exception",
    "generic": "Lines this failure prints, which other failures print too",
    "assert_root": "The root exception is the internal assertion this failure trips",
    "assert_elsewhere": "The paste shows the internal assertion this failure trips",
    "exception_root": "The root exception is of the type this failure raises",
    "exception_elsewhere": "An exception in the paste is of the type this failure raises",
    "fingerprint": "The log shows this failure's sequence of lines, in order",
    "fulltext": "The paste's words are close to this entry's",
}
OTHER_EVIDENCE = "The paste resembles what this failure prints"


def evidence_rows(diagnosis, candidate):
    """Why the candidate, in words: one row per kind of evidence with the paste's lines that
    show it (1-based), strongest first."""
    lines = diagnosis.normalised.lines
    rows = {}
    for reason in sorted(candidate.reasons, key=lambda r: -r.weight):
        words = EVIDENCE_WORDS.get(reason.feature, OTHER_EVIDENCE)
        row = rows.setdefault(words, {"words": words, "lines": set()})
        row["lines"].update(lines[i].source + 1 for i in reason.lines)
    return [{**row, "lines": sorted(row["lines"])} for row in rows.values()]
