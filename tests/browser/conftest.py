"""A real server and a real browser for the browser tests.

The server is the production stack (gunicorn, whitenoise, DEBUG off) on a throw-away database
(a SQLite file, or a database of its own on the PostgreSQL pass's server), started once per
session; the tests talk to it over HTTP only, so none of them uses
pytest-django's database. The browser is Debian's Chromium, driven by Playwright.
"""

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright

from tests.conftest import fresh_postgres_database

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
# A name for the site that browsers do not count as a secure context, unlike localhost and all of
# 127.0.0.0/8: the plain-HTTP address of README's closed-network example. Chromium resolves it
# to the loopback server (--host-resolver-rules below), so nothing else needs to know it.
PLAIN_HTTP_HOST = "faultline.internal"
# The closed network refuses every connection but loopback: keep Chromium from trying.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    f"--host-resolver-rules=MAP {PLAIN_HTTP_HOST} 127.0.0.1",
]
VNU_JAR = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
ARTIFACTS = ROOT / "artifacts" / "browser"
STAFF = {"username": "ada", "password": secrets.token_urlsafe(16)}
SEED = "ddp-expect-autograd-hooks-assert"
WIZARD_START = f"/wizard/?entry={SEED}"
# The answers of a person whose failure is the seed's: static_graph=True together with no_sync.
YES_KEYS = {"static_graph", "no_sync_mismatch"}
TAILORING = {"accumulation_steps": "4", "scheduler": "yes"}
SETUP = f"""
from django.core.management import call_command
from django.contrib.auth import get_user_model
call_command("migrate", verbosity=0)
call_command("load_taxonomy", verbosity=0)
call_command("collectstatic", interactive=False, verbosity=0)
get_user_model().objects.create_superuser({STAFF["username"]!r}, "ada@example.com",
                                          {STAFF["password"]!r})
"""


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_up(url, server, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:  # refused, reset or timed out while gunicorn starts
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer in {timeout} s")


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The base URL of the site, served by gunicorn the way `make run` serves it."""
    tmp = tmp_path_factory.mktemp("site")
    database = os.environ.get("DATABASE_URL", "")
    if database.startswith("postgres"):  # make test's PostgreSQL pass
        database = fresh_postgres_database(database)
    else:
        database = f"sqlite:///{tmp / 'db.sqlite3'}"
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SECURE_COOKIES": "0",
        "DATABASE_URL": database,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "WARNING",
        "ALLOWED_HOSTS": f"127.0.0.1,{PLAIN_HTTP_HOST}",
    }
    # One interpreter for migrate, load_taxonomy, collectstatic (into the git-ignored
    # STATIC_ROOT, fixed in settings) and the staff account: each start of Django costs.
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SETUP], cwd=ROOT, env=env, check=True
    )
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi"]
        + ["--bind", f"127.0.0.1:{port}", "--workers", "2", "--log-level", "warning"],
        cwd=ROOT,
        env=env,
    )
    try:
        _wait_until_up(url + "/", server)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(scope="session")
def plain_http_server(server):
    """The same site at an address that is neither HTTPS nor localhost, as browsers judge it."""
    return server.replace("127.0.0.1", PLAIN_HTTP_HOST)


@pytest.fixture(scope="session")
def staff_account():
    return STAFF


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def context(browser, server):
    context = browser.new_context(base_url=server)
    yield context
    context.close()


@pytest.fixture
def page(context):
    return context.new_page()


@pytest.fixture(scope="session")
def wizard_result_path(browser, server):
    """Where the journeys' answers lead, reached with plain forms (the state is the address)."""
    context = browser.new_context(base_url=server, java_script_enabled=False)
    page = context.new_page()
    page.goto(WIZARD_START)
    while page.locator("form.answer").count():
        with page.expect_navigation():
            answer_button(page).click()
    path = page.url.removeprefix(server)
    context.close()
    return path


@pytest.fixture(scope="session")
def axe():
    return Axe()


def answer_button(page):
    """The button that gives the journeys' answer to the question on the page."""
    name = page.locator("form.answer button[name]").first.get_attribute("name")
    value = TAILORING.get(name, "yes" if name in YES_KEYS else "no")
    return page.locator(f'form.answer button[name="{name}"][value="{value}"]')


def serious_violations(axe, page):
    """axe-core's violations of impact serious or critical, as readable lines."""
    violations = axe.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(" ".join(node["target"]) for node in v["nodes"])
        for v in violations
        if v["impact"] in {"serious", "critical"}
    ]


def nu_errors(documents):
    """Run the Nu HTML Checker once over several documents: {name: [error, ...]}.

    One run for all of them, since each start of the JVM costs seconds.
    """
    folder = ARTIFACTS / "html"
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, html in documents.items():
        paths[name] = folder / f"{name}.html"
        paths[name].write_text(html, encoding="utf-8")
    checked = subprocess.run(
        ["java", "-jar", str(VNU_JAR), "--errors-only", "--format", "json"]
        + [str(path) for path in paths.values()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    messages = json.loads(checked.stderr)["messages"]
    errors = {name: [] for name in documents}
    for name, path in paths.items():
        for message in messages:
            if message.get("url", "").endswith("/" + path.name):
                errors[name].append(
                    f"line {message.get('lastLine')}: {message['message']}"
                    f" [{message.get('extract', '').strip()}]"
                )
    unattributed = [m for m in messages if not m.get("url")]
    assert not unattributed, unattributed
    return errors


def screenshot(page, journey):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"{journey}.png", full_page=True)
