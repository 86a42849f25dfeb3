"""Reading the taxonomy files and validating them as a whole, before anything is written:
every problem is reported as "file:line: reason".

`read_taxonomy` is the one judgement of a taxonomy folder: `check_taxonomy` reports what it
finds and `load_taxonomy` refuses to write anything when it finds a problem, so what passes the
check is exactly what loads. diagnosis.yaml is read by the engine from TAXONOMY_DIR rather than
loaded into the database, but a folder whose diagnosis.yaml is broken is refused all the same:
every diagnosis would fail with it."""

from dataclasses import dataclass
from pathlib import Path

from kb.diagnosis.config import parse_config
from kb.diagnosis.repository import CONFIG_FILE
from kb.taxonomy.document import (
    CATEGORIES,
    FRAMEWORKS,
    display_path,
    normalise_newlines,
    parse_entry,
)
from kb.taxonomy.lint import lint_taxonomy
from kb.taxonomy.schema import read_yaml

CATEGORIES_FILE = "categories.yaml"
FRAMEWORKS_FILE = "frameworks.yaml"
ENTRIES_DIR = "entries"
WHAT_A_TAXONOMY_FOLDER_HOLDS = (
    f"{CATEGORIES_FILE}, {FRAMEWORKS_FILE}, {CONFIG_FILE} and an {ENTRIES_DIR}/ folder "
    "with one .md file per entry"
)


class TaxonomyError(Exception):
    """The files are not a valid taxonomy; `problems` holds "file:line: reason" strings."""

    def __init__(self, problems):
        super().__init__("\n".join(problems))
        self.problems = problems


class NotATaxonomyFolder(Exception):
    """The path given is no taxonomy folder at all (a file, or a folder of something else):
    there are no files to report on line by line."""


@dataclass
class SourceEntry:
    path: Path
    document: dict
    lines: dict


@dataclass
class Taxonomy:
    categories: list
    frameworks: list
    entries: list  # of SourceEntry


def _require_taxonomy_folder(root):
    if not (root / ENTRIES_DIR).is_dir():
        raise NotATaxonomyFolder(
            f"{root} is not a taxonomy folder: a taxonomy folder holds "
            f"{WHAT_A_TAXONOMY_FOLDER_HOLDS}"
        )


def read_taxonomy(root):
    """Read and validate every file under `root`: each file against its schema, the references
    between files, the content lint (kb/taxonomy/lint.py) and diagnosis.yaml. Raises
    TaxonomyError listing all problems, NotATaxonomyFolder if `root` holds no taxonomy."""
    root = Path(root)
    _require_taxonomy_folder(root)
    problems = []

    def add(path, found):
        problems.extend(f"{display_path(path, root)}:{p.line}: {p.message}" for p in found)

    def read_text(path):
        where = display_path(path, root)
        if not path.is_file():
            problems.append(f"{where}:1: {'not a file' if path.exists() else 'file is missing'}")
            return None
        try:
            return normalise_newlines(path.read_text("utf-8"))
        except UnicodeDecodeError as error:
            problems.append(f"{where}:1: not UTF-8 text ({error.reason})")
            return None

    def read_list(name, schema):
        path = root / name
        text = read_text(path)
        if text is None:
            return [], {}
        value, found, lines = read_yaml(text, schema)
        add(path, found)
        return value, lines

    categories, category_lines = read_list(CATEGORIES_FILE, CATEGORIES)
    frameworks, _ = read_list(FRAMEWORKS_FILE, FRAMEWORKS)
    problems.extend(
        _category_problems(categories, category_lines, display_path(root / CATEGORIES_FILE, root))
    )

    entries = []
    for path in sorted((root / ENTRIES_DIR).glob("*.md")):
        text = read_text(path)
        if text is None:
            continue
        document, found, lines = parse_entry(text)
        add(path, found)
        entries.append(SourceEntry(path, document, lines))

    taxonomy = Taxonomy(categories, frameworks, entries)
    problems.extend(_cross_file_problems(taxonomy, root))

    config, config_path = None, root / CONFIG_FILE
    config_text = read_text(config_path)
    if config_text is not None:
        config, found = parse_config(config_text)
        add(config_path, found)
    if not problems:
        # The content rules read documents as valid ones: known keys, patterns that compile.
        problems.extend(lint_taxonomy(taxonomy, root, config))

    if problems:
        raise TaxonomyError(problems)
    return taxonomy


def _category_problems(categories, lines, where):
    problems = []
    parents = {category["slug"]: category["parent"] for category in categories}
    for index, category in enumerate(categories, 1):
        parent = category["parent"]
        line = lines.get(f"[{index}].parent", lines.get(f"[{index}]", 1))
        if parent is not None and parent not in parents:
            problems.append(f"{where}:{line}: unknown parent category {parent!r}")
            continue
        seen, node = {category["slug"]}, parent
        while node is not None and node in parents:
            if node in seen:
                problems.append(f"{where}:{line}: category {category['slug']!r} is in a cycle")
                break
            seen.add(node)
            node = parents[node]
    return problems


def _cross_file_problems(taxonomy, root):
    problems = []
    category_slugs = {category["slug"] for category in taxonomy.categories}
    framework_keys = {framework["key"] for framework in taxonomy.frameworks}
    entry_slugs = {source.document["slug"] for source in taxonomy.entries}
    first_with = {}

    for source in taxonomy.entries:
        doc, lines = source.document, source.lines
        where = display_path(source.path, root)

        def report(path, message, where=where, lines=lines):
            problems.append(f"{where}:{lines.get(path, 1)}: {message}")

        if doc["slug"] and source.path.name != f"{doc['slug']}.md":
            report("slug", f"the file of entry {doc['slug']!r} must be named {doc['slug']}.md")
        for name in ("slug", "code"):
            value = doc[name]
            earlier = first_with.setdefault((name, value), where)
            if value and earlier != where:
                report(name, f"duplicate {name} {value!r} (also in {earlier})")
        if doc["category"] and doc["category"] not in category_slugs:
            report("category", f"unknown category {doc['category']!r} (see {CATEGORIES_FILE})")

        framework_uses = [(f"frameworks[{i}]", key) for i, key in enumerate(doc["frameworks"], 1)]
        for i, fix in enumerate(doc["fixes"], 1):
            framework_uses += [
                (f"fixes[{i}].snippets[{j}].framework", snippet["framework"])
                for j, snippet in enumerate(fix["snippets"], 1)
            ]
        framework_uses += [
            (f"base_loop.applies_to[{i}]", key)
            for i, key in enumerate(doc["base_loop"]["applies_to"], 1)
        ]
        framework_uses += [
            (f"base_loop.config_flags[{i}].framework", flag["framework"])
            for i, flag in enumerate(doc["base_loop"]["config_flags"], 1)
        ]
        for path, framework in framework_uses:
            if framework and framework not in framework_keys:
                report(path, f"unknown framework {framework!r} (see {FRAMEWORKS_FILE})")

        for i, sibling in enumerate(doc["siblings"], 1):
            if sibling["slug"] == doc["slug"]:
                report(f"siblings[{i}].slug", "an entry is not its own sibling")
            elif sibling["slug"] and sibling["slug"] not in entry_slugs:
                report(f"siblings[{i}].slug", f"no entry {sibling['slug']!r} in the taxonomy")
    return problems
