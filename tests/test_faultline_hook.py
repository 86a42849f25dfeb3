import getpass
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

import faultline_hook
from kb.diagnosis.config import DiagnosisConfig
from kb.taxonomy.reading import read_family_parts

ROOT = Path(__file__).resolve().parent.parent
URL = "http://faultline.internal"
ASSERT_LINE = (
    'RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/torch/'
    'csrc/distributed/c10d/reducer.cpp":1732, please report a bug to PyTorch.'
)
MASKED_ASSERT = (
    'RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "<path>/reducer.cpp":<n>, '
    "please report a bug to PyTorch."
)
SPAWN_MESSAGE = """

-- Process 1 terminated with the following error:
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 87, in _wrap
    fn(i, *args)
  File "/home/alice/train.py", line 43, in main
    loss.backward()
    ^^^^^^^^^^^^^^^
  File "/opt/venv/lib/python3.11/site-packages/torch/_tensor.py", line 623, in backward
    torch.autograd.backward(
ValueError: a first failure, handled
During handling of the above exception, another exception occurred:
Traceback (most recent call last):
  File "/home/alice/train.py", line 45, in main
    raise
""" + ASSERT_LINE.replace("RuntimeError", "torch.RuntimeError")


class ProcessRaisedException(Exception):
    """Stands in for torch.multiprocessing.spawn.ProcessRaisedException."""


class BrokenStr(Exception):
    def __str__(self):
        raise ValueError("no text for you")


def run_script(code, url=URL):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    if url is not None:
        env["FAULTLINE_URL"] = url
    return subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, timeout=30
    )


def query_of(link):
    return parse_qs(urlsplit(link).query)["q"][0]


@pytest.fixture
def faultline_url(monkeypatch):
    monkeypatch.setenv("FAULTLINE_URL", URL)


@pytest.fixture
def hooks():
    """Leave the test process's exception hooks as they were."""
    saved = sys.excepthook, threading.excepthook
    faultline_hook.uninstall()
    yield
    sys.excepthook, threading.excepthook = saved


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("boom at /home/alice/x.py:12", "boom at <path>/x.py:<n>"),
        ("no such file: data/train/shard-0001.bin", "no such file: <path>/shard-<n>.bin"),
        (r"C:\Users\bob\train.py failed", "<path>/train.py failed"),
        ("cannot write to /home/alice", "cannot write to <home>"),
        ("cannot write to /Users/alice: denied", "cannot write to <home>: denied"),
        ("~alice has no space left", "~<user> has no space left"),
        ("mail alice.smith+ml@corp.example.com now", "mail <email> now"),
        ("tensor at 0x7f3a2b1c", "tensor at <hex>"),
        ("connect to 10.0.0.12:29500 timed out", "connect to <addr> timed out"),
        ("store key deadbeef0123456789ab missing", "store key <id> missing"),
        ("expected 128 but got 3.5", "expected <n> but got <n>"),
        (ASSERT_LINE, MASKED_ASSERT),
    ],
)
def test_masking_hides_paths_addresses_numbers_and_names(text, masked):
    assert faultline_hook.mask(text) == masked


def test_masking_hides_the_local_user_name(monkeypatch):
    monkeypatch.setattr(getpass, "getuser", lambda: "alice")
    monkeypatch.setattr(faultline_hook, "_USER", faultline_hook._local_user())

    masked = faultline_hook.mask("no quota for alice, see /scratch/alice (alice_2 kept)")

    assert masked == "no quota for <user>, see <path>/<user> (alice_<n> kept)"


def test_the_link_holds_no_secret(faultline_url):
    error = ConnectionError(
        "postgres://alice:S3cret@db:5432/x refused; HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345"
    )

    query = query_of(faultline_hook.link_for(error))

    assert (
        query
        == "ConnectionError: postgres://<user>:<secret>@db:<path>/x refused; HF_TOKEN=<secret>"
    )


def test_the_hook_knows_every_wrapper_the_server_knows(settings):
    config = DiagnosisConfig.combined(read_family_parts(settings.TAXONOMY_DIR))

    short_names = {name.rsplit(".", 1)[-1] for name in config.wrapper_exceptions}

    assert short_names == set(faultline_hook.WRAPPERS)


def test_link_is_base_url_go_and_the_masked_type_and_message(faultline_url):
    error = RuntimeError(ASSERT_LINE.removeprefix("RuntimeError: "))

    link = faultline_hook.link_for(error)

    assert link.startswith(f"{URL}/go?q=")
    assert query_of(link) == MASKED_ASSERT


def test_link_ignores_a_trailing_slash_in_the_base_url(monkeypatch):
    monkeypatch.setenv("FAULTLINE_URL", URL + "/")

    assert faultline_hook.link_for(KeyError("x")).startswith(f"{URL}/go?q=")


def test_link_round_trips_characters_that_mean_something_in_a_url(faultline_url):
    message = "a&b=c #d +e %f?g"

    link = faultline_hook.link_for(ValueError(message))

    assert " " not in link and "&" not in link.split("?", 1)[1]
    assert query_of(link) == f"ValueError: {message}"


def test_link_keeps_the_first_line_and_caps_the_length(faultline_url):
    error = ValueError("\n  first line\nsecond line " + "x" * 1000)
    long_error = ValueError("word " * 1000)

    assert query_of(faultline_hook.link_for(error)) == "ValueError: first line"
    assert len(query_of(faultline_hook.link_for(long_error))) == faultline_hook.MAX_CHARS


def test_link_without_a_message_is_the_type(faultline_url):
    assert query_of(faultline_hook.link_for(StopIteration())) == "StopIteration"


def test_no_link_when_faultline_url_is_unset(monkeypatch):
    monkeypatch.delenv("FAULTLINE_URL", raising=False)

    assert faultline_hook.link_for(RuntimeError("boom")) is None


def test_spawn_wrapper_links_the_childs_last_error(faultline_url):
    error = ProcessRaisedException(SPAWN_MESSAGE)

    assert query_of(faultline_hook.link_for(error)) == MASKED_ASSERT


def test_a_message_holding_a_traceback_links_its_last_error(faultline_url):
    error = RuntimeError(
        "worker 3 failed:\nTraceback (most recent call last):\n"
        '  File "/home/alice/loader.py", line 9, in fetch\n'
        "    return shards[key]\n"
        "KeyError: 'shard-17'\n"
    )

    assert query_of(faultline_hook.link_for(error)) == "KeyError: 'shard-<n>'"


def test_broken_str_still_gets_a_link_with_its_type(faultline_url):
    assert query_of(faultline_hook.link_for(BrokenStr())) == "BrokenStr"


def test_hook_calls_the_previous_hook_first_and_never_raises(hooks, faultline_url, capsys):
    calls = []
    sys.excepthook = lambda *args: calls.append(args[1])
    faultline_hook.install()

    for error in (BrokenStr(), RuntimeError("\udcff \x00" * 3), ValueError(object())):
        sys.excepthook(type(error), error, None)

    assert len(calls) == 3
    assert capsys.readouterr().err.count("Faultline: ") == 3


def test_hook_survives_a_bug_in_the_link(hooks, faultline_url, monkeypatch, capsys):
    sys.excepthook = lambda *args: print("traceback", file=sys.stderr)
    faultline_hook.install()
    monkeypatch.setattr(faultline_hook, "mask", None)

    sys.excepthook(RuntimeError, RuntimeError("boom"), None)

    assert capsys.readouterr().err == "traceback\n"


def test_install_twice_chains_once_and_uninstall_restores(hooks):
    previous = sys.excepthook, threading.excepthook

    faultline_hook.install()
    faultline_hook.install()
    assert sys.excepthook.faultline_previous is previous[0]
    assert threading.excepthook.faultline_previous is previous[1]

    faultline_hook.uninstall()
    assert (sys.excepthook, threading.excepthook) == previous


def test_uncaught_exception_prints_the_traceback_then_one_masked_link():
    result = run_script(
        "import faultline_hook, importlib\n"
        "faultline_hook.install()\n"
        "importlib.reload(faultline_hook)\n"
        "raise RuntimeError('boom at /home/alice/x.py:12')"
    )

    lines = result.stderr.splitlines()
    assert result.returncode == 1
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[-2] == "RuntimeError: boom at /home/alice/x.py:12"
    assert lines[-1] == (
        f"Faultline: {URL}/go?q=RuntimeError%3A%20boom%20at%20%3Cpath%3E/x.py%3A%3Cn%3E"
    )
    assert result.stderr.count("Faultline: ") == 1
    assert "/home/alice" not in lines[-1] and "alice" not in lines[-1]


def test_nothing_extra_is_printed_without_faultline_url():
    result = run_script("import faultline_hook\nraise RuntimeError('boom')", url=None)

    assert result.stderr.splitlines()[-1] == "RuntimeError: boom"
    assert "Faultline" not in result.stderr


def test_uncaught_exception_in_a_thread_gets_a_link():
    result = run_script(
        "import threading, faultline_hook\n"
        "def work():\n"
        "    raise KeyError('shard 7')\n"
        "thread = threading.Thread(target=work)\n"
        "thread.start()\n"
        "thread.join()\n"
    )

    lines = result.stderr.splitlines()
    assert lines[0].startswith("Exception in thread")
    assert lines[-2] == "KeyError: 'shard 7'"
    assert query_of(lines[-1].removeprefix("Faultline: ")) == "KeyError: 'shard <n>'"


def test_keyboard_interrupt_and_system_exit_get_no_link():
    interrupted = run_script("import faultline_hook\nraise KeyboardInterrupt")
    exited = run_script("import faultline_hook\nraise SystemExit('bye')")

    assert "KeyboardInterrupt" in interrupted.stderr
    assert "Faultline" not in interrupted.stderr + exited.stderr


def test_broken_str_in_a_script_keeps_the_traceback_and_links_the_type():
    result = run_script(
        "import faultline_hook\n"
        "class BrokenStr(Exception):\n"
        "    def __str__(self):\n"
        "        raise ValueError('no')\n"
        "raise BrokenStr()"
    )

    lines = result.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[-1] == f"Faultline: {URL}/go?q=BrokenStr"
