"""Several app servers on one PostgreSQL and one Redis: an edit made through one is what the
other serves at once, and two authors saving the same entry never lose an edit silently.

Runs in make test's PostgreSQL pass (DATABASE_URL set by .ci/with-postgres); it starts its own
Redis and two gunicorn servers on loopback ports."""

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.conftest import form_fields

ROOT = Path(__file__).resolve().parents[2]
DATABASE_URL = os.environ.get("DATABASE_URL", "")
SEED = "/kb/ddp-expect-autograd-hooks-assert/"

pytestmark = [
    pytest.mark.servers,
    pytest.mark.skipif(
        not DATABASE_URL.startswith("postgres"), reason="needs PostgreSQL (make test's 2nd pass)"
    ),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
]


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            return requests.get(url, timeout=30)
        except requests.ConnectionError:
            time.sleep(0.2)
    raise AssertionError(f"{url} did not answer")


@pytest.fixture(scope="module")
def servers():
    redis_port = free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SECURE_COOKIES": "0",
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
    }
    manage = [sys.executable, "manage.py"]
    for command in (
        ["migrate", "-v0"],
        ["load_taxonomy", "--force"],
        ["collectstatic", "--noinput", "-v0"],
    ):
        subprocess.run(manage + command, cwd=ROOT, env=env, check=True)  # noqa: S603
    create = "from django.contrib.auth.models import User; User.objects.filter(username='a').exists() or User.objects.create_superuser('a', password='pw-a-long-enough'); User.objects.filter(username='b').exists() or User.objects.create_superuser('b', password='pw-b-long-enough')"  # noqa: E501
    subprocess.run(manage + ["shell", "-c", create], cwd=ROOT, env=env, check=True)
    ports = [free_port(), free_port()]
    gunicorns = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "2",
            ],
            cwd=ROOT,
            env=env,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        for port in ports
    ]
    try:
        for port in ports:
            wait_for(f"http://127.0.0.1:{port}/")
        yield [f"http://127.0.0.1:{port}" for port in ports]
    finally:
        for process in [*gunicorns, redis]:
            process.terminate()
            process.wait(timeout=10)


def signed_in(base, username):
    session = requests.Session()
    page = session.get(f"{base}/admin/login/").text
    data = dict(form_fields(page))
    data.update(username=username, password=f"pw-{username}-long-enough", next="/admin/")
    response = session.post(f"{base}/admin/login/", data=data, headers={"Referer": base})
    assert "Log out" in response.text or "logout" in response.text
    return session


def change_url(base, session):
    listing = session.get(f"{base}/admin/kb/entry/?q=DDP-001").text
    path = re.search(r"/admin/kb/entry/\d+/change/", listing).group(0)
    return base + path


def save(session, url, form_html, title, base):
    data = form_fields(form_html)
    data = [(k, title if k == "title" else v) for k, v in data]
    return session.post(url, data=data, headers={"Referer": base})


def test_an_edit_through_one_server_is_served_by_the_other_at_once(servers):
    one, two = servers
    assert "raises an internal reducer assertion" in requests.get(two + SEED).text  # cached
    author = signed_in(one, "a")
    url = change_url(one, author)
    response = save(author, url, author.get(url).text, "Edited through server one", one)
    assert response.status_code == 200 and "was changed successfully" in response.text
    assert "Edited through server one" in requests.get(two + SEED).text


def test_two_authors_saving_the_same_entry_lose_nothing_silently(servers):
    one, two = servers
    first, second = signed_in(one, "a"), signed_in(two, "b")
    url_one, url_two = change_url(one, first), change_url(two, second)
    form_one, form_two = first.get(url_one).text, second.get(url_two).text
    assert "was changed successfully" in save(first, url_one, form_one, "Title by a", one).text
    refused = save(second, url_two, form_two, "Title by b", two)
    assert "after you opened it" in refused.text
    assert "Title by a" in requests.get(two + SEED).text
    assert "Title by b" not in requests.get(one + SEED).text
