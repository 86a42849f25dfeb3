"""Recognising the seed failure in every form real jobs print it, and saying so plainly when
the engine does not know."""

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from kb.diagnosis import repository
from kb.models import Revision, Signature, UnmatchedPaste
from kb.taxonomy.store import record_revision
from kb.triage import draft_from_unmatched
from tests.samples import ASSERT_LINE, TRACEBACK, prefixed

FIELD = Path(__file__).parent / "field"
CORPUS = Path(__file__).parent / "corpus"

SEED = "ddp-expect-autograd-hooks-assert"
SPAWN = [
    "W1130 08:42:41.519000 5856 torch/multiprocessing/spawn.py:165] Terminating process 5858",
    "Traceback (most recent call last):",
    '  File "/v/torch/multiprocessing/spawn.py", line 211, in join',
    "    raise ProcessRaisedException(msg, error_index, failed_process.pid)",
    "torch.multiprocessing.spawn.ProcessRaisedException: ",
    "",
    "-- Process 1 terminated with the following error:",
    *TRACEBACK,
]
CHILD_FAILED = [
    "Traceback (most recent call last):",
    '  File "/v/bin/torchrun", line 8, in <module>',
    "    sys.exit(main())",
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
    "============================================================",
    "train.py FAILED",
    "------------------------------------------------------------",
    "Root Cause (first observed failure):",
    "[0]:",
    "  time      : 2026-11-30_08:42:51",
    "  host      : localhost",
    "  rank      : 0 (local_rank: 0)",
    "  exitcode  : 1 (pid: 5893)",
    "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
]
LOGGED = [
    "2026-11-30 08:42:40,001 INFO train: starting run, world size 2",
    "2026-11-30 08:42:40,120 WARNING train: gradient accumulation over 4 micro-batches",
    "2026-11-30 08:42:41,500 ERROR train: training step failed",
    *TRACEBACK,
]

FORMS = {
    "torchrun, every rank repeating": prefixed(1, TRACEBACK) + prefixed(0, TRACEBACK),
    "torchrun with the ChildFailedError summary": prefixed(0, TRACEBACK) + CHILD_FAILED,
    "interleaved ranks": [
        line
        for pair in zip(prefixed(0, TRACEBACK), prefixed(1, TRACEBACK), strict=True)
        for line in pair
    ],
    "torch.multiprocessing.spawn": SPAWN,
    "logging lines before the error": LOGGED,
    "ANSI colours and CRLF": ["\x1b[1;31m" + line + "\x1b[0m\r" for line in TRACEBACK],
    "the last line only": [ASSERT_LINE],
    "the last line without the exception type": [ASSERT_LINE.split(": ", 1)[1]],
    "an older release's path and line": [
        '[rank0]: RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "../torch/csrc/'
        'distributed/c10d/reducer.cpp":1603, please report a bug to PyTorch.'
    ],
    "a paste cut before the end of the message": [*TRACEBACK[:-1], ASSERT_LINE[:60]],
}


@pytest.mark.parametrize("form", FORMS)
def test_the_seed_failure_is_recognised_in_every_form(taxonomy, form):
    diagnosis = repository.diagnose("\n".join(FORMS[form]))
    assert diagnosis.verdict == "match", [
        (c.slug, c.score, c.reasons) for c in diagnosis.candidates
    ]
    assert diagnosis.best.slug == SEED
    assert diagnosis.best.confidence >= 0.6
    assert any(reason.kind == "signature" for reason in diagnosis.best.reasons)


def test_reasons_point_at_the_matched_lines(taxonomy):
    text = "\n".join(["some setup output", *TRACEBACK])
    diagnosis = repository.diagnose(text)
    assert diagnosis.source_lines() == {len(TRACEBACK)}  # the assert line, 0-based
    summaries = [reason.summary for reason in diagnosis.best.reasons]
    assert "text “expect_autograd_hooks_ INTERNAL ASSERT FAILED” on the root exception" in (
        summaries
    )


def test_the_first_failing_rank_comes_from_the_launcher(taxonomy):
    assert repository.diagnose("\n".join(SPAWN)).first_failing_rank == 1
    torchrun = prefixed(1, TRACEBACK) + prefixed(0, TRACEBACK) + CHILD_FAILED
    assert repository.diagnose("\n".join(torchrun)).first_failing_rank == 0


def test_the_log_fingerprint_adds_to_the_score(taxonomy):
    logged = repository.diagnose("\n".join(LOGGED)).best
    bare = repository.diagnose("\n".join(TRACEBACK)).best
    assert any(reason.kind == "fingerprint" for reason in logged.reasons)
    assert logged.score > bare.score


@pytest.mark.parametrize(
    "text",
    [
        "\n".join(CHILD_FAILED),
        "Traceback (most recent call last):",
        "Process exited with exit code 1",
        "torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with exit code 1",
    ],
)
def test_generic_lines_alone_never_match(taxonomy, text):
    assert repository.diagnose(text).verdict != "match"


def test_a_generic_signature_cannot_make_a_match(taxonomy, seed):
    Signature.objects.filter(entry=seed).delete()
    Signature.objects.create(entry=seed, kind="literal", pattern="ChildFailedError", weight=5)
    Revision.objects.create(entry=seed, number=99, source="test", document="")
    diagnosis = repository.diagnose("\n".join(CHILD_FAILED))
    assert diagnosis.best.slug == SEED
    assert diagnosis.best.reasons[0].generic
    assert diagnosis.verdict == "possible"


@pytest.mark.parametrize(
    "text",
    [
        "ValueError: too many values to unpack (expected 2)",
        "ModuleNotFoundError: No module named 'my_project'",
        "KeyError: 'label'",
    ],
)
def test_failures_outside_the_knowledge_base_get_no_match(taxonomy, text):
    assert repository.diagnose(text).verdict == "no_match"


def test_drafts_are_not_matched(taxonomy, seed):
    seed.status = "draft"
    seed.save()
    Revision.objects.create(entry=seed, number=99, source="test", document="")
    diagnosis = repository.diagnose(ASSERT_LINE)
    assert diagnosis.verdict != "match"
    assert SEED not in [candidate.slug for candidate in diagnosis.candidates]


def test_full_text_search_finds_entries_by_their_words_on_either_database(taxonomy):
    from kb import fulltext

    found = fulltext.search("expect_autograd_hooks_ assertion: the reducer was not armed")
    assert max(found, key=found.get) == SEED and found[SEED] == 1.0
    assert fulltext.search("zyxwvut quabblesnort") == {}


def test_the_engine_is_rebuilt_when_content_changes(
    taxonomy, seed, django_capture_on_commit_callbacks
):
    first = repository.current_engine()
    assert repository.current_engine() is first
    seed.title = "Edited"
    seed.save()
    with django_capture_on_commit_callbacks(execute=True):
        record_revision(seed, "admin")
    assert repository.current_engine() is not first


# The results page, /diagnose, /go and the queue of unmatched pastes.


def test_the_paste_box_shows_the_match_with_highlighted_lines(client, taxonomy):
    text = "\n".join(prefixed(1, TRACEBACK) + prefixed(0, TRACEBACK))
    response = client.post("/diagnose", {"q": text}, follow=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert response.redirect_chain[0][0].startswith("/d/")
    assert "Recognised" in html and "DDP-001" in html
    assert f'<span id="L{len(TRACEBACK)}" class="hit">' in html
    assert "Confirm it in the checklist" in html and "cand=ddp-expect-autograd-hooks-assert" in html
    assert "rank 1 failed first" not in html or "Ranks" in html


def test_diagnose_by_get_for_links_next_to_errors(client, taxonomy):
    response = client.get("/diagnose", {"q": ASSERT_LINE})
    assert response.status_code == 200
    assert "DDP-001" in response.content.decode()


def test_go_shows_the_entry_on_a_match_and_says_what_recognised_it(client, taxonomy):
    response = client.get("/go", {"q": ASSERT_LINE})
    html = response.content.decode()
    assert response.status_code == 200
    assert f'href="/kb/{SEED}/history/"' in html  # the entry's own page, at the link
    assert "Recognised from the error line your job printed" in html


def test_go_shows_the_results_when_unsure(client, taxonomy):
    response = client.get("/go", {"q": "KeyError: 'label'"})
    assert response.status_code == 200
    assert "does not know this failure yet" in response.content.decode()


def test_an_unknown_failure_is_queued_once_with_a_count(client, taxonomy):
    for run in (1, 2):
        client.post("/diagnose", {"q": f"KeyError: 'label' at /home/user{run}/data.py:{run}"})
    paste = UnmatchedPaste.objects.get()
    assert paste.count == 2
    assert "user1" not in paste.masked_text
    assert paste.masked_text.startswith("KeyError: 'label' at <path>/data.py:<n>")


def test_staff_turn_an_unmatched_paste_into_a_draft_entry(client, taxonomy, staff):
    client.post("/diagnose", {"q": "KeyError: 'label'"})
    paste = UnmatchedPaste.objects.get()
    entry = draft_from_unmatched(paste, author=staff)
    assert entry.status == "draft" and entry.code == "NEW-001"
    assert entry.revisions.get().author == staff
    assert draft_from_unmatched(paste) == entry
    client.force_login(staff)
    response = client.post(
        "/admin/kb/unmatchedpaste/",
        {"action": "make_drafts", "_selected_action": [paste.pk]},
    )
    assert response.status_code == 302


def test_the_unmatched_queue_is_for_staff_only(client, taxonomy):
    response = client.get("/admin/kb/unmatchedpaste/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"q": "   "}, 400, "The paste is empty"),
        ({"q": "\x01\x02\x03\x04" * 100}, 400, "does not look like text"),
        ({"q": "x" * 1_000_001}, 413, "larger than 1 MB"),
    ],
)
def test_unusable_pastes_get_a_clear_4xx(client, taxonomy, data, status, message):
    response = client.post("/diagnose", data)
    assert response.status_code == status
    assert message in response.content.decode()


def test_a_very_large_request_is_a_413_not_a_500(client, taxonomy, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = client.post("/diagnose", {"q": "x" * 5000})
    assert response.status_code == 413


def test_diagnose_without_a_query_goes_to_the_paste_box(client, db):
    assert client.get("/diagnose")["Location"] == "/"


def test_pasted_html_is_shown_escaped(client, taxonomy):
    html = client.post("/diagnose", {"q": "<script>alert(1)</script>\n" + ASSERT_LINE})
    assert "<script>alert(1)</script>" not in html.content.decode()


# The JSON API and its OpenAPI description.


def post_json(client, body, **extra):
    return client.post("/api/diagnose", body, content_type="application/json", **extra)


def test_api_returns_verdict_matches_and_facts(client, taxonomy):
    text = "\n".join(["    model = DDP(model, static_graph=True)", *TRACEBACK])
    response = post_json(client, {"text": text})
    body = response.json()
    assert response.status_code == 200
    assert body["verdict"] == "match"
    best = body["matches"][0]
    assert (best["slug"], best["code"]) == (SEED, "DDP-001")
    assert best["url"] == f"http://testserver/kb/{SEED}/"
    assert best["confidence"] > 0.6
    assert best["reasons"][0]["lines"] == [len(TRACEBACK) + 1]
    assert body["facts"]["static_graph"] == "yes"


@pytest.mark.parametrize(
    ("body", "content_type", "status"),
    [
        (b"not json", "application/json", 400),
        (b"\xff\xfe\x00", "application/json", 400),
        (b'{"text": 3}', "application/json", 400),
        (b'["text"]', "application/json", 400),
        (b'{"text": ""}', "application/json", 400),
        (b"text=hello", "application/x-www-form-urlencoded", 415),
        (json.dumps({"text": "y" * 1_000_001}).encode(), "application/json", 413),
    ],
)
def test_api_answers_bad_requests_with_a_json_error(client, db, body, content_type, status):
    response = client.post("/api/diagnose", body, content_type=content_type)
    assert response.status_code == status
    assert "error" in response.json()


def test_api_needs_no_csrf_token(taxonomy):
    from django.test import Client

    response = post_json(Client(enforce_csrf_checks=True), {"text": ASSERT_LINE})
    assert response.status_code == 200


def test_openapi_document_describes_the_api(client, db):
    document = client.get("/api/openapi.json").json()
    assert document["openapi"].startswith("3.")
    operation = document["paths"]["/api/diagnose"]["post"]
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["properties"]["verdict"]["enum"] == ["match", "possible", "no_match"]


# The command line.


def test_cli_prints_one_json_object_per_file(taxonomy, tmp_path, capsys):
    match = tmp_path / "match.log"
    match.write_text("\n".join(TRACEBACK))
    unknown = tmp_path / "unknown.log"
    unknown.write_text("KeyError: 'label'")
    call_command("diagnose", "--json", str(match), str(unknown))
    lines = capsys.readouterr().out.splitlines()
    answers = [json.loads(line) for line in lines]
    assert [(a["input"], a["verdict"]) for a in answers] == [
        (str(match), "match"),
        (str(unknown), "no_match"),
    ]
    assert answers[0]["matches"][0]["url"].endswith(f"/kb/{SEED}/")


def test_cli_reads_standard_input(taxonomy, monkeypatch, capsys):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ASSERT_LINE.encode())))
    call_command("diagnose", "-")
    assert capsys.readouterr().out.startswith("-: match DDP-001")


# --- What the field prints (tests/field) ---------------------------------------------------------


def test_a_failure_printed_only_as_log_lines_is_the_root(taxonomy):
    # Eight ranks' `[E ProcessGroupNCCL.cpp:737]` lines, no traceback (OFA-Sys/OFA#271).
    paste = (FIELD / "nccl-watchdog-timeout" / "ofa-sys-ofa-271.txt").read_text()
    diagnosis = repository.diagnose(paste)
    assert (diagnosis.verdict, diagnosis.best.slug) == ("match", "nccl-watchdog-timeout")


def test_a_warning_is_the_failure_only_in_a_paste_of_nothing_worse(taxonomy):
    """DDP's find_unused_parameters warning alone is its entry's paste; printed before another
    failure (the Hugging Face Trainer passes find_unused_parameters=True by default), it is
    context, and the failure's own entry comes first."""
    warning = (FIELD / "ddp-find-unused-parameters-perf-warning" / "cszn-kair-103.txt").read_text()
    alone = repository.diagnose(warning)
    assert (alone.verdict, alone.best.slug) == ("match", "ddp-find-unused-parameters-perf-warning")
    [reason] = [r for r in alone.best.reasons if r.kind == "signature"]
    assert reason.feature == "text_root"

    trainer = (
        CORPUS / "gloo-collective-timeout" / "hf-trainer-accumulation-differs-per-rank-torchrun.txt"
    )
    paste = trainer.read_text()
    assert "find_unused_parameters=True was specified in DDP constructor" in paste
    beside = repository.diagnose(paste)
    assert beside.best.slug == "gloo-collective-timeout"


def test_a_worker_killed_by_sigkill_matches_the_host_out_of_memory_entry(taxonomy):
    paste = (FIELD / "host-out-of-memory-killed" / "lzhxmu-cppo-6.txt").read_text()
    diagnosis = repository.diagnose(paste)
    assert (diagnosis.verdict, diagnosis.best.slug) == ("match", "host-out-of-memory-killed")
    assert diagnosis.facts["killed_by_signal"].value == "yes"


def test_a_summary_cut_before_its_root_cause_is_read_from_the_launchers_error_line(taxonomy):
    """Only torchrun's box and its `failed (exitcode: -9)` log line: no worker printed an
    exception, so the launcher's error line is the failure as much as the box is."""
    paste = (FIELD / "host-out-of-memory-killed" / "lmzpai-robomamba-10.txt").read_text()
    assert "Root Cause" not in paste
    diagnosis = repository.diagnose(paste)
    assert diagnosis.root.type.endswith("ChildFailedError")
    assert diagnosis.best.slug == "host-out-of-memory-killed"
    [reason] = [r for r in diagnosis.best.reasons if r.kind == "signature"]
    assert reason.feature == "text_root"


def test_the_system_error_alone_points_at_the_reducer_but_never_proves_it(taxonomy):
    paste = (FIELD / "ddp-expect-autograd-hooks-assert" / "pytorch-pytorch-80832.txt").read_text()
    diagnosis = repository.diagnose(paste)
    assert diagnosis.best.slug == "ddp-expect-autograd-hooks-assert"
    assert diagnosis.verdict != "match"  # a SystemError may wrap any error the engine lost


def test_a_message_wrapped_over_lines_is_read_with_its_lines_joined(taxonomy):
    wrapped = (
        "RuntimeError: Your training graph has changed in this iteration, e.g., one parameter "
        "is unused in \nfirst iteration, but then got used in the second iteration. this is "
        "not compatible with static_graph \nset to True."
    )
    diagnosis = repository.diagnose(wrapped)
    assert diagnosis.best.slug == "ddp-static-graph-graph-changed"
    assert diagnosis.best.has_specific_evidence
    joined = [r for r in diagnosis.best.reasons if r.feature == "text_root"]
    assert joined and joined[0].lines == (0, 1, 2)


def test_a_message_wrapped_in_the_middle_of_a_word_is_read_joined_too(taxonomy):
    wrapped = (
        "RuntimeError: Expected to have finished reduction in the prior iteration before "
        "starting a new one. This error indicates that your module has parameters that were "
        "not used i\nn producing loss."
    )
    diagnosis = repository.diagnose(wrapped)
    assert diagnosis.best.slug == "ddp-unused-params-prior-reduction"
    assert "producing (?:a )?loss" in " ".join(r.summary for r in diagnosis.best.reasons)
