"""Taxonomy folders: loading, dumping, refusing bad files, and the content lint.

The rules are shown on the toy taxonomy (tests/fixtures/toy: one family, two entries); the
shipped folders are checked at the end, as content."""

import shutil

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from kb.models import Category, Entry, EntryAlias, Family, FamilyRevision, Revision, Trigger
from kb.taxonomy.document import parse_entry, render_entry
from kb.taxonomy.family import parse_family, render_family
from kb.taxonomy.lint import WIZARD_QUERY_KEYS
from kb.taxonomy.reading import TaxonomyError, read_taxonomy
from kb.taxonomy.store import dump_taxonomy, load_taxonomy
from tests.conftest import TOY_TAXONOMY
from wizard.state import FRAMEWORK

SLUG = "toy-queue-overflow"
ENTRY = f"toy/families/toy/entries/{SLUG}.md"
FAMILY = "toy/families/toy/family.yaml"


def entry_file(root, slug=SLUG):
    return root / "families" / "toy" / "entries" / f"{slug}.md"


def family_file(root):
    return root / "families" / "toy" / "family.yaml"


def edit(path, old, new):
    text = path.read_text()
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1))


def line_of(path, fragment):
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if fragment in line:
            return number
    raise AssertionError(f"{fragment!r} not in {path}")


def code_line_above(path, fragment):
    """The line of the `code:` key whose block holds `fragment`."""
    lines = path.read_text().splitlines()
    inside = line_of(path, fragment)
    return next(n for n in range(inside, 0, -1) if lines[n - 1].lstrip().startswith("code:"))


def database_state():
    return (
        list(Entry.objects.values_list("slug", "loaded_hash", "updated_at")),
        list(Revision.objects.values_list("pk", flat=True)),
        list(Family.objects.values_list("slug", "parts")),
    )


def refused_by_check_and_load(root, capsys):
    """The problems check_taxonomy reports for `root`, once it is clear that load_taxonomy
    refuses the folder with the same ones and writes nothing."""
    with pytest.raises(CommandError):
        call_command("check_taxonomy", str(root))
    reported = capsys.readouterr().err.splitlines()
    before = database_state()
    with pytest.raises(CommandError, match="nothing was loaded"):
        call_command("load_taxonomy", str(root), force=True)
    assert capsys.readouterr().err.splitlines() == reported
    assert database_state() == before
    return reported


def problems_of(root):
    with pytest.raises(TaxonomyError) as caught:
        read_taxonomy(root)
    return caught.value.problems


# --- Loading and dumping ----------------------------------------------------------------------


def test_a_family_folder_loads_with_its_categories_frameworks_and_parts(empty_kb):
    report = load_taxonomy(TOY_TAXONOMY)
    assert sorted(report.created) == ["toy-consumer-stall", SLUG]
    family = Family.objects.get(slug="toy")
    assert family.name == "Toy queues"
    assert [c.slug for c in family.categories.all()] == ["toy", "toy-queues"]
    assert [f.key for f in family.frameworks.all()] == ["plain", "toyfw"]
    assert [v["key"] for v in family.parts["variables"]] == ["batch_size", "drop_last"]
    assert Category.objects.get(slug="toy-queues").parent.slug == "toy"
    assert FamilyRevision.objects.get(family=family).number == 1


def test_loading_twice_changes_nothing_and_adds_no_revision(empty_kb):
    load_taxonomy(TOY_TAXONOMY)
    report = load_taxonomy(TOY_TAXONOMY)
    assert report.created == report.updated == []
    assert SLUG in report.unchanged
    assert Revision.objects.filter(entry__slug=SLUG).count() == 1
    assert FamilyRevision.objects.filter(family__slug="toy").count() == 1


def test_dump_writes_the_files_back_byte_for_byte(empty_kb, tmp_path):
    load_taxonomy(TOY_TAXONOMY)
    written = dump_taxonomy(tmp_path / "out")
    assert len(written) == 3
    for copy in written:
        original = TOY_TAXONOMY / copy.relative_to(tmp_path / "out")
        assert copy.read_text() == original.read_text(), original.name


def test_load_dump_load_is_lossless(empty_kb, tmp_path, toy_copy):
    edit(entry_file(toy_copy), "status: published", "status: draft")
    edit(family_file(toy_copy), "default: '16'", "default: '32'")
    load_taxonomy(toy_copy)
    before = read_taxonomy(toy_copy)
    dump_taxonomy(tmp_path / "again")
    Entry.objects.all().delete()
    load_taxonomy(tmp_path / "again")
    after = read_taxonomy(tmp_path / "again")
    assert [e.document for e in after.entries] == [e.document for e in before.entries]
    assert [f.document for f in after.families] == [f.document for f in before.families]
    assert Entry.objects.get(slug=SLUG).status == "draft"


def test_a_family_edited_in_its_file_is_a_new_revision(empty_kb, toy_copy):
    load_taxonomy(toy_copy)
    edit(family_file(toy_copy), "says: for batches of 8", "says: with batches of 8")
    load_taxonomy(toy_copy)
    latest = FamilyRevision.objects.filter(family__slug="toy").first()
    assert (latest.number, latest.source) == (2, "load_taxonomy")
    assert "says: with batches of 8" in latest.document


@pytest.mark.parametrize("name", ["family.yaml", f"entries/{SLUG}.md"])
def test_rendering_a_parsed_file_gives_the_same_text(name):
    path = TOY_TAXONOMY / "families" / "toy" / name
    parse, render = (
        (parse_family, render_family) if name == "family.yaml" else (parse_entry, render_entry)
    )
    document, problems, _ = parse(path.read_text())
    assert problems == []
    assert render(document) == path.read_text()


def test_windows_line_endings_read_like_unix_ones():
    text = entry_file(TOY_TAXONOMY).read_text()
    unix, _, _ = parse_entry(text)
    windows, problems, _ = parse_entry(text.replace("\n", "\r\n"))
    assert problems == []
    assert windows == unix


def test_a_bad_file_leaves_the_database_as_it_was(empty_kb, toy_copy):
    load_taxonomy(toy_copy)
    edit(entry_file(toy_copy), "title: The toy queue", "title: Changed")
    edit(entry_file(toy_copy, "toy-consumer-stall"), "category: toy-queues", "category: gone")
    with pytest.raises(CommandError, match="nothing was loaded"):
        call_command("load_taxonomy", str(toy_copy))
    assert Entry.objects.get(slug=SLUG).title == "The toy queue overflows"
    assert Revision.objects.filter(entry__slug=SLUG).count() == 1


def test_changing_a_file_updates_the_entry_and_records_a_revision(empty_kb, toy_copy):
    load_taxonomy(toy_copy)
    edit(entry_file(toy_copy), "text: A consumer slower", "text: Any consumer slower")
    report = load_taxonomy(toy_copy)
    assert report.updated == [SLUG]
    trigger = Trigger.objects.get(entry__slug=SLUG, key="slow_consumer")
    assert trigger.text.startswith("Any consumer")
    latest = Revision.objects.filter(entry__slug=SLUG).first()
    assert (latest.number, latest.source) == (2, "load_taxonomy")
    assert "text: Any consumer slower" in latest.document


def test_renaming_a_slug_in_git_keeps_the_old_address(empty_kb, toy_copy):
    load_taxonomy(toy_copy)
    for other in (toy_copy / "families" / "toy" / "entries").glob("*.md"):  # siblings too
        other.write_text(other.read_text().replace(f"slug: {SLUG}", "slug: toy-queue-full"))
    entry_file(toy_copy).rename(entry_file(toy_copy, "toy-queue-full"))
    load_taxonomy(toy_copy)
    entry = Entry.objects.get(code="TOY-001")
    assert entry.slug == "toy-queue-full"
    assert EntryAlias.objects.get(kind="slug", value=SLUG).entry == entry


def test_an_edit_made_in_the_admin_is_not_overwritten_by_the_next_load(empty_kb, toy_copy):
    load_taxonomy(toy_copy)
    entry = Entry.objects.get(code="TOY-001")
    entry.title = "Edited in the admin"
    entry.save()
    edit(entry_file(toy_copy), "title: The toy queue", "title: Edited in git")

    report = load_taxonomy(toy_copy)
    assert report.kept_local_edits == [SLUG]
    assert Entry.objects.get(code="TOY-001").title == "Edited in the admin"

    load_taxonomy(toy_copy, force=True)
    assert Entry.objects.get(code="TOY-001").title.startswith("Edited in git")


def test_a_database_migrated_from_before_families_is_loaded_before_it_is_dumped(taxonomy, tmp_path):
    Category.objects.filter(slug="collectives").update(family=None)
    with pytest.raises(CommandError, match="'collectives' belongs to no family: run load_taxonomy"):
        call_command("dump_taxonomy", str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_dumping_onto_a_file_is_refused_and_leaves_the_file_alone(db, toy_copy):
    path = entry_file(toy_copy)
    text = path.read_text()
    with pytest.raises(CommandError, match="a file is in the way"):
        call_command("dump_taxonomy", str(path))
    assert path.read_text() == text


# --- Files that do not read -------------------------------------------------------------------


def test_unknown_key_is_refused_with_file_and_line(toy_copy):
    edit(entry_file(toy_copy), "status: published", "status: published\nseverity: high")
    line = line_of(entry_file(toy_copy), "severity: high")
    assert problems_of(toy_copy) == [
        f"{ENTRY}:{line}: unknown key 'severity' (known keys: "
        "slug, code, title, status, category, frameworks, summary, symptoms, triggers, "
        "checklist_intro, checks, fixes_note, fixes, signatures, sample_output, fingerprint, "
        "base_loop, siblings)"
    ]


def test_missing_required_field_is_refused(toy_copy):
    path = entry_file(toy_copy)
    text = path.read_text()
    summary_line = next(line for line in text.splitlines() if line.startswith("summary:"))
    path.write_text(text.replace(summary_line + "\n", ""))
    assert problems_of(toy_copy) == [f"{ENTRY}:2: missing required key 'summary'"]


def test_invalid_yaml_is_refused_with_its_line(toy_copy):
    edit(entry_file(toy_copy), "status: published", "status: [published")
    problem = problems_of(toy_copy)[0]
    assert problem.startswith(f"{ENTRY}:")
    assert "not valid YAML" in problem


def test_broken_regular_expression_is_refused_with_its_line(toy_copy):
    path = family_file(toy_copy)
    edit(path, r"batch_size\s*=", r"batch_size\s*=(")
    [problem] = problems_of(toy_copy)
    assert problem.startswith(f"{FAMILY}:{line_of(path, 'batch_size')}: facts[2].pattern: ")
    assert "not a valid RE2 regular expression: missing )" in problem


def test_backreferences_are_refused_because_re2_cannot_run_them(toy_copy):
    edit(family_file(toy_copy), r"(?:^|/)toyfw/", r"(toyfw)/\1")
    [problem] = problems_of(toy_copy)
    assert "not a valid RE2 regular expression" in problem


def test_a_folder_named_like_an_entry_file_is_reported(toy_copy):
    (toy_copy / "families" / "toy" / "entries" / "notes.md").mkdir()
    assert problems_of(toy_copy) == ["toy/families/toy/entries/notes.md:1: not a file"]


def test_a_family_yaml_that_does_not_read_is_reported_alone(toy_copy):
    edit(family_file(toy_copy), "description: A made-up", "description: 'A made-up")
    [problem] = problems_of(toy_copy)
    assert problem.startswith(f"{FAMILY}:") and "not valid YAML" in problem


def test_a_family_folder_without_family_yaml_is_refused(db, toy_copy, capsys):
    family_file(toy_copy).unlink()
    assert f"{FAMILY}:1: file is missing" in refused_by_check_and_load(toy_copy, capsys)


@pytest.mark.parametrize("command", ["check_taxonomy", "load_taxonomy"])
@pytest.mark.parametrize("where", ["an entry file", "a family folder", "nowhere"])
def test_a_path_that_is_no_taxonomy_folder_is_refused_saying_what_one_holds(
    db, toy_copy, command, where
):
    path = {
        "an entry file": entry_file(toy_copy),
        "a family folder": toy_copy / "families" / "toy",
        "nowhere": toy_copy / "nowhere",
    }[where]
    with pytest.raises(CommandError) as refused:
        call_command(command, str(path))
    assert str(refused.value) == (
        f"{path} is not a taxonomy folder: a taxonomy folder holds a families/ folder with one "
        "folder per failure family, each with a family.yaml and an entries/ folder of .md "
        "files, one per entry"
    )


# --- References between files -----------------------------------------------------------------


def test_duplicate_slug_and_code_are_refused(toy_copy):
    shutil.copy(entry_file(toy_copy), entry_file(toy_copy, "twin"))
    problems = problems_of(toy_copy)
    assert any("twin.md:2: the file of entry" in p for p in problems)
    assert any(f"twin.md:2: duplicate slug '{SLUG}' (also in " in p for p in problems)
    assert any("twin.md:3: duplicate code 'TOY-001' (also in " in p for p in problems)


def test_references_to_unknown_triggers_categories_and_frameworks_are_refused(toy_copy):
    path = entry_file(toy_copy)
    edit(path, "confirms: slow_consumer", "confirms: slow_consumers")
    edit(path, "category: toy-queues", "category: nowhere")
    edit(path, "framework: toyfw", "framework: keras")
    problems = "\n".join(problems_of(toy_copy))
    line = line_of(path, "slow_consumers")
    assert f"{line}: checks[2].confirms: no trigger 'slow_consumers'" in problems
    assert f"{line_of(path, 'nowhere')}: unknown category 'nowhere'" in problems
    assert f"{line_of(path, 'keras')}: unknown framework 'keras'" in problems


def test_categories_form_a_tree_within_their_family(toy_copy):
    path = family_file(toy_copy)
    edit(path, "    parent: toy\n", "    parent: ghost\n")
    problems = problems_of(toy_copy)
    assert f"{FAMILY}:{line_of(path, 'ghost')}: no category 'ghost' in this family" in problems


def test_a_category_in_a_cycle_is_refused(toy_copy):
    edit(
        family_file(toy_copy),
        "    name: Toy failures\n",
        "    name: Toy failures\n    parent: toy-queues\n",
    )
    assert any("category 'toy' is in a cycle" in p for p in problems_of(toy_copy))


def test_an_entry_lives_in_the_folder_of_its_categorys_family(toy_copy):
    other = toy_copy / "families" / "other"
    (other / "entries").mkdir(parents=True)
    (other / "family.yaml").write_text("name: Other\n")
    entry_file(toy_copy, "toy-consumer-stall").rename(other / "entries" / "toy-consumer-stall.md")
    [problem] = problems_of(toy_copy)
    assert problem.endswith(
        "category 'toy-queues' is of the family 'toy': the entry's file belongs in "
        "families/toy/entries/"
    )


def test_two_families_cannot_bring_the_same_category_or_framework(toy_copy):
    shutil.copytree(toy_copy / "families" / "toy", toy_copy / "families" / "twin")
    shutil.rmtree(toy_copy / "families" / "twin" / "entries")
    problems = problems_of(toy_copy)
    assert any(p.endswith("'toy-queues' is also in toy/families/toy/family.yaml") for p in problems)
    assert any(p.endswith("'toyfw' is also in toy/families/toy/family.yaml") for p in problems)


# --- The content lint --------------------------------------------------------------------------


def test_content_lint_reports_a_trigger_without_check_or_fix(toy_copy, capsys):
    edit(
        entry_file(toy_copy),
        "  - key: slow_consumer\n    text:",
        "  - key: eager_mode\n    text: Never checked.\n  - key: slow_consumer\n    text:",
    )
    with pytest.raises(CommandError, match="2 problem"):
        call_command("check_taxonomy", str(toy_copy))
    errors = capsys.readouterr().err
    assert "trigger 'eager_mode': no check confirms it" in errors
    assert "trigger 'eager_mode': no fix resolves it" in errors


def test_content_lint_refuses_a_snippet_that_is_not_python(db, toy_copy, capsys):
    path = entry_file(toy_copy)
    edit(path, "Consumer(workers=4)", "Consumer(workers=4")
    assert refused_by_check_and_load(toy_copy, capsys) == [
        f"{ENTRY}:{code_line_above(path, 'Consumer(workers=4')}: "
        "fixes[2].snippets[1].code is not valid Python once rendered: "
        "'(' was never closed (line 1)"
    ]


def test_content_lint_needs_a_signature_that_matches_the_sample_output(toy_copy, capsys):
    edit(
        entry_file(toy_copy),
        "text: 'ToyQueueOverflow: queue is full",
        "text: 'ToyQueueOverflow: full",
    )
    with pytest.raises(CommandError):
        call_command("check_taxonomy", str(toy_copy))
    assert "no signature matches any sample output line" in capsys.readouterr().err


def test_content_lint_refuses_the_teams_own_words_in_prose_with_their_line(db, toy_copy, capsys):
    family = family_file(toy_copy)
    family.write_text(
        family.read_text() + "not_for_readers:\n  - phrase: the lab\n    why: Our setup.\n"
    )
    path = entry_file(toy_copy)
    edit(path, "text: A consumer slower than the producer.", "text: Reproduced in the lab.")
    edit(path, "\n---\n\n", "\n---\n\nThe lab saw it first.\n\n")
    assert refused_by_check_and_load(toy_copy, capsys) == [
        f"{ENTRY}:{line_of(path, 'Reproduced in the lab.')}: triggers[2].text says 'the lab', "
        "words of the team rather than of the reader (a family's not_for_readers)",
        f"{ENTRY}:{line_of(path, 'The lab saw it first.')}: explanation says 'the lab', "
        "words of the team rather than of the reader (a family's not_for_readers)",
    ]


def test_the_teams_words_are_refused_as_whole_words_only(toy_copy):
    family = family_file(toy_copy)
    family.write_text(
        family.read_text() + "not_for_readers:\n  - phrase: the lab\n    why: Our setup.\n"
    )
    edit(
        entry_file(toy_copy), "text: A consumer slower", "text: Check the labels. A consumer slower"
    )
    read_taxonomy(toy_copy)  # "the labels" is the reader's word


def test_a_snippet_with_a_broken_template_tag_is_not_loaded(db, toy_copy, capsys):
    path = entry_file(toy_copy)
    edit(path, "toyfw.run(batch_size={{ batch_size }})", "toyfw.run({% if %})")
    assert refused_by_check_and_load(toy_copy, capsys) == [
        f"{ENTRY}:{code_line_above(path, '{% if %}')}: "
        "fixes[1].snippets[2].code is not a valid snippet template: "
        "Unexpected end of expression in if tag."
    ]


def test_a_base_loop_that_is_not_python_is_not_loaded(db, toy_copy, capsys):
    path = entry_file(toy_copy)
    edit(path, "    for batch in make_loader(batch_size=128):", "    for batch in range(:")
    assert refused_by_check_and_load(toy_copy, capsys) == [
        f"{ENTRY}:{code_line_above(path, 'range(:')}: "
        "base_loop.code is not valid Python: invalid syntax (line 1)"
    ]


def test_a_snippet_must_be_python_for_every_choice_of_its_variables(db, toy_copy, capsys):
    # Valid as the entry page shows it (keeping the last batch), broken when dropping it.
    edit(
        entry_file(toy_copy),
        "{% if drop_last %}True{% else %}",
        "{% if drop_last %}True)){% else %}",
    )
    reported = refused_by_check_and_load(toy_copy, capsys)
    assert reported == [
        f"{ENTRY}:{line_of(entry_file(toy_copy), 'drop_last=') - 1}: fixes[1].snippets[1].code "
        "is not valid Python once rendered for batches of 8, dropping the last batch: "
        "unmatched ')' (line 1)"
    ]


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("fact: big_batch=yes", "fact: no_such_fact=yes",
         "question 'big_batches': no fact rule of any family sets 'no_such_fact'"),
        ("fact: big_batch=yes", "fact: big_batch=maybe",
         "question 'big_batches': fact 'big_batch' is never 'maybe' (only yes)"),
        ("  - key: big_batches\n    fact:", "  - key: unasked\n    fact:",
         "question 'unasked': no entry's check asks it"),
        ("  - key: drop_last\n", "  - key: known\n", "variable 'known': the key is one of the "
         "wizard's own query keys"),
        ("  - key: drop_last\n", "  - key: dropped\n", "variable 'dropped': no snippet uses it"),
        ("default: '16'", "default: '64'",
         "variable 'batch_size': the default is not one of its choices"),
        ("value: '8'", "value: eight", "variable 'batch_size': 'eight' is not a number"),
        ("value: 'no'", "value: maybe", "variable 'drop_last': the choices of yes_no are yes, no"),
    ],
)  # fmt: skip
def test_a_family_part_the_wizard_could_not_use_is_not_loaded(
    db, toy_copy, capsys, old, new, reason
):
    edit(family_file(toy_copy), old, new)
    reported = refused_by_check_and_load(toy_copy, capsys)
    assert any(line.endswith(reason) for line in reported), reported


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("  - key: slow_consumer\n    question:", "  - key: framework\n    question:",
         "check 'framework': the key is one of the wizard's own query keys"),
        ("  - key: slow_consumer\n    question:", "  - key: batch_size\n    question:",
         "check 'batch_size': the key is a tailoring variable's"),
        ("  - key: slow_consumer\n    question:", "  - key: producer_died\n    question:",
         "check 'producer_died' is also asked by toy-queue-overflow: declare it under "
         "questions in a family.yaml to share it, or give each its own key"),
    ],
)  # fmt: skip
def test_a_check_key_the_wizard_could_not_tell_apart_is_not_loaded(
    db, toy_copy, capsys, old, new, reason
):
    edit(entry_file(toy_copy), old, new)
    edit(entry_file(toy_copy), "confirms: slow_consumer", "confirms: slow_consumer")
    reported = refused_by_check_and_load(toy_copy, capsys)
    assert any(line.endswith(reason) for line in reported), reported


def test_the_lint_knows_every_key_the_wizard_reads_from_its_query():
    assert set(WIZARD_QUERY_KEYS) == {"entry", "known", FRAMEWORK}


# --- The shipped folders, as content ------------------------------------------------------------


@pytest.mark.content
def test_the_shipped_taxonomy_passes_the_lint():
    call_command("check_taxonomy")


@pytest.mark.content
def test_dump_writes_the_shipped_files_back_byte_for_byte(taxonomy, tmp_path):
    written = dump_taxonomy(tmp_path / "out")
    shipped = sorted(settings.TAXONOMY_DIR.glob("families/**/*.*"))
    assert sorted(settings.TAXONOMY_DIR / p.relative_to(tmp_path / "out") for p in written) == (
        shipped
    )
    for copy in written:
        original = settings.TAXONOMY_DIR / copy.relative_to(tmp_path / "out")
        assert copy.read_text() == original.read_text(), original.name
