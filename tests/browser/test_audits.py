"""Every page type the journeys visit passes axe-core and the Nu HTML Checker."""

import urllib.error
import urllib.request
from urllib.parse import quote

import pytest

from .conftest import SEED, WIZARD_START, nu_errors, serious_violations

pytestmark = pytest.mark.slow

PAGES = {
    "home": "/",
    "results": "/diagnose?q="
    + quote('RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "reducer.cpp":1'),
    "no-match": "/diagnose?q=" + quote("KeyError: 'label'"),
    "entry": f"/kb/{SEED}/",
    "go": "/go?q="
    + quote('RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "reducer.cpp":1'),
    "search": "/search/?q=out+of+memory",
    "search-none": "/search/?q=zorblax",
    "browse": "/kb/",
    "category": "/kb/c/distributed-training/",
    "wizard-blank": "/wizard/",
    "wizard-blank-question": "/wizard/?happened=hung",
    "history": f"/kb/{SEED}/history/",
    "revision": f"/kb/{SEED}/history/1/",
    "wizard-step": WIZARD_START,
    "wizard-result": None,  # where the journeys' answers lead: see page_path
    "not-found": "/kb/no-such-entry/",
}


def _fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.read().decode()
    except urllib.error.HTTPError as error:
        return error.read().decode()


@pytest.fixture(scope="session")
def paths(wizard_result_path):
    return {**PAGES, "wizard-result": wizard_result_path}


@pytest.fixture(scope="session")
def nu_report(server, paths):
    """The checker's errors for every page type, from one run over the HTML the server sends."""
    return nu_errors({name: _fetch(server + path) for name, path in paths.items()})


@pytest.mark.parametrize("name", PAGES)
def test_page_has_no_serious_accessibility_violations_and_valid_html(
    name, paths, page, axe, nu_report
):
    response = page.goto(paths[name])
    assert response.status == (404 if name == "not-found" else 200)
    assert serious_violations(axe, page) == []
    assert nu_report[name] == []
