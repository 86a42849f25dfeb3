""" "No, it did not fix it": the result answers where the form was, with what to try next and a
way to tell the maintainers, which puts the wizard's state in the queue of unmatched pastes."""

from urllib.parse import urlencode

from django.conf import settings

from kb.models import UnmatchedPaste
from tests.simulated import wizard_of

SEED = "ddp-expect-autograd-hooks-assert"
SEED_CAUSES = {"static_graph": "yes", "no_sync_mismatch": "yes"}


def result_query():
    _, _, pairs = wizard_of(settings.TAXONOMY_DIR).walk(SEED_CAUSES, SEED, framework="pytorch")
    return urlencode(pairs)


def post(client, **fields):
    data = {"entry": SEED, "fix": "no_sync_context", "causes": "static_graph", **fields}
    return client.post("/wizard/feedback", data, follow=True)


def feedback_area(html):
    return html.split('id="feedback"', 1)[1].split("</div>", 1)[0]


def test_no_answers_in_the_feedback_area_with_the_next_things_to_try(client, taxonomy):
    response = post(client, fixed="no", state=result_query())
    assert response.redirect_chain[-1][0].endswith("#feedback")
    area = feedback_area(response.content.decode())
    assert "sorry it did not fix it" in area
    assert "Restart the wizard" in area and f"entry={SEED}" in area
    assert 'name="tell" value="maintainers"' in area


def test_yes_thanks_in_the_feedback_area_and_offers_nothing_more(client, taxonomy):
    area = feedback_area(post(client, fixed="yes", state=result_query()).content.decode())
    assert "Thank you" in area and "Tell the maintainers" not in area


def test_telling_the_maintainers_queues_the_result_with_the_answers(client, taxonomy):
    state = result_query() + "&" + urlencode({"ev.static_graph": "alice@example.com wrote it"})
    response = post(client, tell="maintainers", state=state, framework="pytorch")
    assert "the maintainers will see" in feedback_area(response.content.decode())
    [queued] = UnmatchedPaste.objects.all()
    assert queued.masked_text.startswith("The wizard's fix did not fix it: DDP-001")
    assert "static_graph=yes" in queued.masked_text and "framework: pytorch" in queued.masked_text
    assert "alice@example.com" not in queued.masked_text


def test_the_same_unfixed_result_told_twice_counts_in_one_row(client, taxonomy):
    for _ in range(2):
        post(client, tell="maintainers", state=result_query())
    assert list(UnmatchedPaste.objects.values_list("count", flat=True)) == [2]


def test_telling_the_maintainers_is_rate_limited_like_votes(client, taxonomy, settings):
    settings.FEEDBACK_PER_ADDRESS_PER_HOUR = 1
    assert post(client, tell="maintainers", state=result_query()).status_code == 200
    assert post(client, tell="maintainers", state=result_query()).status_code == 429
