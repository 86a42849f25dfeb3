"""What the wizard reasons over, as plain data: entries with their trigger contexts, checks and
fixes, and the frameworks their snippets are written for. Built from entry documents (the
format kb/taxonomy reads from files and writes from the database), so the site reads them from
the database (wizard/repository.py) and tests from files, and the wizard's logic (scope.py,
flow.py, tailoring.py) never touches the ORM."""

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Framework:
    key: str
    name: str


@dataclass(frozen=True)
class Trigger:
    key: str
    text: str
    verified_on: tuple = ()
    not_reproduced_on: tuple = ()
    together_with: tuple = ()  # keys of triggers that cause the failure together with this one
    note: str = ""


@dataclass(frozen=True)
class Check:
    key: str
    question: str
    how_to_check: str
    positive_means: str
    confirms: str | None = None  # a trigger key
    rules_out: str | None = None  # a trigger key
    expected: str = ""  # "yes", "no" or "" (no expectation)


@dataclass(frozen=True)
class Snippet:
    framework: Framework
    language: str
    code: str
    note: str = ""


@dataclass(frozen=True)
class Fix:
    key: str
    title: str
    why: str
    resolves: tuple  # trigger keys
    snippets: tuple  # Snippet


@dataclass(frozen=True)
class Entry:
    slug: str
    code: str
    title: str
    url: str
    frameworks: tuple  # Framework
    triggers: tuple  # Trigger
    checks: tuple  # Check
    fixes: tuple  # Fix
    siblings: tuple = ()  # slugs, in the entry's order
    prints_this: tuple = ()  # slugs of siblings whose failure can end in this one's message
    areas: tuple = ()  # (slug, name) of its category and those above it, root first
    seen: str = ""  # what its users see first (its first symptom)

    @classmethod
    def from_document(cls, document, frameworks, url):
        """`document` as kb.taxonomy reads it; `frameworks` maps keys to Framework."""
        return cls(
            slug=document["slug"],
            code=document["code"],
            title=document["title"],
            url=url,
            frameworks=tuple(frameworks[key] for key in document["frameworks"]),
            triggers=tuple(_record(Trigger, t) for t in document["triggers"]),
            checks=tuple(_record(Check, c) for c in document["checks"]),
            fixes=tuple(
                Fix(
                    f["key"],
                    f["title"],
                    f["why"],
                    tuple(f["resolves"]),
                    tuple(
                        Snippet(frameworks[s["framework"]], s["language"], s["code"], s["note"])
                        for s in f["snippets"]
                    ),
                )
                for f in document["fixes"]
            ),
            siblings=tuple(sibling["slug"] for sibling in document["siblings"]),
            prints_this=tuple(s["slug"] for s in document["siblings"] if s["prints_this"]),
        )

    def trigger(self, key):
        return next((t for t in self.triggers if t.key == key), None)


def _record(cls, item):
    """A dataclass from a document's dict: its fields by name, lists frozen as tuples."""
    return cls(**{f.name: _frozen(item[f.name]) for f in fields(cls)})


def _frozen(value):
    return tuple(value) if isinstance(value, list) else value
