"""Headers and refusals that keep pasted text and the admin safe."""

import os
import subprocess
import sys

import pytest

PAGES = ["/", "/kb/", "/wizard/", "/kb/ddp-expect-autograd-hooks-assert/", "/nowhere"]


@pytest.mark.parametrize("url", PAGES)
def test_every_page_sends_a_strict_content_security_policy(client, taxonomy, url):
    policy = client.get(url)["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "'unsafe-inline'" not in policy
    assert "'unsafe-eval'" not in policy and "frame-ancestors 'none'" in policy


def test_no_page_has_inline_script_or_style(client, taxonomy):
    for url in PAGES:
        html = client.get(url).content.decode()
        assert "<script>" not in html and "<style" not in html and " style=" not in html
        assert " on" + "click=" not in html and "hx-on" not in html


def test_htmx_is_told_not_to_inject_styles_or_eval(client, db):
    html = client.get("/").content.decode()
    assert '"includeIndicatorStyles": false, "allowEval": false' in html


def test_nosniff_referrer_policy_and_frame_denial(client, db):
    response = client.get("/")
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize(
    ("environment", "secure"),
    [
        ({"DEBUG": "0"}, True),
        ({"DEBUG": "1"}, False),
        ({"DEBUG": "0", "SECURE_COOKIES": "0"}, False),
    ],
)
def test_cookies_are_secure_unless_debug_or_plain_http_is_asked_for(environment, secure):
    script = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings';"
        "from django.conf import settings;"
        "print(settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE)"
    )
    inherited = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECURE_COOKIES")}
    env = {**inherited, "SECRET_KEY": "k" * 50, **environment}
    output = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert output == [str(secure), str(secure)]


def test_posts_need_a_csrf_token(taxonomy):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    assert client.post("/diagnose", {"q": "RuntimeError: x"}).status_code == 403
    assert client.post("/wizard/feedback", {"entry": "x", "fixed": "yes"}).status_code == 403


def test_htmx_requests_carry_the_csrf_token_from_its_cookie(client, db):
    script = client.get("/static/js/faultline.js").getvalue().decode()
    assert 'headers["X-CSRFToken"]' in script and "csrftoken=" in script
    assert "csrfmiddlewaretoken" not in client.get("/kb/").content.decode()
