"""The entry file format: YAML front matter for everything the code reads, Markdown after it.

    ---
    slug: the-entry-slug
    code: ABC-001
    ...
    ---

    The explanation, in Markdown.

`parse_entry` reads a file into a plain dict (the "document") and problems with file lines;
`render_entry` writes a document back. Files written by `render_entry` read back to the same
document and render to the same bytes, which is what makes load → dump → load lossless.
"""

import re

from kb.patterns import KINDS, pattern_error
from kb.taxonomy.schema import (
    Flag,
    Map,
    Nullable,
    Number,
    Problem,
    Seq,
    Text,
    read_yaml,
    without_defaults,
    write_yaml,
)

SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
KEY_RE = re.compile(r"^[a-z0-9]+(?:[_-][a-z0-9]+)*$")
CODE_RE = re.compile(r"^[A-Z][A-Z0-9]*-\d{3,}$")
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
STATUSES = ("draft", "published")


def _matching(regex, what):
    def check(value):
        return None if regex.match(value) else f"{value!r} is not a valid {what}"

    return check


def _regex_check(value):
    return pattern_error("regex", value)


slug = Text(required=True, check=_matching(SLUG_RE, "slug (lowercase words joined by -)"))
key = Text(required=True, check=_matching(KEY_RE, "key (lowercase words joined by _ or -)"))
versions = Seq(Text(required=True), unique=True)

ENTRY = Map(
    {
        "slug": slug,
        "code": Text(required=True, check=_matching(CODE_RE, "code (e.g. ABC-001)")),
        "title": Text(required=True),
        "status": Text(required=True, choices=STATUSES),
        "category": slug,
        "frameworks": Seq(key, unique=True),
        "summary": Text(required=True),
        "symptoms": Seq(Text(required=True), required=True),
        "triggers": Seq(
            Map(
                {
                    "key": key,
                    "text": Text(required=True),
                    "verified_on": versions,
                    "not_reproduced_on": versions,
                    "together_with": Seq(key, unique=True),
                    "note": Text(),
                }
            ),
            unique_by="key",
        ),
        "checklist_intro": Text(),
        "checks": Seq(
            Map(
                {
                    "key": key,
                    "question": Text(required=True),
                    "how_to_check": Text(required=True),
                    "positive_means": Text(required=True),
                    "confirms": Nullable(key),
                    "rules_out": Nullable(key),
                    "expected": Text(choices=("yes", "no")),
                }
            ),
            unique_by="key",
        ),
        "fixes_note": Text(),
        "fixes": Seq(
            Map(
                {
                    "key": key,
                    "title": Text(required=True),
                    "why": Text(required=True),
                    "resolves": Seq(key, unique=True),
                    "snippets": Seq(
                        Map(
                            {
                                "framework": key,
                                "language": Text(default="python"),
                                "code": Text(required=True),
                                "note": Text(),
                            }
                        )
                    ),
                }
            ),
            unique_by="key",
        ),
        "signatures": Seq(
            Map(
                {
                    "kind": Text(required=True, choices=KINDS),
                    "pattern": Text(required=True),
                    "weight": Number(default=1.0, minimum=0.0),
                    "scope": Text(default="any", choices=("root", "any")),
                    "note": Text(),
                }
            )
        ),
        "sample_output": Seq(Map({"text": Text(required=True), "note": Text()})),
        "fingerprint": Map(
            {
                "note": Text(),
                "steps": Seq(
                    Map(
                        {
                            "level": Text(required=True, choices=LEVELS),
                            "pattern": Text(check=_regex_check),
                            "note": Text(),
                        }
                    )
                ),
            }
        ),
        "base_loop": Map(
            {
                "code": Text(),
                "note": Text(),
                "applies_to": Seq(key, unique=True),
                "config_flags": Seq(
                    Map({"framework": key, "flag": Text(required=True), "replaces": Text()})
                ),
            }
        ),
        "siblings": Seq(
            Map(
                {
                    "slug": slug,
                    "how_to_tell_apart": Text(required=True),
                    # The sibling's failure can end in this entry's message (a desync that
                    # ends in this timeout): a paste of this one does not rule it out.
                    "prints_this": Flag(),
                }
            ),
            unique_by="slug",
        ),
    }
)

CATEGORIES = Seq(
    Map(
        {
            "slug": slug,
            "name": Text(required=True),
            "parent": Nullable(slug),
            "description": Text(),
        }
    ),
    unique_by="slug",
)

FRAMEWORKS = Seq(Map({"key": key, "name": Text(required=True)}), unique_by="key")


def display_path(path, root):
    """`path` as problems show it: relative to the folder holding the taxonomy root."""
    try:
        return path.relative_to(root.parent)
    except ValueError:
        return path


def normalise_newlines(text):
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_entry(text):
    """Read an entry file. Returns (document, problems, lines by path)."""
    text = normalise_newlines(text)
    if not text.startswith("---\n"):
        return ENTRY.empty(), [Problem(1, "an entry file starts with a '---' line")], {}
    end = text.find("\n---\n", 3)
    if end == -1:
        return ENTRY.empty(), [Problem(1, "the front matter has no closing '---' line")], {}
    document, problems, lines = read_yaml(text[4 : end + 1], ENTRY, offset=1)
    document["explanation"] = text[end + 5 :].strip("\n")
    if not document["explanation"].strip():
        closing_line = text[: end + 1].count("\n") + 1
        problems.append(Problem(closing_line, "the explanation (Markdown after '---') is empty"))
    problems.extend(_reference_problems(document, lines))
    return document, problems, lines


def render_entry(document):
    front = write_yaml(without_defaults(ENTRY, document))
    return f"---\n{front}---\n\n{document['explanation'].strip()}\n"


def _reference_problems(document, lines):
    """Keys that point inside the entry (checks and fixes name triggers) must exist."""
    problems = []
    trigger_keys = {trigger["key"] for trigger in document["triggers"]}
    for index, check in enumerate(document["checks"], 1):
        for name in ("confirms", "rules_out"):
            target = check[name]
            if target is not None and target not in trigger_keys:
                line = lines.get(f"checks[{index}].{name}", 1)
                problems.append(Problem(line, f"checks[{index}].{name}: no trigger {target!r}"))
    for index, trigger in enumerate(document["triggers"], 1):
        for position, target in enumerate(trigger["together_with"], 1):
            if target not in trigger_keys or target == trigger["key"]:
                line = lines.get(f"triggers[{index}].together_with[{position}]", 1)
                problems.append(
                    Problem(line, f"triggers[{index}].together_with: no other trigger {target!r}")
                )
    for index, fix in enumerate(document["fixes"], 1):
        for position, target in enumerate(fix["resolves"], 1):
            if target not in trigger_keys:
                line = lines.get(f"fixes[{index}].resolves[{position}]", 1)
                problems.append(Problem(line, f"fixes[{index}].resolves: no trigger {target!r}"))
    for index, signature in enumerate(document["signatures"], 1):
        message = pattern_error(signature["kind"], signature["pattern"])
        if message and signature["kind"] in KINDS:
            line = lines.get(f"signatures[{index}].pattern", 1)
            problems.append(Problem(line, f"signatures[{index}].pattern: {message}"))
    return problems
