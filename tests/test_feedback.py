""" "Did this fix it?": one vote per visitor per entry revision, and a bound per address."""

from django.http import HttpRequest
from django.test import Client

from kb.models import Revision
from wizard.models import Feedback, visitor_digest
from wizard.views import VISITOR_COOKIE

SEED = "ddp-expect-autograd-hooks-assert"


def vote(client, fixed="yes", **extra):
    return client.post("/wizard/feedback", {"entry": SEED, "fixed": fixed}, **extra)


def visitor_id(client):
    """The id inside the client's visitor cookie; BadSignature if the site did not sign it."""
    request = HttpRequest()
    request.COOKIES[VISITOR_COOKIE] = client.cookies[VISITOR_COOKIE].value
    return request.get_signed_cookie(VISITOR_COOKIE)


def test_repeated_votes_with_one_cookie_are_one_vote(client, seed):
    for _ in range(3):
        assert vote(client).status_code == 302
    assert Feedback.objects.count() == 1


def test_a_later_vote_replaces_the_earlier_one(client, seed):
    vote(client, "yes")
    vote(client, "no")
    assert list(Feedback.objects.values_list("fixed", flat=True)) == [False]


def test_each_visitor_has_a_vote(seed):
    vote(Client())
    vote(Client())
    assert Feedback.objects.count() == 2


def test_a_new_revision_of_the_entry_takes_a_new_vote(client, seed):
    vote(client)
    Revision.objects.create(entry=seed, number=seed.revisions.first().number + 1, document="")
    vote(client)
    assert Feedback.objects.filter(entry=seed).count() == 2


def test_the_visitor_cookie_is_signed_http_only_lax_and_only_sent_back_to_the_vote(
    client, seed, settings
):
    settings.SESSION_COOKIE_SECURE = False  # plain HTTP, as make run serves
    cookie = vote(client).cookies[VISITOR_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert cookie["path"] == "/wizard/feedback"
    assert cookie["max-age"] >= 365 * 24 * 3600
    assert not cookie["secure"]
    assert visitor_id(client)


def test_the_visitor_cookie_is_secure_where_the_session_cookie_is(client, seed, settings):
    settings.SESSION_COOKIE_SECURE = True
    assert vote(client).cookies[VISITOR_COOKIE]["secure"]


def test_only_a_hash_of_the_visitor_id_is_stored(client, seed):
    vote(client)
    stored = Feedback.objects.get().visitor
    assert visitor_id(client) not in stored
    assert stored == visitor_digest(visitor_id(client))


def test_a_cookie_the_site_did_not_sign_is_replaced_by_a_new_visitor(client, seed):
    client.cookies[VISITOR_COOKIE] = "chosen-by-the-visitor"
    vote(client)
    assert Feedback.objects.get().visitor != visitor_digest("chosen-by-the-visitor")
    assert visitor_id(client) != "chosen-by-the-visitor"


def test_votes_from_before_visitors_were_told_apart_are_all_kept(seed):
    revision = seed.revisions.first()
    for fixed in (True, True, False):
        Feedback.objects.create(entry=seed, revision=revision, fixed=fixed)
    vote(Client())
    assert Feedback.objects.filter(visitor="").count() == 3
    assert Feedback.objects.count() == 4


def test_the_vote_past_the_hourly_limit_of_an_address_is_refused_with_retry_after(seed, settings):
    for _ in range(settings.FEEDBACK_PER_ADDRESS_PER_HOUR):
        assert vote(Client()).status_code == 302  # a fresh cookie each time
    refused = vote(Client())
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 3600
    assert Feedback.objects.count() == settings.FEEDBACK_PER_ADDRESS_PER_HOUR
    assert vote(Client(), REMOTE_ADDR="10.0.0.2").status_code == 302


def test_a_vote_still_goes_back_to_the_wizard_with_thanks(client, seed):
    response = client.post(
        "/wizard/feedback", {"entry": SEED, "fixed": "no", "state": f"?entry={SEED}"}, follow=True
    )
    assert response.redirect_chain == [(f"/wizard/?entry={SEED}#feedback", 302)]
    assert "Thank you" in response.content.decode()


def test_an_answer_other_than_yes_or_no_is_a_bad_request(client, seed):
    assert vote(client, "maybe").status_code == 400
    assert not Feedback.objects.exists()


def test_the_feedback_admin_lists_votes_apart_from_those_before_visitors_were_told_apart(
    client, seed, staff
):
    Feedback.objects.create(entry=seed, revision=seed.revisions.first(), fixed=False)
    vote(Client())
    client.force_login(staff)
    url = "/admin/wizard/feedback/"
    assert client.get(url).context["cl"].result_count == 2
    assert client.get(url, {"voter": "one"}).context["cl"].result_count == 1
    assert client.get(url, {"voter": "unknown"}).context["cl"].result_count == 1
    one = Feedback.objects.exclude(visitor="").get()
    page = client.get(f"{url}{one.pk}/change/")
    assert page.status_code == 200 and one.visitor not in page.content.decode()
