import fcntl
import hashlib
import pickle
import secrets
import shutil
import sqlite3
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings

from kb.models import Category, Entry, Family, Framework, Signature, Symptom
from kb.snippets import variables_from
from kb.taxonomy.reading import read_family_parts
from kb.taxonomy.store import load_taxonomy

SUMMARY = "summary: "
# A made-up family of two entries with a framework and tailoring variables of its own: what
# the tests of logic (loading, linting, the wizard's tailoring) read, so that they neither
# grow nor break with the shipped content.
TOY_TAXONOMY = Path(__file__).parent / "fixtures" / "toy"

# Bytecode is cached even where the environment asks not to (PYTHONDONTWRITEBYTECODE): without
# it every worker rewrites the test modules for assertions and compiles the site again, three
# seconds a process. The caches are ignored by git.
sys.dont_write_bytecode = False


def variables_of(root):
    """{key: Variable} the families under `root` declare, read from their files."""
    return variables_from(v for parts in read_family_parts(root) for v in parts["variables"])


def shipped_entry_path(slug):
    [path] = django_settings.TAXONOMY_DIR.glob(f"families/*/entries/{slug}.md")
    return path


@pytest.fixture
def summary(record_property):
    """summary(title, text) shows a table or a figure at the end of the run, also when
    pytest-xdist runs the test in a worker whose own output nobody sees."""

    def add(title, text):
        record_property(SUMMARY + title, text)

    return add


def pytest_terminal_summary(terminalreporter):
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            for name, text in getattr(report, "user_properties", ()):
                if name.startswith(SUMMARY):
                    terminalreporter.write_sep("-", name.removeprefix(SUMMARY))
                    terminalreporter.write_line(text)


def once_per_run(tmp_path_factory, worker_id, name, compute):
    """compute() in the first pytest-xdist worker that asks; the others read its result. Every
    worker's database holds the same taxonomy, so the result is the same wherever it is made."""
    if worker_id == "master":
        return compute()
    shared = tmp_path_factory.getbasetemp().parent / f"{name}.pickle"
    with open(shared.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if shared.exists():
            return pickle.loads(shared.read_bytes())
        value = compute()
        shared.write_bytes(pickle.dumps(value))
        return value


def fresh_postgres_database(url):
    """A database of its own on the pass's PostgreSQL server, for a served site whose edits
    must not meet the tests' (the URL of the new database)."""
    import psycopg

    name = f"faultline_served_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


PLAIN_STATIC = {
    "WHITENOISE_AUTOREFRESH": True,
    "WHITENOISE_USE_FINDERS": True,
    "STORAGES": {
        **django_settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    },
}


@pytest.fixture(autouse=True)
def _plain_static_files(settings):
    # The manifest storage needs collectstatic; tests serve static files the way DEBUG does.
    for name, value in PLAIN_STATIC.items():
        setattr(settings, name, value)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # Hashing a password as production does takes a third of a second, once per test that
    # signs someone in; what is tested is who may do what, not the hash.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _empty_cache():
    # Rendered pages are cached per content version; tests reuse database ids, so versions
    # would repeat from one test to the next.
    cache.clear()


ROOT = Path(__file__).resolve().parents[1]
# What the loaded test database is made from: the content (TAXONOMY_DIR, wherever it points), the
# code that migrates and loads it and the pinned packages. A change to any of them builds it again.
DATABASE_INPUTS = ["kb", "wizard", "config", "requirements.txt", "requirements-dev.txt"]


def _inputs_key():
    digest = hashlib.sha256()
    for top in [Path(django_settings.TAXONOMY_DIR).resolve()] + [ROOT / n for n in DATABASE_INPUTS]:
        for path in sorted([top] if top.is_file() else top.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The shipped taxonomy is loaded once into the test database; each test's changes are
    rolled back, so every test starts from it. On SQLite the loaded database is kept in
    .pytest_cache/ under a key of what it is made from, and copied (SQLite's backup API) into
    each pytest-xdist worker's, and into the next run's, instead of loading the files again:
    loading them takes five seconds, copying a few milliseconds."""
    with django_db_blocker.unblock():
        if connection.vendor != "sqlite":
            load_taxonomy(django_settings.TAXONOMY_DIR)
            return
        cache_dir = ROOT / ".pytest_cache" / "faultline"
        cache_dir.mkdir(parents=True, exist_ok=True)
        kept = cache_dir / f"taxonomy-{_inputs_key()}.sqlite3"
        with open(cache_dir / "taxonomy.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            connection.ensure_connection()
            if kept.exists():
                with sqlite3.connect(kept) as source:
                    source.backup(connection.connection)
                return
            load_taxonomy(django_settings.TAXONOMY_DIR)
            building = kept.with_suffix(".building")
            building.unlink(missing_ok=True)
            with sqlite3.connect(building) as target:
                connection.connection.backup(target)
            for stale in cache_dir.glob("taxonomy-*.sqlite3"):
                stale.unlink()
            building.rename(kept)


@pytest.fixture(scope="session")
def published_entry_pages(django_db_setup, django_db_blocker, tmp_path_factory, worker_id):
    """{slug: HTML} of every published entry page of the shipped taxonomy as a visitor gets
    it: rendered once per run (a hundred pages), for the tests that read them all."""

    def render():
        with django_db_blocker.unblock(), override_settings(**PLAIN_STATIC):
            client = Client()
            slugs = Entry.objects.published().values_list("slug", flat=True)
            pages = {slug: client.get(f"/kb/{slug}/") for slug in slugs}
            cache.clear()
        assert all(page.status_code == 200 for page in pages.values())
        return {slug: page.content.decode() for slug, page in pages.items()}

    return once_per_run(tmp_path_factory, worker_id, "entry-pages", render)


@pytest.fixture
def taxonomy(db):
    """The shipped taxonomy, loaded from fixtures/ (once, by django_db_setup)."""


@pytest.fixture
def toy_copy(tmp_path):
    """A writable copy of the toy taxonomy, at <tmp>/toy."""
    root = tmp_path / "toy"
    shutil.copytree(TOY_TAXONOMY, root)
    return root


@pytest.fixture
def toy_kb(taxonomy):
    """The toy family loaded beside the shipped ones."""
    load_taxonomy(TOY_TAXONOMY)


@pytest.fixture
def empty_kb(db):
    """A knowledge base with nothing in it, for tests of loading."""
    Entry.objects.all().delete()
    Category.objects.exclude(parent=None).delete()  # parents are protected while they have any
    Category.objects.all().delete()
    Framework.objects.all().delete()
    Family.objects.all().delete()


@pytest.fixture
def seed(taxonomy):
    return Entry.objects.get(slug="ddp-expect-autograd-hooks-assert")


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(
        "author", password="correct horse battery staple", is_staff=True, is_superuser=True
    )


def make_category(slug="testing", name="Testing", parent=None):
    category, _ = Category.objects.get_or_create(
        slug=slug, defaults={"name": name, "parent": parent}
    )
    return category


def make_entry(slug="test-failure", code="TST-001", status="published", **fields):
    fields.setdefault("title", f"Test failure {code}")
    fields.setdefault("summary", "A failure made for tests.")
    fields.setdefault("explanation", "Made for tests.")
    fields.setdefault("category", make_category())
    entry = Entry.objects.create(slug=slug, code=code, status=status, **fields)
    Symptom.objects.create(entry=entry, text=f"Symptom of {code}")
    Signature.objects.create(entry=entry, kind="literal", pattern=f"{code} went wrong")
    return entry


class FormFields(HTMLParser):
    """The values a browser would submit for the first form with method=post on a page."""

    def __init__(self):
        super().__init__()
        self.data, self._in_form, self._textarea, self._select = [], False, None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and attrs.get("method", "").lower() == "post":
            self._in_form = True
        if not self._in_form:
            return
        name = attrs.get("name")
        if tag == "input" and name and attrs.get("type") not in ("submit", "button", "file"):
            if attrs.get("type") in ("checkbox", "radio") and "checked" not in attrs:
                return
            checkable = attrs.get("type") in ("checkbox", "radio")
            self.data.append([name, attrs.get("value", "on" if checkable else "")])
        elif tag == "textarea" and name:
            self._textarea = [name, ""]
            self.data.append(self._textarea)
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in attrs:
            self.data.append([self._select, attrs.get("value", "")])

    def handle_endtag(self, tag):
        if tag == "form":
            self._in_form = False
        elif tag == "textarea":
            self._textarea = None
        elif tag == "select":
            self._select = None

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea[1] += data


def form_fields(html):
    parser = FormFields()
    parser.feed(html)
    # Browsers drop the single newline that follows <textarea>.
    return [(name, value.removeprefix("\n")) for name, value in parser.data]


def submit_admin_form(client, url, changes):
    """GET the admin form at `url`, change some fields as a person would, POST it back."""
    fields = form_fields(client.get(url).content.decode())
    missing = set(changes) - {name for name, _ in fields}
    assert not missing, f"no such fields: {missing}"
    data = [(name, changes.get(name, value)) for name, value in fields]
    return client.post(url, urlencode(data), content_type="application/x-www-form-urlencoded")
