"""Reading the taxonomy files and validating them as a whole, before anything is written:
every problem is reported as "file:line: reason".

A taxonomy folder holds one folder per failure family under `families/`: its `family.yaml`
(kb/taxonomy/family.py) and an `entries/` folder of entry files (kb/taxonomy/document.py).
`read_taxonomy` is the one judgement of a taxonomy folder: `check_taxonomy` reports what it
finds and `load_taxonomy` refuses to write anything when it finds a problem, so what passes the
check is exactly what loads."""

from dataclasses import dataclass
from pathlib import Path

from kb.taxonomy.document import display_path, normalise_newlines, parse_entry
from kb.taxonomy.family import parse_family, parts_of
from kb.taxonomy.lint import lint_taxonomy

FAMILIES_DIR = "families"
FAMILY_FILE = "family.yaml"
ENTRIES_DIR = "entries"
WHAT_A_TAXONOMY_FOLDER_HOLDS = (
    f"a {FAMILIES_DIR}/ folder with one folder per failure family, each with a {FAMILY_FILE} "
    f"and an {ENTRIES_DIR}/ folder of .md files, one per entry"
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
class SourceFamily:
    path: Path  # of its family.yaml
    slug: str  # its folder's name
    document: dict
    lines: dict


@dataclass
class SourceEntry:
    path: Path
    document: dict
    lines: dict
    family: str = ""  # the slug of the family whose folder holds it


@dataclass
class Taxonomy:
    families: list  # of SourceFamily
    entries: list  # of SourceEntry

    @property
    def categories(self):
        return [c for family in self.families for c in family.document["categories"]]

    @property
    def frameworks(self):
        return [f for family in self.families for f in family.document["frameworks"]]


def family_folders(root):
    return sorted(path for path in (Path(root) / FAMILIES_DIR).iterdir() if path.is_dir())


def read_family_parts(root):
    """The parts of every family.yaml under `root`, in the order the loader stores them, for
    what needs the engine's or the wizard's content without a database (benchmarks, tests).
    Raises TaxonomyError when one does not read."""
    root, parts, problems = Path(root), [], []
    for folder in family_folders(root):
        path = folder / FAMILY_FILE
        document, found, _ = parse_family(normalise_newlines(path.read_text("utf-8")))
        problems += [f"{display_path(path, root)}:{p.line}: {p.message}" for p in found]
        parts.append(parts_of(document))
    if problems:
        raise TaxonomyError(problems)
    return parts


def read_taxonomy(root):
    """Read and validate every file under `root`: each file against its schema, the references
    between files and the content lint (kb/taxonomy/lint.py). Raises TaxonomyError listing all
    problems, NotATaxonomyFolder if `root` holds no taxonomy."""
    root = Path(root)
    if not (root / FAMILIES_DIR).is_dir():
        raise NotATaxonomyFolder(
            f"{root} is not a taxonomy folder: a taxonomy folder holds "
            f"{WHAT_A_TAXONOMY_FOLDER_HOLDS}"
        )
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

    families, entries = [], []
    for folder in family_folders(root):
        path = folder / FAMILY_FILE
        text = read_text(path)
        if text is not None:
            document, found, lines = parse_family(text)
            add(path, found)
            families.append(SourceFamily(path, folder.name, document, lines))
    families_read = not problems
    for folder in family_folders(root):
        for path in sorted((folder / ENTRIES_DIR).glob("*.md")):
            text = read_text(path)
            if text is None:
                continue
            document, found, lines = parse_entry(text)
            add(path, found)
            entries.append(SourceEntry(path, document, lines, folder.name))

    taxonomy = Taxonomy(families, entries)
    problems.extend(_family_problems(taxonomy, root))
    if families_read:
        # A family.yaml that does not read leaves every entry's categories and frameworks
        # unknown: its own problems say what to fix.
        problems.extend(_cross_file_problems(taxonomy, root))
    if not problems:
        # The content rules read documents as valid ones: known keys, patterns that compile.
        problems.extend(lint_taxonomy(taxonomy, root))

    if problems:
        raise TaxonomyError(problems)
    return taxonomy


def _family_problems(taxonomy, root):
    """Categories form one tree per family; no category or framework is brought twice."""
    problems, first = [], {}
    for family in taxonomy.families:
        where = display_path(family.path, root)
        for name, ident in (("categories", "slug"), ("frameworks", "key")):
            for index, item in enumerate(family.document[name], 1):
                earlier = first.setdefault((name, item[ident]), where)
                if earlier != where:
                    line = family.lines.get(f"{name}[{index}]", 1)
                    problems.append(f"{where}:{line}: {item[ident]!r} is also in {earlier}")
        problems.extend(_category_problems(family.document["categories"], family.lines, where))
    return problems


def _category_problems(categories, lines, where):
    problems = []
    parents = {category["slug"]: category["parent"] for category in categories}
    for index, category in enumerate(categories, 1):
        parent = category["parent"]
        line = lines.get(f"categories[{index}].parent", lines.get(f"categories[{index}]", 1))
        if parent is not None and parent not in parents:
            problems.append(f"{where}:{line}: no category {parent!r} in this family")
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
    family_of = {
        category["slug"]: family.slug
        for family in taxonomy.families
        for category in family.document["categories"]
    }
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
        category = doc["category"]
        if category and category not in family_of:
            report("category", f"unknown category {category!r} (see the {FAMILY_FILE} files)")
        elif category and family_of[category] != source.family:
            report(
                "category",
                f"category {category!r} is of the family {family_of[category]!r}: the entry's "
                f"file belongs in {FAMILIES_DIR}/{family_of[category]}/{ENTRIES_DIR}/",
            )

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
                report(path, f"unknown framework {framework!r} (see the {FAMILY_FILE} files)")

        for i, sibling in enumerate(doc["siblings"], 1):
            if sibling["slug"] == doc["slug"]:
                report(f"siblings[{i}].slug", "an entry is not its own sibling")
            elif sibling["slug"] and sibling["slug"] not in entry_slugs:
                report(f"siblings[{i}].slug", f"no entry {sibling['slug']!r} in the taxonomy")
    return problems
