"""The content lint: rules a valid file can still break, checked on the documents alone.

A published entry must be usable end to end: a person can recognise it (symptoms, sample
output), a paste can match it (signatures that match its own sample output), the wizard can
confirm each trigger (a check) and the result can resolve it (a fix), every snippet renders
(snippets are templates, see kb/snippets.py) and every Python snippet is valid Python once
rendered with every choice of the variables it uses, as is the base loop.

Across the files: a shared question's fact is one some rule sets; a check key is an entry's
own unless a family declares it a shared question, and no key of a check or variable is one the
wizard's query string reads as something else; every declared question and variable is used.
The blank start's kinds of "what happened" are each shown by some category or entry, every
`shows` names a category or entry that exists and only declared kinds, and once kinds are
declared every published entry shows one (else only "not sure" would reach it).

What an entry says to its readers (its prose: summary, explanation, symptoms, causes, checks,
fixes, notes, how to tell siblings apart) uses none of the phrases the families list under
`not_for_readers`: the team's own words for its work ("the lab", "the seed entry") mean nothing
to someone mid-incident.

read_taxonomy (kb/taxonomy/reading.py) runs these rules, so `load_taxonomy` refuses what
`check_taxonomy` reports.
"""

import re
from collections import defaultdict

from kb.diagnosis.calibration import FEATURES, NONE_FEATURES
from kb.patterns import compile_regex, regex_for
from kb.snippets import python_problem, snippet_problem, uses, variables_from
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
# or variable with one of these keys would be read as the wizard's state instead.
WIZARD_QUERY_KEYS = ("entry", "framework", "known")
EVIDENCE_PREFIX = "ev."
UNSURE = "unsure"  # the blank start's "not sure" (wizard/blank.py)


def lint_document(doc, lines, variables):
    """Yield (line, message) for every rule the document breaks; `variables` ({key: Variable})
    are those a snippet may use."""
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
    yield from _code_problems(doc, lines, variables)


def _reserved(key, variables):
    if key in WIZARD_QUERY_KEYS or key.startswith(EVIDENCE_PREFIX):
        return "the key is one of the wizard's own query keys"
    if key in variables:
        return "the key is a tailoring variable's"
    return None


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


def _code_problems(doc, lines, variables):
    # The base loop is shown as it is; snippets are templates, shown rendered.
    blocks = [("base_loop.code", python_problem(doc["base_loop"]["code"]))]
    for i, fix in enumerate(doc["fixes"], 1):
        blocks += [
            (
                f"fixes[{i}].snippets[{j}].code",
                snippet_problem(snippet["code"], snippet["language"], variables),
            )
            for j, snippet in enumerate(fix["snippets"], 1)
        ]
    for path, problem in blocks:
        if problem:
            yield lines.get(path, 1), f"{path} is {problem}"


def fact_values(rules):
    """{fact key: the values its rules set, or None when one takes a pattern's group}."""
    values = {}
    for rule in rules:
        if "{1}" in rule["value"] or values.get(rule["key"], set()) is None:
            values[rule["key"]] = None
        else:
            values.setdefault(rule["key"], set()).add(rule["value"])
    return values


def fact_problem(fact, facts):
    """Why a question's `fact` (key=value, or empty) could never answer it, or None."""
    key, _, value = fact.partition("=")
    if fact and key not in facts:
        return f"no fact rule of any family sets {key!r}"
    if fact and facts[key] is not None and value not in facts[key]:
        return f"fact {key!r} is never {value!r} (only {', '.join(sorted(facts[key]))})"
    return None


def lint_taxonomy(taxonomy, root):
    """All lint problems as "file:line: message" strings."""
    variables = variables_from(
        v for family in taxonomy.families for v in family.document["variables"]
    )
    problems = []
    for source in taxonomy.entries:
        where = display_path(source.path, root)
        problems.extend(
            f"{where}:{line}: {message}"
            for line, message in lint_document(source.document, source.lines, variables)
        )
    problems.extend(_question_problems(taxonomy, root, variables))
    problems.extend(_variable_problems(taxonomy, root, variables))
    problems.extend(_calibration_problems(taxonomy, root))
    problems.extend(_happened_problems(taxonomy, root))
    problems.extend(_reader_word_problems(taxonomy, root))
    return problems


# Every field an entry page or the wizard shows as prose, by its path in the document.
PROSE = ("summary", "checklist_intro", "fixes_note", "base_loop.note")
PROSE_LISTS = {
    "symptoms": (None,),
    "triggers": ("text", "note"),
    "checks": ("question", "how_to_check", "positive_means"),
    "fixes": ("title", "why"),
    "sample_output": ("note",),
    "siblings": ("how_to_tell_apart",),
}


def prose_fields(doc, lines):
    """(line, path, text) for every prose field of an entry but its explanation."""
    for path in PROSE:
        name, _, part = path.partition(".")
        text = doc[name][part] if part else doc[name]
        yield lines.get(path, lines.get(name, 1)), path, text
    for name, parts in PROSE_LISTS.items():
        for i, item in enumerate(doc[name], 1):
            for part in parts:
                path = f"{name}[{i}].{part}" if part else f"{name}[{i}]"
                yield (
                    lines.get(path, lines.get(f"{name}[{i}]", 1)),
                    path,
                    item[part] if part else item,
                )
    for i, fix in enumerate(doc["fixes"], 1):
        for j, snippet in enumerate(fix["snippets"], 1):
            path = f"fixes[{i}].snippets[{j}].note"
            yield lines.get(path, lines.get(f"fixes[{i}].snippets[{j}]", 1)), path, snippet["note"]


def _phrase_pattern(phrase):
    # Whole words only: "the lab" must not refuse "the labels".
    start = r"\b" if phrase[:1].isalnum() else ""
    end = r"\b" if phrase[-1:].isalnum() else ""
    return re.compile(start + re.escape(phrase) + end, re.IGNORECASE)


def _reader_word_problems(taxonomy, root):
    banned = [
        (item["phrase"], _phrase_pattern(item["phrase"]))
        for family in taxonomy.families
        for item in family.document["not_for_readers"]
    ]
    if not banned:
        return
    for source in taxonomy.entries:
        where = display_path(source.path, root)
        fields = list(prose_fields(source.document, source.lines))
        first = _explanation_line(source.path)
        fields += [
            (first + n, "explanation", text)
            for n, text in enumerate(source.document["explanation"].split("\n"))
        ]
        for line, path, text in fields:
            for phrase, pattern in banned:
                if text and pattern.search(text):
                    yield (
                        f"{where}:{line}: {path} says {phrase!r}, words of the team rather than "
                        "of the reader (a family's not_for_readers)"
                    )


def _explanation_line(path):
    """The line where an entry file's explanation (the Markdown after the front matter) starts."""
    text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
    head = text[: text.find("\n---\n", 3) + 5]
    body = text[len(head) :]
    return head.count("\n") + 1 + (len(body) - len(body.lstrip("\n")))


def _happened_problems(taxonomy, root):
    kinds = {}
    for where, at, kind in _declarations(taxonomy, root, "happened"):
        if kind["key"] in kinds:
            yield f"{at}: kind {kind['key']!r} is also declared in {kinds[kind['key']]}"
        if kind["key"] == UNSURE:
            yield f"{at}: kind {kind['key']!r}: the blank start reads it as “not sure”"
        kinds.setdefault(kind["key"], where)
    categories = {category["slug"]: category["parent"] for category in taxonomy.categories}
    entries = {source.document["slug"]: source.document for source in taxonomy.entries}
    by_category, by_entry, used = {}, {}, set()
    for _, at, item in _declarations(taxonomy, root, "shows"):
        names = [name for name in ("category", "entry") if item[name]]
        if len(names) != 1:
            yield f"{at}: shows: name a category or an entry (one of them)"
            continue
        target, known = item[names[0]], categories if names == ["category"] else entries
        if target not in known:
            yield f"{at}: shows: no {names[0]} {target!r}"
        for kind in item["happened"]:
            if kind not in kinds:
                yield f"{at}: shows: {target!r} names the kind {kind!r}, which no family declares"
        used.update(item["happened"])
        (by_category if names == ["category"] else by_entry)[target] = item["happened"]
    for kind, where in kinds.items():
        if kind not in used:
            yield f"{where}: kind {kind!r}: no category or entry shows it"
    if not kinds:
        return
    for source in taxonomy.entries:
        doc = source.document
        if doc["status"] == "published" and not _shown(doc, by_entry, by_category, categories):
            where = display_path(source.path, root)
            yield (
                f"{where}:{source.lines.get('category', 1)}: no kind of what happened is shown "
                f"by the entry or its category {doc['category']!r} (a family's shows)"
            )


def _shown(doc, by_entry, by_category, parents):
    if doc["slug"] in by_entry:
        return True
    category, seen = doc["category"], set()
    while category and category not in seen:
        if category in by_category:
            return True
        seen.add(category)
        category = parents.get(category)
    return False


def _calibration_problems(taxonomy, root):
    """One family brings the calibration, for every kind of evidence; its figures name
    entries that exist."""
    slugs = {source.document["slug"] for source in taxonomy.entries}
    holders = []
    for family in taxonomy.families:
        calibration = family.document["calibration"]
        if calibration is None:
            continue
        at = f"{display_path(family.path, root)}:{family.lines.get('calibration', 1)}"
        holders.append(at)
        for part, names in (("coefficients", FEATURES), ("none", NONE_FEATURES)):
            missing = set(names) - {item["feature"] for item in calibration[part]}
            if missing:
                yield f"{at}: calibration {part} lack {', '.join(sorted(missing))}"
        unknown = [row["entry"] for row in calibration["held_out"] if row["entry"] not in slugs]
        if unknown:
            yield f"{at}: calibration figures for entries that do not exist: {', '.join(unknown)}"
    for at in holders[1:]:
        yield f"{at}: a calibration is also in {holders[0]}: one family brings it"


def _question_problems(taxonomy, root, variables):
    facts = fact_values(rule for family in taxonomy.families for rule in family.document["facts"])
    declared, asked_by = {}, defaultdict(list)
    for where, at, question in _declarations(taxonomy, root, "questions"):
        key = question["key"]
        if key in declared:
            yield f"{at}: question {key!r} is also declared in {declared[key][0]}"
            continue
        declared[key] = (where, at)
        if reason := _reserved(key, variables):
            yield f"{at}: question {key!r}: {reason}"
        if problem := fact_problem(question["fact"], facts):
            yield f"{at}: question {key!r}: {problem}"
    for source in taxonomy.entries:
        where = display_path(source.path, root)
        for i, check in enumerate(source.document["checks"], 1):
            at, key = f"{where}:{source.lines.get(f'checks[{i}]', 1)}", check["key"]
            asked_by[key].append((source.document["slug"], at))
            if reason := _reserved(key, variables):
                yield f"{at}: check {key!r}: {reason}"
    for key, askers in asked_by.items():
        if len(askers) > 1 and key not in declared:
            others = ", ".join(slug for slug, _ in askers[1:])
            yield (
                f"{askers[0][1]}: check {key!r} is also asked by {others}: declare it under "
                "questions in a family.yaml to share it, or give each its own key"
            )
    for key, (_, at) in declared.items():
        if key not in asked_by:
            yield f"{at}: question {key!r}: no entry's check asks it"


def _variable_problems(taxonomy, root, variables):
    snippets = [
        snippet["code"]
        for source in taxonomy.entries
        for fix in source.document["fixes"]
        for snippet in fix["snippets"]
    ]
    seen = {}
    for where, at, variable in _declarations(taxonomy, root, "variables"):
        key = variable["key"]
        if key in seen:
            yield f"{at}: variable {key!r} is also declared in {seen[key]}"
        seen.setdefault(key, where)
        if key in WIZARD_QUERY_KEYS or key.startswith(EVIDENCE_PREFIX):
            yield f"{at}: variable {key!r}: the key is one of the wizard's own query keys"
        if not any(uses(code, key) for code in snippets):
            yield f"{at}: variable {key!r}: no snippet uses it"


def _declarations(taxonomy, root, name):
    """(file, file:line, item) for every item of every family's `name` list."""
    for family in taxonomy.families:
        where = display_path(family.path, root)
        for i, item in enumerate(family.document[name], 1):
            yield where, f"{where}:{family.lines.get(f'{name}[{i}]', 1)}", item
