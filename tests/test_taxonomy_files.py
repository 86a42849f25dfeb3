"""The taxonomy in fixtures/: loading, dumping, refusing bad files, and the content lint."""

import shutil

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from kb.models import Category, Entry, EntryAlias, Revision, Trigger
from kb.taxonomy.document import parse_entry, render_entry
from kb.taxonomy.lint import WIZARD_QUERY_KEYS
from kb.taxonomy.reading import TaxonomyError, read_taxonomy
from kb.taxonomy.store import dump_taxonomy, load_taxonomy
from wizard.state import TAILORING

SEED = "ddp-expect-autograd-hooks-assert"


@pytest.fixture
def fixtures_copy(tmp_path):
    """A writable copy of the shipped taxonomy."""
    root = tmp_path / "fixtures"
    shutil.copytree(settings.TAXONOMY_DIR, root)
    return root


def seed_file(root):
    return root / "entries" / f"{SEED}.md"


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
    return list(Entry.objects.values_list("slug", "loaded_hash", "updated_at")), list(
        Revision.objects.values_list("pk", flat=True)
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


def test_shipped_taxonomy_loads_and_passes_the_lint(empty_kb):
    call_command("check_taxonomy")
    report = load_taxonomy(settings.TAXONOMY_DIR)
    assert SEED in report.created
    assert Entry.objects.published().filter(slug=SEED).exists()


def test_loading_twice_changes_nothing_and_adds_no_revision(empty_kb):
    load_taxonomy(settings.TAXONOMY_DIR)
    report = load_taxonomy(settings.TAXONOMY_DIR)
    assert report.created == report.updated == []
    assert SEED in report.unchanged
    assert Revision.objects.filter(entry__slug=SEED).count() == 1


def test_dump_writes_the_shipped_files_back_byte_for_byte(db, tmp_path):
    load_taxonomy(settings.TAXONOMY_DIR)
    written = dump_taxonomy(tmp_path / "out")
    assert len(written) == 2 + len(list(settings.TAXONOMY_DIR.glob("entries/*.md")))
    for copy in written:
        original = settings.TAXONOMY_DIR / copy.relative_to(tmp_path / "out")
        assert copy.read_text() == original.read_text(), original.name


def test_load_dump_load_is_lossless(db, tmp_path, fixtures_copy):
    edit(seed_file(fixtures_copy), "status: published", "status: draft")
    load_taxonomy(fixtures_copy)
    before = read_taxonomy(fixtures_copy).entries[0].document
    dump_taxonomy(tmp_path / "again")
    # diagnosis.yaml is not in the database (the engine reads it from TAXONOMY_DIR): no dump
    # writes it, and no folder loads without it.
    shutil.copy(fixtures_copy / "diagnosis.yaml", tmp_path / "again")
    Entry.objects.all().delete()
    load_taxonomy(tmp_path / "again")
    after = read_taxonomy(tmp_path / "again").entries[0].document
    assert after == before
    assert Entry.objects.get(slug=SEED).status == "draft"


def test_rendering_a_parsed_entry_gives_the_same_text():
    text = seed_file(settings.TAXONOMY_DIR).read_text()
    document, problems, _ = parse_entry(text)
    assert problems == []
    assert render_entry(document) == text


def test_windows_line_endings_read_like_unix_ones():
    text = seed_file(settings.TAXONOMY_DIR).read_text()
    unix, _, _ = parse_entry(text)
    windows, problems, _ = parse_entry(text.replace("\n", "\r\n"))
    assert problems == []
    assert windows == unix


def test_unknown_key_is_refused_with_file_and_line(fixtures_copy):
    edit(seed_file(fixtures_copy), "status: published", "status: published\nseverity: high")
    line = line_of(seed_file(fixtures_copy), "severity: high")
    assert problems_of(fixtures_copy) == [
        f"fixtures/entries/{SEED}.md:{line}: unknown key 'severity' (known keys: "
        "slug, code, title, status, category, frameworks, summary, symptoms, triggers, "
        "checklist_intro, checks, fixes_note, fixes, signatures, sample_output, fingerprint, "
        "base_loop, siblings)"
    ]


def test_missing_required_field_is_refused(fixtures_copy):
    path = seed_file(fixtures_copy)
    text = path.read_text()
    summary_line = next(line for line in text.splitlines() if line.startswith("summary:"))
    path.write_text(text.replace(summary_line + "\n", ""))
    assert problems_of(fixtures_copy) == [
        f"fixtures/entries/{SEED}.md:2: missing required key 'summary'"
    ]


def test_broken_regular_expression_is_refused_with_its_line(fixtures_copy):
    path = seed_file(fixtures_copy)
    edit(path, r'reducer\.cpp":\d+', r'reducer\.cpp":(\d+')
    line = line_of(path, r'reducer\.cpp":(\d+')
    [problem] = problems_of(fixtures_copy)
    assert problem.startswith(f"fixtures/entries/{SEED}.md:{line}: signatures[2].pattern: ")
    assert "not a valid RE2 regular expression: missing )" in problem


def test_backreferences_are_refused_because_re2_cannot_run_them(fixtures_copy):
    path = seed_file(fixtures_copy)
    edit(path, r'reducer\.cpp":\d+', r'(reducer)\.cpp":\1')
    [problem] = problems_of(fixtures_copy)
    assert "not a valid RE2 regular expression" in problem


def test_duplicate_slug_and_code_are_refused(fixtures_copy):
    twin = fixtures_copy / "entries" / "twin.md"
    shutil.copy(seed_file(fixtures_copy), twin)
    problems = problems_of(fixtures_copy)
    assert any("twin.md:2: the file of entry" in p for p in problems)
    assert any(f"twin.md:2: duplicate slug '{SEED}' (also in " in p for p in problems)
    assert any("twin.md:3: duplicate code 'DDP-001' (also in " in p for p in problems)


def test_references_to_unknown_triggers_categories_and_frameworks_are_refused(fixtures_copy):
    path = seed_file(fixtures_copy)
    edit(path, "confirms: static_graph", "confirms: static_graphs")
    edit(path, "category: ddp-reducer", "category: nowhere")
    edit(path, "framework: lightning", "framework: keras")
    problems = "\n".join(problems_of(fixtures_copy))
    assert f"{line_of(path, 'static_graphs')}: checks[2].confirms: no trigger 'static_graphs'" in (
        problems
    )
    assert f"{line_of(path, 'nowhere')}: unknown category 'nowhere'" in problems
    assert f"{line_of(path, 'keras')}: unknown framework 'keras'" in problems


def test_invalid_yaml_is_refused_with_its_line(fixtures_copy):
    path = seed_file(fixtures_copy)
    edit(path, "status: published", "status: [published")
    problem = problems_of(fixtures_copy)[0]
    assert problem.startswith(f"fixtures/entries/{SEED}.md:")
    assert "not valid YAML" in problem


def test_a_bad_file_leaves_the_database_as_it_was(db, fixtures_copy):
    load_taxonomy(fixtures_copy)
    edit(seed_file(fixtures_copy), "title: DistributedDataParallel", "title: Changed")
    good = fixtures_copy / "entries" / "second.md"
    good.write_text(
        seed_file(fixtures_copy)
        .read_text()
        .replace(SEED, "second")
        .replace("DDP-001", "TST-902")
        .replace("category: ddp-reducer", "category: missing")
    )
    with pytest.raises(CommandError, match="nothing was loaded"):
        call_command("load_taxonomy", str(fixtures_copy))
    assert Entry.objects.get(slug=SEED).title.startswith("DistributedDataParallel")
    assert Revision.objects.filter(entry__slug=SEED).count() == 1


def test_changing_a_file_updates_the_entry_and_records_a_revision(db, fixtures_copy):
    load_taxonomy(fixtures_copy)
    edit(
        seed_file(fixtures_copy),
        "  - key: multiple_backward\n    text: A model",
        "  - key: multiple_backward\n    text: Any model",
    )
    report = load_taxonomy(fixtures_copy)
    assert report.updated == [SEED]
    trigger = Trigger.objects.get(entry__slug=SEED, key="multiple_backward")
    assert trigger.text.startswith("Any model")
    latest = Revision.objects.filter(entry__slug=SEED).first()
    assert (latest.number, latest.source) == (2, "load_taxonomy")
    assert "text: Any model" in latest.document


def test_renaming_a_slug_in_git_keeps_the_old_address(db, fixtures_copy):
    load_taxonomy(fixtures_copy)
    path = seed_file(fixtures_copy)
    for other in (fixtures_copy / "entries").glob("*.md"):  # the siblings that name it, too
        other.write_text(other.read_text().replace(f"slug: {SEED}", "slug: ddp-reducer-assert"))
    path.rename(fixtures_copy / "entries" / "ddp-reducer-assert.md")
    load_taxonomy(fixtures_copy)
    entry = Entry.objects.get(code="DDP-001")
    assert entry.slug == "ddp-reducer-assert"
    assert EntryAlias.objects.get(kind="slug", value=SEED).entry == entry


def test_an_edit_made_in_the_admin_is_not_overwritten_by_the_next_load(db, fixtures_copy):
    load_taxonomy(fixtures_copy)
    entry = Entry.objects.get(code="DDP-001")
    entry.title = "Edited in the admin"
    entry.save()
    edit(seed_file(fixtures_copy), "title: DistributedDataParallel", "title: Edited in git")

    report = load_taxonomy(fixtures_copy)
    assert report.kept_local_edits == [SEED]
    assert Entry.objects.get(code="DDP-001").title == "Edited in the admin"

    load_taxonomy(fixtures_copy, force=True)
    assert Entry.objects.get(code="DDP-001").title.startswith("Edited in git")


def test_categories_must_form_a_tree(fixtures_copy):
    (fixtures_copy / "categories.yaml").write_text(
        "- slug: a\n  name: A\n  parent: b\n- slug: b\n  name: B\n  parent: a\n"
        "- slug: ddp-reducer\n  name: R\n  parent: ghost\n"
    )
    problems = problems_of(fixtures_copy)
    assert "fixtures/categories.yaml:3: category 'a' is in a cycle" in problems
    assert "fixtures/categories.yaml:9: unknown parent category 'ghost'" in problems


def test_category_parents_are_loaded(taxonomy):
    assert Category.objects.get(slug="ddp-reducer").parent.slug == "distributed-training"


def test_content_lint_reports_a_trigger_without_check_or_fix(fixtures_copy, capsys):
    edit(
        seed_file(fixtures_copy),
        "  - key: multiple_backward\n    text:",
        "  - key: eager_mode\n    text: Never checked.\n  - key: multiple_backward\n    text:",
    )
    with pytest.raises(CommandError, match="2 problem"):
        call_command("check_taxonomy", str(fixtures_copy))
    errors = capsys.readouterr().err
    assert "trigger 'eager_mode': no check confirms it" in errors
    assert "trigger 'eager_mode': no fix resolves it" in errors


def test_content_lint_refuses_a_snippet_that_is_not_python(db, fixtures_copy, capsys):
    path = seed_file(fixtures_copy)
    edit(path, "loss.backward()\n", "loss.backward(\n")
    assert refused_by_check_and_load(fixtures_copy, capsys) == [
        f"fixtures/entries/{SEED}.md:{code_line_above(path, 'loss.backward(')}: "
        "fixes[1].snippets[1].code is not valid Python once rendered: "
        "'(' was never closed (line 9)"
    ]


def test_content_lint_needs_a_signature_that_matches_the_sample_output(fixtures_copy, capsys):
    path = seed_file(fixtures_copy)
    text = path.read_text()
    for prefix in ("../", "/__w/"):  # the sample lines' paths; the signatures have none
        text = text.replace(f'INTERNAL ASSERT FAILED at "{prefix}', f'assert failed at "{prefix}')
    path.write_text(text)
    with pytest.raises(CommandError):
        call_command("check_taxonomy", str(fixtures_copy))
    assert "no signature matches any sample output line" in capsys.readouterr().err


# --- What check_taxonomy reports, load_taxonomy refuses -----------------------------------------


def test_a_snippet_with_a_broken_template_tag_is_not_loaded(db, fixtures_copy, capsys):
    path = seed_file(fixtures_copy)
    edit(path, "{% if scheduler %}scheduler = optim", "{% if %}scheduler = optim")
    assert refused_by_check_and_load(fixtures_copy, capsys) == [
        f"fixtures/entries/{SEED}.md:{code_line_above(path, '{% if %}')}: "
        "fixes[1].snippets[1].code is not a valid snippet template: "
        "Unexpected end of expression in if tag."
    ]


def test_a_base_loop_that_is_not_python_is_not_loaded(db, fixtures_copy, capsys):
    path = seed_file(fixtures_copy)
    edit(path, "    # Typical pattern:\n", "    # Typical pattern:\n    for step in range(:\n")
    assert refused_by_check_and_load(fixtures_copy, capsys) == [
        f"fixtures/entries/{SEED}.md:{code_line_above(path, 'range(:')}: "
        "base_loop.code is not valid Python: invalid syntax (line 2)"
    ]


@pytest.mark.parametrize(
    "old, new, at, reason",
    [
        (
            r"trainer\.py '",
            r"trainer\.py ('",
            r"trainer\.py ('",
            "facts[1].pattern: not a valid RE2 regular expression: missing )",
        ),
        ("facts:\n", "facts: [\n", "- key: framework", "not valid YAML: expected the node content"),
        ("facts:\n", "severity: high\nfacts:\n", "severity: high", "unknown key 'severity'"),
    ],
    ids=["invalid-regex", "invalid-yaml", "unknown-key"],
)
def test_a_broken_diagnosis_yaml_is_not_loaded(db, fixtures_copy, capsys, old, new, at, reason):
    config = fixtures_copy / "diagnosis.yaml"
    edit(config, old, new)
    [problem] = refused_by_check_and_load(fixtures_copy, capsys)
    assert problem.startswith(f"fixtures/diagnosis.yaml:{line_of(config, at)}: {reason}")


def test_a_taxonomy_without_diagnosis_yaml_is_not_loaded(db, fixtures_copy, capsys):
    (fixtures_copy / "diagnosis.yaml").unlink()
    assert refused_by_check_and_load(fixtures_copy, capsys) == [
        "fixtures/diagnosis.yaml:1: file is missing"
    ]


def test_a_folder_named_like_an_entry_file_is_reported(fixtures_copy):
    (fixtures_copy / "entries" / "notes.md").mkdir()
    assert problems_of(fixtures_copy) == ["fixtures/entries/notes.md:1: not a file"]


@pytest.mark.parametrize("command", ["check_taxonomy", "load_taxonomy"])
@pytest.mark.parametrize("where", ["an entry file", "the entries folder", "nowhere"])
def test_a_path_that_is_no_taxonomy_folder_is_refused_saying_what_one_holds(
    db, fixtures_copy, command, where
):
    path = {
        "an entry file": seed_file(fixtures_copy),
        "the entries folder": fixtures_copy / "entries",
        "nowhere": fixtures_copy / "nowhere",
    }[where]
    with pytest.raises(CommandError) as refused:
        call_command(command, str(path))
    assert str(refused.value) == (
        f"{path} is not a taxonomy folder: a taxonomy folder holds categories.yaml, "
        "frameworks.yaml, diagnosis.yaml and an entries/ folder with one .md file per entry"
    )


def test_dumping_onto_a_file_is_refused_and_leaves_the_file_alone(db, fixtures_copy):
    path = seed_file(fixtures_copy)
    text = path.read_text()
    with pytest.raises(CommandError, match="a file is in the way"):
        call_command("dump_taxonomy", str(path))
    assert path.read_text() == text


# --- References and keys that would break the wizard ----------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("fact: static_graph=yes", "fact: no_such_fact=yes",
         "check 'static_graph': no fact rule sets 'no_such_fact' (see diagnosis.yaml)"),
        ("fact: static_graph=yes", "fact: static_graph=maybe",
         "check 'static_graph': fact 'static_graph' is never 'maybe' (only no, yes)"),
        ("  - key: reentrant_checkpointing\n    question:", "  - key: steps\n    question:",
         "check 'steps': the key is one of the wizard's own query keys"),
    ],
)  # fmt: skip
def test_a_check_the_wizard_could_not_use_is_not_loaded(
    db, fixtures_copy, capsys, old, new, reason
):
    edit(seed_file(fixtures_copy), old, new)
    reported = refused_by_check_and_load(fixtures_copy, capsys)
    assert any(line.endswith(reason) for line in reported), reported


def test_a_snippet_must_be_python_for_every_answer_the_wizard_can_give(db, fixtures_copy, capsys):
    path = seed_file(fixtures_copy)
    # Valid as the entry page shows it (with a scheduler), broken for a loop without one.
    edit(
        path,
        "    scheduler.step()\n          {% endif %}",
        "    scheduler.step()\n          {% else %}    (\n          {% endif %}",
    )
    reported = refused_by_check_and_load(fixtures_copy, capsys)
    assert any("without a learning-rate scheduler" in line for line in reported), reported


def test_the_lint_knows_every_key_the_wizard_reads_from_its_query():
    assert set(WIZARD_QUERY_KEYS) == {"entry", "known", *TAILORING}
