"""How much a wizard step costs, against a cached entry page, in-process.

Run by hand, not by the test suite: `.venv/bin/python benchmarks/wizard.py`. It migrates and
loads a SQLite database of its own, then measures CPU time per request through Django's test
client: an entry page served from the cache, wizard steps with distinct query strings, each
asked once (what no visitor has asked before: the page cache misses, the content version is
read from the cache as in production), the first step from a paste
(POST /api/wizard/: the diagnosis and the wizard's start), and the simulated journeys' steps in
the JSON mirror. The issue's target: a wizard step within 5x a cached entry page.
"""

import os
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
WORK = tempfile.mkdtemp()
os.environ["DATABASE_URL"] = f"sqlite:///{WORK}/db.sqlite3"
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.pop("REDIS_URL", None)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from tests.simulated import answers_of, wizard_of  # noqa: E402

SEED = "ddp-expect-autograd-hooks-assert"
REPEATS = 300


def cpu_ms(function, repeats):
    function()  # warm: content read once per content version
    start = time.process_time()
    for _ in range(repeats):
        function()
    return (time.process_time() - start) / repeats * 1000


def main():
    call_command("migrate", verbosity=0)
    call_command("load_taxonomy", verbosity=0)
    client = Client(HTTP_HOST="127.0.0.1")
    wizard = wizard_of(settings.TAXONOMY_DIR)

    # Distinct wizard steps: every step of a simulated user's walk from each entry's page.
    queries = []
    for slug in wizard.entries:
        scope = wizard.scope(slug)
        hypothesis = next(iter(h for h in scope.prior if h.entry == slug))
        _, _, pairs = wizard.walk(answers_of(scope, hypothesis), slug)
        queries += [urlencode(pairs[:n]) for n in range(1, len(pairs) + 1)]
    steps, json_steps = iter(queries), iter(queries * (REPEATS // len(queries) + 2))

    def wizard_step():
        assert client.get("/wizard/?" + next(steps)).status_code == 200

    def entry_page():
        assert client.get(f"/kb/{SEED}/").status_code == 200

    def json_step():
        assert client.get("/api/wizard/?" + next(json_steps)).status_code == 200

    paste = (ROOT / "tests" / "corpus" / SEED).glob("*.txt")
    text = next(iter(sorted(paste))).read_text()

    def paste_start():
        response = client.post("/api/wizard/", {"text": text}, content_type="application/json")
        assert response.status_code == 200

    figures = {
        "entry page, cached": cpu_ms(entry_page, REPEATS),
        "wizard step, page, uncached": cpu_ms(wizard_step, min(REPEATS, len(queries) - 1)),
        "wizard step, JSON": cpu_ms(json_step, REPEATS),
        "first step from a paste (API)": cpu_ms(paste_start, REPEATS // 3),
    }
    base = figures["entry page, cached"]
    print(f"{len(queries)} distinct wizard queries from {len(wizard.entries)} entries' walks")
    for name, ms in figures.items():
        print(f"{name:32} {ms:7.2f} ms CPU per request  {ms / base:6.1f}x the cached entry page")
    ratio = figures["wizard step, page, uncached"] / base
    print(f"target: a wizard step within 5x a cached entry page: {ratio:.1f}x")


if __name__ == "__main__":
    main()
