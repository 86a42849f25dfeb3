"""How a Diagnosis is shown: on the results page (the paste with matched lines marked, and a
link into the wizard with what the paste proved already answered) and as JSON (the API and the
CLI). Line numbers shown to people are 1-based lines of their paste."""

from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse

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


def wizard_url(diagnosis):
    """The wizard's start from this diagnosis: its candidates with their calibrated
    probabilities and the facts the paste proves, with the text that proved each. The wizard
    (GET /wizard/paste) decides what they answer; kb only says what the paste showed."""
    candidates = ",".join(f"{c.slug}:{c.confidence:.3f}" for c in diagnosis.candidates[:5])
    query = [("cand", candidates)]
    for fact in diagnosis.facts.values():
        query += [(f"f.{fact.key}", fact.value), (f"ev.{fact.key}", fact.evidence[:200])]
    return f"{reverse('wizard:paste')}?{urlencode(query)}"
