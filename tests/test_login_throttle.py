"""The admin login refuses an address that keeps failing, for the rest of the minute."""

from types import SimpleNamespace

import pytest

from kb import ratelimit

LOGIN = "/admin/login/"
PASSWORD = "correct horse battery staple"


def log_in(client, password, **extra):
    data = {"username": "author", "password": password, "next": "/admin/"}
    return client.post(LOGIN, data, **extra)


def fail(client, times, **extra):
    for _ in range(times):
        assert log_in(client, "wrong", **extra).status_code == 200  # the form, with its error


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    """The rate limiter's clock, fixed at the start of a window until a test moves it: a test
    that counts failures on the real clock fails when a minute ends in the middle of it."""
    now = [1_000_020.0]  # a minute's window starts at 1_000_020
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: now[0]))
    return now


def test_a_good_login_works(client, staff):
    assert log_in(client, PASSWORD)["Location"] == "/admin/"


def test_after_five_failures_a_login_is_refused_even_with_the_right_password(
    client, staff, settings
):
    fail(client, settings.LOGIN_FAILURES_PER_MINUTE)
    refused = log_in(client, PASSWORD)
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert client.get("/admin/").status_code == 302  # not logged in


def test_a_good_login_before_the_limit_works_and_is_not_counted(client, staff, settings):
    fail(client, settings.LOGIN_FAILURES_PER_MINUTE - 1)
    assert log_in(client, PASSWORD).status_code == 302
    client.logout()
    fail(client, 1)  # the last failure allowed: the good login did not use one up
    assert log_in(client, PASSWORD).status_code == 429


def test_the_refusal_lifts_when_the_minute_passes(client, staff, settings, clock):
    fail(client, settings.LOGIN_FAILURES_PER_MINUTE)
    assert log_in(client, PASSWORD)["Retry-After"] == "60"
    clock[0] += 59
    assert log_in(client, PASSWORD).status_code == 429
    clock[0] += 1
    assert log_in(client, PASSWORD).status_code == 302


def test_other_addresses_are_not_refused(client, staff, settings):
    fail(client, settings.LOGIN_FAILURES_PER_MINUTE, REMOTE_ADDR="10.0.0.2")
    assert log_in(client, PASSWORD, REMOTE_ADDR="10.0.0.2").status_code == 429
    assert log_in(client, PASSWORD, REMOTE_ADDR="10.0.0.3").status_code == 302


def test_the_login_page_still_shows_while_refused_and_says_why(client, staff, settings):
    fail(client, settings.LOGIN_FAILURES_PER_MINUTE)
    page = client.get(LOGIN)
    assert page.status_code == 200
    assert "Too many failed logins" in page.content.decode()
    assert 'name="password"' in page.content.decode()


def test_the_login_page_has_no_such_warning_before_the_limit(client, staff, settings):
    fail(client, settings.LOGIN_FAILURES_PER_MINUTE - 1)
    assert "Too many failed logins" not in client.get(LOGIN).content.decode()
