"""The site says what it covers: the paste box and a no-match name the families of the knowledge
base, read from its content, and a no-match lists no entries a reader could not act on."""

from types import SimpleNamespace

import pytest

from kb import coverage
from kb.diagnosis import repository
from kb.diagnosis.result import Candidate, Reason
from kb.models import Entry, Family

UNKNOWN = "KeyError: 'label'\n  in my_dataset.__getitem__ at step 12"


def families_with_published_entries():
    return Family.objects.filter(categories__entries__status="published").distinct()


def test_the_home_page_names_every_family_with_its_number_of_entries(client, taxonomy):
    page = client.get("/").content.decode()
    for family in families_with_published_entries():
        count = Entry.objects.published().filter(category__family=family).count()
        assert f'{family.name}</a>\n        <span class="count">{count} entr' in page
    assert Family.objects.get(slug="common").name not in page


def test_the_count_of_known_failures_is_the_sum_over_the_families(client, taxonomy):
    known = coverage.known(Entry.objects.published())
    assert known["entry_count"] == Entry.objects.published().count()
    assert known["entry_count"] == sum(family.entries for family in known["families"])
    assert f"among {known['entry_count']} known entries" in client.get("/").content.decode()


def test_a_family_whose_entries_are_all_drafts_is_not_announced(client, taxonomy):
    family = families_with_published_entries().first()
    Entry.objects.filter(category__family=family).update(status=Entry.Status.DRAFT)
    assert family.name not in client.get("/").content.decode()


def test_each_family_links_to_its_top_category(taxonomy):
    for family in coverage.covered_families(Entry.objects.published()):
        assert family.url is not None
        assert family.url.startswith("/kb/c/")


def test_a_no_match_names_the_covered_families_and_no_entry_under_the_floor(client, taxonomy):
    diagnosis = repository.diagnose(UNKNOWN)
    assert diagnosis.verdict == "no_match"
    page = client.post("/diagnose", {"q": UNKNOWN}, follow=True).content.decode()
    assert "does not know this failure yet" in page
    for family in families_with_published_entries():
        assert family.name in page
    leads = [c for c in diagnosis.candidates[:5] if c.confidence >= coverage.NEAREST_FLOOR]
    assert ("Nearest entries" in page) == bool(leads)


def test_a_no_match_of_a_covered_kind_of_failure_names_its_family(client, taxonomy):
    paste = "torch.OutOfMemoryError: something no entry has seen yet"
    assert repository.diagnose(paste).verdict == "no_match"
    page = client.post("/diagnose", {"q": paste}, follow=True).content.decode()
    memory = Family.objects.get(slug="memory")
    assert f">{memory.name}</a>,\n        which Faultline covers" in page


def test_only_candidates_at_or_above_the_floor_are_nearest_entries():
    low, high = (
        Candidate("a", "A-1", "a", confidence=0.34),
        Candidate("b", "B-1", "b", confidence=0.35),
    )
    assert coverage.nearest([high, low]) == [high]


@pytest.mark.parametrize(
    ("reason", "points"),
    [
        (Reason("exception", "torch.OutOfMemoryError", feature="exception_root", amount=0.3), True),
        (Reason("signature", "message on the root", feature="text_root", amount=0.7), True),
        (Reason("exception", "a bare ValueError", feature="exception_root", amount=0.1), False),
        (Reason("signature", "a generic line", generic=True, feature="generic", amount=1.0), False),
        (Reason("fulltext", "words of the paste", feature="fulltext", amount=1.0), False),
    ],
)
def test_a_no_match_points_to_a_family_only_on_evidence_that_names_its_failure(
    taxonomy, reason, points
):
    entry = Entry.objects.published().select_related("category__family").first()
    candidate = Candidate(entry.slug, entry.code, entry.title, reasons=[reason])
    diagnosis = SimpleNamespace(best=candidate, root=None)
    entries = Entry.objects.published()
    family = coverage.pointed_family(diagnosis, coverage.covered_families(entries), entries)
    assert (family.slug if family else None) == (entry.category.family.slug if points else None)


def test_readme_lists_every_family_with_its_number_of_entries(taxonomy, settings):
    readme = (settings.BASE_DIR / "README.md").read_text("utf-8")
    section = readme.split("## What Faultline covers", 1)[1].split("\n## ", 1)[0]
    families = coverage.covered_families(Entry.objects.published())
    assert [f.name for f in families if f"**{f.name}** ({f.entries} entries" not in section] == []
