"""Odd but valid input gets an answer, and bad input a clear 4xx: never a 500.

Unicode digits that `str.isdigit` accepts and `int` refuses, a lone UTF-16 surrogate, JSON
nested thousands deep, links longer than a link should be, bodies larger than a paste; then
hypothesis sends any unicode in any query parameter and any JSON to the API."""

import json
from urllib.parse import quote

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.examples import examples

SEED = "ddp-expect-autograd-hooks-assert"


@pytest.mark.parametrize("digit", ["²", "①", "٣"])
def test_a_unicode_digit_in_the_wizard_state_is_ignored_with_a_note(client, taxonomy, digit):
    response = client.get(f"/api/wizard/?entry={SEED}&accumulation_steps={quote(digit)}")
    assert response.status_code == 200
    assert (
        f"Ignored accumulation_steps='{digit}': not one of 1, 2, 4, 8, 16."
        in (response.json()["notes"])
    )


@pytest.mark.parametrize(
    "paste",
    [
        "[rank²]: RuntimeError: x",
        'Traceback (most recent call last):\n  File "a.py", line ², in f\nRuntimeError: x',
        'RuntimeError: x INTERNAL ASSERT FAILED at "x.cpp":³, please report a bug',
        "RuntimeError: x\nException raised from f at x.cpp:④ (most recent call first):",
    ],
)
def test_unicode_digits_in_a_paste_are_read_as_text(client, taxonomy, paste):
    assert client.get("/go", {"q": paste}).status_code in (200, 302)
    assert client.post("/api/diagnose", {"text": paste}, "application/json").status_code == 200


def test_a_lone_surrogate_is_read_as_a_replacement_character(client, taxonomy):
    response = client.post(
        "/api/diagnose", '{"text": "\\ud800 RuntimeError: x"}', "application/json"
    )
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ('{"text": ' + "[" * 5000 + "]" * 5000 + "}", "nested too deeply"),
        ('{"text": "x", "n": ' + "7" * 5000 + "}", "cannot be read"),
    ],
)
def test_json_python_cannot_read_is_a_400_with_the_reason(client, db, body, reason):
    response = client.post("/api/diagnose", body, "application/json")
    assert response.status_code == 400
    assert reason in response.json()["error"]


def test_a_link_longer_than_8_kb_gets_the_paste_box_with_its_text(client, taxonomy):
    text = "RuntimeError: " + "x" * 9000
    response = client.get("/go", {"q": text})
    assert response.status_code == 414
    page = response.content.decode()
    assert "too long to be followed" in page and "x" * 9000 in page


def test_a_link_of_a_few_kilobytes_is_diagnosed(client, taxonomy):
    traceback = "Traceback (most recent call last):\n" + '  File "t.py", line 1, in f\n' * 150
    assert client.get("/diagnose", {"q": traceback + "RuntimeError: x"}).status_code == 200


def test_a_form_body_larger_than_the_site_reads_gets_its_413_page(taxonomy):
    # With CSRF checks on, as in production: the check used to read the body and answer 400.
    client = Client(enforce_csrf_checks=True)
    response = client.post("/diagnose", {"q": "x" * 3_200_000})
    assert response.status_code == 413
    assert "pastes hold at most 1 MB" in response.content.decode()


def test_a_1_mb_paste_fits_in_a_form_even_when_every_byte_is_encoded(client, taxonomy):
    paste = "RuntimeError: " + "é\n" * 330_000  # 990 KB of UTF-8, ~3 MB form-encoded
    assert client.post("/diagnose", {"q": paste}, follow=True).status_code == 200


@pytest.mark.parametrize(
    "url",
    ["/", "/kb/", f"/kb/{SEED}/", f"/kb/{SEED}/history/", "/wizard/", "/search/?q=ddp",
     f"/wizard/?entry={SEED}", "/api/openapi.json", f"/diagnose?q={quote('RuntimeError: x')}"],
)  # fmt: skip
def test_head_is_answered_wherever_get_is(client, taxonomy, url):
    assert client.head(url).status_code == client.get(url).status_code == 200


def test_head_of_the_diagnosis_without_a_paste_redirects_like_get(client, db):
    assert client.head("/diagnose").status_code == client.get("/diagnose").status_code == 302


QUERY_SURFACES = ["/go", "/diagnose", "/search/", "/wizard/", "/api/wizard/", f"/kb/{SEED}/"]
PARAMETERS = st.dictionaries(
    st.sampled_from(
        ["q", "entry", "accumulation_steps", "framework", "known", "static_graph", "ev.x"]
    )
    | st.text(max_size=10),
    st.text(max_size=60) | st.sampled_from([SEED, "yes", "no", "²", "\ud800", "0" * 5000]),
    max_size=5,
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=20,
)


@pytest.mark.parametrize("path", QUERY_SURFACES)
def test_a_nul_in_a_link_is_refused_with_a_400_that_says_so(client, taxonomy, path):
    response = client.get(path, {"q": "Expected to mark\x00", "entry": "\x00"})
    assert response.status_code == 400
    assert "NUL character" in response.content.decode()


@settings(
    max_examples=examples(120),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.sampled_from(QUERY_SURFACES), PARAMETERS)
def test_no_query_string_gets_a_server_error(client, taxonomy, path, parameters):
    for key in list(parameters):
        parameters[key] = (
            parameters[key].encode("utf-8", "surrogatepass").decode("utf-8", "replace")
        )
    assert client.get(path, parameters).status_code < 500


@settings(
    max_examples=examples(120),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(JSON | st.fixed_dictionaries({"text": st.text()}, optional={"extra": JSON}))
def test_no_json_body_gets_a_server_error(client, taxonomy, body):
    response = client.post("/api/diagnose", json.dumps(body), "application/json")
    assert response.status_code < 500
