"""The content lint: rules a valid file can still break, checked on the documents alone.

A published entry must be usable end to end: a person can recognise it (symptoms, sample
output), a paste can match it (signatures that match its own sample output), the wizard can
confirm each trigger (a check) and the result can resolve it (a fix), every snippet renders
(snippets are templates, see kb/snippets.py) and every Python snippet is valid Python once
rendered, as is the base loop.

read_taxonomy (kb/taxonomy/reading.py) runs these rules, so `load_taxonomy` refuses what
`check_taxonomy` reports.
"""

from kb.patterns import compile_regex, regex_for
from kb.snippets import python_problem, snippet_problem
from kb.taxonomy.document import display_path

REQUIRED_WHEN_PUBLISHED = {
    "symptoms": "a symptom",
    "triggers": "a trigger context",
    "checks": "a diagnostic check",
    "fixes": "a fix",
    "signatures": "an error signature",
    "sample_output": "a sample output line",
}


# The wizard's own query keys (a test keeps them equal to what wizard/state.py reads): a check
# with one of these keys would be read as the wizard's state instead of as its answer.
WIZARD_QUERY_KEYS = ("entry", "framework", "steps", "scheduler", "known")
EVIDENCE_PREFIX = "ev."


def lint_document(doc, lines, facts=None):
    """Yield (line, message) for every rule the document breaks. `facts` maps each fact key the
    diagnosis config can set to its values (None: any value, from a pattern's group)."""
    if doc["status"] == "published":
        for name, what in REQUIRED_WHEN_PUBLISHED.items():
            if not doc[name]:
                yield lines.get("status", 1), f"a published entry needs {what} ({name})"

    confirmed = {check["confirms"] for check in doc["checks"]}
    resolved = {key for fix in doc["fixes"] for key in fix["resolves"]}
    for i, trigger in enumerate(doc["triggers"], 1):
        line = lines.get(f"triggers[{i}]", 1)
        if trigger["key"] not in confirmed:
            yield line, f"trigger {trigger['key']!r}: no check confirms it"
        if trigger["key"] not in resolved:
            yield line, f"trigger {trigger['key']!r}: no fix resolves it"

    yield from _check_problems(doc, lines, facts)
    yield from _sample_output_problems(doc, lines)
    yield from _code_problems(doc, lines)


def _check_problems(doc, lines, facts):
    for i, check in enumerate(doc["checks"], 1):
        line, key = lines.get(f"checks[{i}]", 1), check["key"]
        if key in WIZARD_QUERY_KEYS or key.startswith(EVIDENCE_PREFIX):
            yield line, f"check {key!r}: the key is one of the wizard's own query keys"
        if check["fact"] and facts is not None:
            fact, _, value = check["fact"].partition("=")
            if fact not in facts:
                yield line, f"check {key!r}: no fact rule sets {fact!r} (see diagnosis.yaml)"
            elif facts[fact] is not None and value not in facts[fact]:
                known = ", ".join(sorted(facts[fact]))
                yield line, f"check {key!r}: fact {fact!r} is never {value!r} (only {known})"


def _sample_output_problems(doc, lines):
    if not doc["signatures"] or not doc["sample_output"]:
        return
    patterns = [
        compile_regex(regex_for(signature["kind"], signature["pattern"]))
        for signature in doc["signatures"]
        if signature["kind"] in ("literal", "regex")
    ]
    if not patterns:
        yield lines.get("signatures", 1), "no literal or regex signature: a paste cannot match"
        return
    texts = [sample["text"] for sample in doc["sample_output"]]
    if not any(pattern.search(text) for pattern in patterns for text in texts):
        yield lines.get("sample_output", 1), "no signature matches any sample output line"


def _code_problems(doc, lines):
    # The base loop is shown as it is; snippets are templates, shown rendered.
    blocks = [("base_loop.code", python_problem(doc["base_loop"]["code"]))]
    for i, fix in enumerate(doc["fixes"], 1):
        blocks += [
            (
                f"fixes[{i}].snippets[{j}].code",
                snippet_problem(snippet["code"], snippet["language"]),
            )
            for j, snippet in enumerate(fix["snippets"], 1)
        ]
    for path, problem in blocks:
        if problem:
            yield lines.get(path, 1), f"{path} is {problem}"


def fact_values(config):
    """{fact key: the values its rules set, or None when one takes a pattern's group}."""
    values = {}
    for rule in config.facts:
        if "{1}" in rule.value or values.get(rule.key, set()) is None:
            values[rule.key] = None
        else:
            values.setdefault(rule.key, set()).add(rule.value)
    return values


def lint_taxonomy(taxonomy, root, config=None):
    """All lint problems as "file:line: message" strings; fact references are checked against
    `config` (the DiagnosisConfig) when given."""
    facts = fact_values(config) if config is not None else None
    problems = []
    for source in taxonomy.entries:
        where = display_path(source.path, root)
        problems.extend(
            f"{where}:{line}: {message}"
            for line, message in lint_document(source.document, source.lines, facts)
        )
    return problems
