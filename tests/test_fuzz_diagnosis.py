"""Property-based tests of the text work: whatever is pasted, normalising and parsing never
raise, normalising is idempotent, and adversarial input takes bounded time."""

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.diagnosis.normalize import normalise
from kb.diagnosis.parse import parse

LINE_PIECES = st.sampled_from(
    [
        "[rank0]: ", "[rank12]:", "[default1]:", "Traceback (most recent call last):",
        '  File "/x/y.py", line 3, in f', "    f()", "RuntimeError: boom",
        "torch.x.ChildFailedError: ", "2026-11-30 08:42:51,373 - INFO - ",
        "E1130 08:42:51.373000 5875 api.py:1] ", "[W1130 1 a.cpp:1] ", "\x1b[31m", "\x1b[0m",
        "\r", "\x00", 'INTERNAL ASSERT FAILED at "a.cpp":12', "-- Process 1 ", "Warning: ",
        "WARNING:root:", "[2026-11-30 08:42:51][x][ERROR] ", "é", "\t", " ",
    ]
)  # fmt: skip
PASTES = (
    st.lists(st.one_of(LINE_PIECES, st.text(max_size=30)), max_size=60).map("".join) | st.text()
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PASTES)
def test_normalising_and_parsing_never_raise(text):
    normalised = normalise(text)
    parsed = parse(normalised, ("ChildFailedError",))
    assert len(normalised.offsets) == len(normalised.lines)
    for line in normalised.lines:
        assert 0 <= line.source < len(normalised.original)
    if parsed.root is not None:
        assert parsed.root in parsed.exceptions


@settings(max_examples=300, deadline=None)
@given(PASTES)
def test_normalising_twice_changes_nothing_more(text):
    once = normalise(text).text
    assert normalise(once).text == once


def _seconds(text):
    start = time.perf_counter()
    parse(normalise(text))
    return time.perf_counter() - start


def test_adversarial_pastes_take_bounded_time():
    frames = '  File "/a/b.py", line 1, in f\n    f()\n' * 10_000
    cases = {
        "10,000 repeated frames": f"Traceback (most recent call last):\n{frames}RecursionError: x",
        "1 MB on one line": "RuntimeError: " + "x" * 1_000_000,
        "deeply nested rank prefixes": "[rank0]:" * 100_000 + " RuntimeError: deep",
        "100,000 rank copies": "".join(f"[rank{i % 8}]: same line\n" for i in range(100_000)),
        "escape codes everywhere": "\x1b[1;31m" * 100_000,
    }  # fmt: skip
    for name, text in cases.items():
        assert _seconds(text) < 5.0, name
