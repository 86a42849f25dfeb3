"""Authors edit entries in the Django admin; every save keeps the whole entry as a revision.
Shown on the toy family's entry (tests/fixtures/toy)."""

from html import escape
from urllib.parse import urlencode

import pytest

from kb.models import Entry, Fix, Revision
from kb.taxonomy.store import record_revision
from tests.conftest import form_fields

TOY_TITLE = "The toy queue overflows"


@pytest.fixture
def entry(toy_kb):
    return Entry.objects.get(slug="toy-queue-overflow")


def submit(client, url, changes):
    """GET the admin form at `url`, change some fields as a person would, POST it back."""
    fields = form_fields(client.get(url).content.decode())
    names = {name for name, _ in fields}
    missing = set(changes) - names
    assert not missing, f"no such fields: {missing}"
    data = [(name, changes.get(name, value)) for name, value in fields]
    return client.post(url, urlencode(data), content_type="application/x-www-form-urlencoded")


def test_admin_needs_a_staff_login(client, entry):
    response = client.get(f"/admin/kb/entry/{entry.pk}/change/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_the_entry_form_has_an_inline_for_every_part(client, entry, staff):
    client.force_login(staff)
    html = client.get(f"/admin/kb/entry/{entry.pk}/change/").content.decode()
    for prefix in (
        "symptoms",
        "triggers",
        "checks",
        "fixes",
        "signatures",
        "sample_lines",
        "fingerprint",
        "config_flags",
        "siblings",
    ):
        assert f'name="{prefix}-TOTAL_FORMS"' in html, prefix


def test_an_admin_edit_is_kept_as_a_revision_with_author_and_message(client, entry, staff):
    client.force_login(staff)
    first_symptom = entry.symptoms.first()
    response = submit(
        client,
        f"/admin/kb/entry/{entry.pk}/change/",
        {
            "title": "The toy queue is full",
            "symptoms-0-text": first_symptom.text + " Do not file it.",
            "revision_message": "Shorter title",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    revision = Revision.objects.filter(entry=entry).first()
    assert revision.number == 2
    assert (revision.author, revision.source, revision.message) == (staff, "admin", "Shorter title")
    assert "title: The toy queue is full" in revision.document
    assert "Do not file it." in revision.document
    assert Entry.objects.get(pk=entry.pk).title == "The toy queue is full"

    history = client.get(f"/kb/{entry.slug}/history/").content.decode()
    assert "Shorter title" in history and "r2" in history


def test_saving_without_changes_adds_no_revision(client, entry, staff):
    client.force_login(staff)
    submit(client, f"/admin/kb/entry/{entry.pk}/change/", {})
    assert Revision.objects.filter(entry=entry).count() == 1


def test_editing_a_snippet_on_its_fix_is_a_revision_of_the_entry(client, entry, staff):
    client.force_login(staff)
    fix = Fix.objects.get(entry=entry, key="faster-consumer")
    snippet = fix.snippets.first()
    submit(
        client,
        f"/admin/kb/fix/{fix.pk}/change/",
        {"snippets-0-code": snippet.code + "\n# checked by an author"},
    )
    revision = Revision.objects.filter(entry=entry).first()
    assert revision.number == 2
    assert "# checked by an author" in revision.document


def test_an_invalid_signature_is_refused_by_the_admin_and_nothing_is_saved(client, entry, staff):
    client.force_login(staff)
    response = submit(
        client,
        f"/admin/kb/entry/{entry.pk}/change/",
        {
            "signatures-0-kind": "regex",
            "signatures-0-pattern": "ToyQueueOverflow (",
            "title": "Should not be saved",
        },
    )
    assert response.status_code == 200
    assert "not a valid RE2 regular expression" in response.content.decode()
    assert Entry.objects.get(pk=entry.pk).title == TOY_TITLE
    assert Revision.objects.filter(entry=entry).count() == 1


def test_a_save_over_someone_elses_newer_edit_is_refused(client, entry, staff):
    client.force_login(staff)
    url = f"/admin/kb/entry/{entry.pk}/change/"
    stale_form = client.get(url).content.decode()
    first = submit(client, url, {"title": "First author's title"})
    assert first.status_code == 302

    data = dict(form_fields(stale_form))
    data["title"] = "Second author's title"
    second = client.post(url, data)
    assert second.status_code == 200
    assert "Someone saved this entry (revision 2) after you opened it" in second.content.decode()
    assert Entry.objects.get(pk=entry.pk).title == "First author's title"
    assert Revision.objects.filter(entry=entry).count() == 2


@pytest.mark.parametrize(
    ("before", "reason"),
    [
        ("{% if %}\n", "Not a valid snippet template: Unexpected end of expression in if tag."),
        ("consumer.start(\n", "Not valid Python once rendered: '(' was never closed (line 1)"),
    ],
)
def test_a_snippet_the_wizard_could_not_show_is_refused_beside_its_code(
    client, entry, staff, before, reason
):
    client.force_login(staff)
    fix = Fix.objects.get(entry=entry, key="faster-consumer")
    snippet = fix.snippets.first()
    response = submit(
        client,
        f"/admin/kb/fix/{fix.pk}/change/",
        {"title": "Should not be saved", "snippets-0-code": before + snippet.code},
    )
    assert response.status_code == 200
    assert snippet_errors(response) == {"code": [reason]}
    assert escape(reason) in response.content.decode()  # shown beside the field
    assert Fix.objects.get(pk=fix.pk).title == fix.title
    assert fix.snippets.first().code == snippet.code
    assert Revision.objects.filter(entry=entry).count() == 1


def test_a_base_loop_that_is_not_python_is_refused_beside_it(client, entry, staff):
    client.force_login(staff)
    response = submit(
        client,
        f"/admin/kb/entry/{entry.pk}/change/",
        {"base_loop": "for step in range(:\n    pass", "title": "Should not be saved"},
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {
        "base_loop": ["Not valid Python: invalid syntax (line 1)"]
    }
    entry = Entry.objects.get(pk=entry.pk)
    assert (entry.title, entry.base_loop) == (entry.title, entry.base_loop)
    assert Revision.objects.filter(entry=entry).count() == 1


def snippet_errors(response):
    [snippets] = response.context["inline_admin_formsets"]
    return snippets.formset.forms[0].errors


def test_an_entry_form_sent_without_its_revision_is_refused(client, entry, staff):
    client.force_login(staff)
    url = f"/admin/kb/entry/{entry.pk}/change/"
    fields = [
        (k, v) for k, v in form_fields(client.get(url).content.decode()) if k != "base_revision"
    ]
    fields = [(k, "Overwritten" if k == "title" else v) for k, v in fields]
    response = client.post(url, urlencode(fields), content_type="application/x-www-form-urlencoded")
    assert response.status_code == 200
    assert "sent without the revision it was opened at" in response.content.decode()
    assert Entry.objects.get(pk=entry.pk).title != "Overwritten"


def test_a_fix_saved_over_a_newer_revision_of_its_entry_is_refused(client, entry, staff):
    client.force_login(staff)
    fix = entry.fixes.first()
    url = f"/admin/kb/fix/{fix.pk}/change/"
    fields = form_fields(client.get(url).content.decode())
    entry.title = "Someone else's edit"
    entry.save()
    record_revision(entry, "admin", author=staff)
    fields = [(k, "A title over theirs" if k == "title" else v) for k, v in fields]
    response = client.post(url, urlencode(fields), content_type="application/x-www-form-urlencoded")
    assert "after you opened it" in response.content.decode()
    assert Fix.objects.get(pk=fix.pk).title != "A title over theirs"
