"""Pages are rendered once per content version for visitors, and an edit shows at once."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from kb.caching import content_version
from kb.models import EntryAlias, FamilyRevision, Framework, ListRevision
from kb.taxonomy.store import load_taxonomy, record_revision
from tests.conftest import submit_admin_form

SEED_URL = "/kb/ddp-expect-autograd-hooks-assert/"


def test_a_visitor_gets_the_cached_page_without_a_query(client, seed):
    first = client.get(SEED_URL)
    with CaptureQueriesContext(connection) as queries:
        again = client.get(SEED_URL)
    assert again.content == first.content
    assert len(queries) == 0


def test_an_edit_shows_at_once(client, seed, staff, django_capture_on_commit_callbacks):
    client.get(SEED_URL)
    seed.title = "A renamed failure"
    seed.save()
    with django_capture_on_commit_callbacks(execute=True):
        record_revision(seed, "admin", author=staff)
    assert "A renamed failure" in client.get(SEED_URL).content.decode()


def test_the_version_is_published_only_once_the_edit_is_committed(seed, staff):
    before = content_version()
    seed.title = "Not committed yet"
    seed.save()
    record_revision(seed, "admin", author=staff)  # the test's transaction never commits
    assert content_version() == before


def test_staff_pages_are_never_cached(client, seed, staff):
    client.force_login(staff)
    client.get(SEED_URL)
    with CaptureQueriesContext(connection) as queries:
        client.get(SEED_URL)
    assert len(queries) > 5


def test_pages_vary_on_htmx_requests(client, seed):
    full = client.get("/wizard/?entry=ddp-expect-autograd-hooks-assert")
    fragment = client.get(
        "/wizard/?entry=ddp-expect-autograd-hooks-assert", headers={"HX-Request": "true"}
    )
    assert "HX-Request" in full["Vary"] and "HX-Request" in fragment["Vary"]
    assert "<html" in full.content.decode() and "<html" not in fragment.content.decode()


def test_pages_with_a_csrf_token_are_not_cached(client, seed):
    home = client.get("/").content.decode()
    assert "csrfmiddlewaretoken" in home
    assert client.get("/").content.decode() != home  # a fresh token each time


def test_renaming_a_category_in_the_admin_shows_to_visitors_at_once_and_keeps_its_history(
    client, seed, staff, django_capture_on_commit_callbacks
):
    category = seed.category
    assert category.name in client.get("/kb/").content.decode()  # now cached
    client.force_login(staff)
    with django_capture_on_commit_callbacks(execute=True):
        response = submit_admin_form(
            client, f"/admin/kb/category/{category.pk}/change/", {"name": "Renamed group"}
        )
    assert response.status_code == 302
    client.logout()
    assert "Renamed group" in client.get("/kb/").content.decode()
    revision = ListRevision.objects.filter(name="categories").first()
    assert (revision.author, revision.source) == (staff, "admin")
    assert "name: Renamed group" in revision.document


def test_editing_a_framework_or_an_old_address_publishes_a_new_version(
    client, seed, staff, django_capture_on_commit_callbacks
):
    client.force_login(staff)
    framework = Framework.objects.get(key="lightning")
    alias = EntryAlias.objects.create(kind="slug", value="an-old-slug", entry=seed)
    for url, changes, name in (
        (f"/admin/kb/framework/{framework.pk}/change/", {"name": "Lightning Fabric"}, "frameworks"),
        (f"/admin/kb/entryalias/{alias.pk}/change/", {"value": "another-old-slug"}, "aliases"),
    ):
        before, kept = content_version(), ListRevision.objects.filter(name=name).count()
        with django_capture_on_commit_callbacks(execute=True):
            assert submit_admin_form(client, url, changes).status_code == 302
        assert content_version() != before, url
        assert ListRevision.objects.filter(name=name).count() == kept + 1
        assert ListRevision.objects.filter(name=name).first().author == staff


def test_a_messages_cookie_that_holds_no_message_still_gets_the_cached_page(client, seed):
    client.get(SEED_URL)
    client.cookies["messages"] = "1"
    with CaptureQueriesContext(connection) as queries:
        response = client.get(SEED_URL)
    assert response.status_code == 200
    assert len(queries) == 0


@pytest.mark.parametrize(
    ("url", "junk"),
    [
        (SEED_URL, "?utm_source=a"),
        ("/kb/", "?page=2"),
        ("/wizard/?entry=ddp-expect-autograd-hooks-assert", "&bogus=1"),
        ("/wizard/?entry=ddp-expect-autograd-hooks-assert", "&static_graph=maybe"),
    ],
)
def test_parameters_a_page_does_not_read_are_served_from_its_cached_page(client, seed, url, junk):
    page = client.get(url).content
    for n in range(3):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(f"{url}{junk}{n}")
        assert response.content == page
        assert len(queries) == 0


def test_a_wizard_answer_is_not_mistaken_for_junk(client, seed):
    start = client.get("/wizard/?entry=ddp-expect-autograd-hooks-assert").content
    answered = client.get("/wizard/?entry=ddp-expect-autograd-hooks-assert&static_graph=yes")
    assert answered.content != start


def test_pages_for_signed_in_staff_are_private(client, seed, staff):
    client.force_login(staff)
    for url in (SEED_URL, "/kb/", "/", "/wizard/"):
        assert "private" in client.get(url)["Cache-Control"], url


def test_a_category_renamed_in_the_files_is_a_new_version_once_loaded(
    toy_kb, toy_copy, django_capture_on_commit_callbacks
):
    family = toy_copy / "families" / "toy" / "family.yaml"
    family.write_text(family.read_text().replace("name: Queues", "name: Renamed in git", 1))
    before = content_version()
    with django_capture_on_commit_callbacks(execute=True):
        load_taxonomy(toy_copy)
    assert content_version() != before
    revision = ListRevision.objects.filter(name="categories").first()
    assert revision.source == "load_taxonomy" and "Renamed in git" in revision.document
    family_revision = FamilyRevision.objects.filter(family__slug="toy").first()
    assert "name: Renamed in git" in family_revision.document
