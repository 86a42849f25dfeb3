"""Pages are rendered once per content version for visitors, and an edit shows at once."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from kb.taxonomy.store import record_revision

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
    from kb.caching import content_version

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
