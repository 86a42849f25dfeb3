import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError

from kb.models import Entry, EntryAlias, FingerprintStep, Signature
from tests.conftest import make_category, make_entry


@pytest.fixture
def entry(db):
    return make_entry()


def test_renaming_a_published_entry_keeps_its_old_slug_and_code(entry):
    entry.slug, entry.code = "renamed", "TST-101"
    entry.save()
    aliases = {(a.kind, a.value) for a in EntryAlias.objects.filter(entry=entry)}
    assert aliases == {("slug", "test-failure"), ("code", "TST-001")}


def test_renaming_a_draft_leaves_no_alias(db):
    draft = make_entry(status="draft")
    draft.slug = "renamed"
    draft.save()
    assert not EntryAlias.objects.exists()


def test_taking_back_an_old_slug_removes_its_alias(entry):
    entry.slug = "renamed"
    entry.save()
    entry.slug = "test-failure"
    entry.save()
    assert list(EntryAlias.objects.values_list("value", flat=True)) == ["renamed"]


def test_drafts_are_visible_to_staff_only(db, staff):
    make_entry(status="draft")
    assert not Entry.objects.visible_to(AnonymousUser()).filter(slug="test-failure").exists()
    assert Entry.objects.visible_to(staff).filter(slug="test-failure").count() == 1


def test_an_entry_resolves_by_slug_or_by_code_in_any_case(entry):
    assert Entry.objects.resolve("slug", "test-failure") == (entry, False)
    assert Entry.objects.resolve("code", "tst-001") == (entry, False)


def test_an_old_address_resolves_to_the_renamed_entry_as_moved(entry):
    entry.slug, entry.code = "renamed", "TST-101"
    entry.save()
    assert Entry.objects.resolve("slug", "test-failure") == (entry, True)
    assert Entry.objects.resolve("code", "tst-001") == (entry, True)


def test_an_entry_outside_the_queryset_does_not_resolve_even_by_an_old_address(entry):
    entry.slug = "renamed"
    entry.save()
    Entry.objects.filter(pk=entry.pk).update(status="draft")
    assert Entry.objects.published().resolve("slug", "renamed") == (None, False)
    assert Entry.objects.published().resolve("slug", "test-failure") == (None, False)


def test_a_signature_must_be_a_valid_re2_pattern(entry):
    bad = Signature(entry=entry, kind="regex", pattern="(unclosed")
    with pytest.raises(ValidationError, match="not a valid RE2"):
        bad.clean()
    lookbehind = Signature(entry=entry, kind="regex", pattern="(?<=x)y")
    with pytest.raises(ValidationError):
        lookbehind.clean()
    Signature(entry=entry, kind="literal", pattern="(unclosed is fine as text").clean()


def test_a_fingerprint_pattern_must_be_a_valid_re2_pattern(entry):
    with pytest.raises(ValidationError):
        FingerprintStep(entry=entry, level="ERROR", pattern="[").clean()
    FingerprintStep(entry=entry, level="INFO", pattern="").clean()


def test_a_category_cannot_be_its_own_ancestor(db):
    root = make_category("root", "Root")
    child = make_category("child", "Child", parent=root)
    assert child.ancestors() == [root]
    root.parent = child
    with pytest.raises(ValidationError):
        root.clean()


def test_an_assert_site_names_its_source_file(entry):
    with pytest.raises(ValidationError, match="ends with the source file's name"):
        Signature(entry=entry, kind="assert_site", pattern="torch/csrc/distributed/").clean()
    Signature(entry=entry, kind="assert_site", pattern="c10d/reducer.cpp").clean()
