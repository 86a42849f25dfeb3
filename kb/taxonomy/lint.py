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


def lint_document(doc, lines):
    """Yield (line, message) for every rule the document breaks."""
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

    yield from _sample_output_problems(doc, lines)
    yield from _code_problems(doc, lines)


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


def lint_taxonomy(taxonomy, root):
    """All lint problems as "file:line: message" strings."""
    problems = []
    for source in taxonomy.entries:
        where = display_path(source.path, root)
        problems.extend(
            f"{where}:{line}: {message}"
            for line, message in lint_document(source.document, source.lines)
        )
    return problems
