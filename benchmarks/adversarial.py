"""Pastes shaped to find the slow path of every stage of the engine.

Each shape is a function of a size in characters that returns a paste of about that size. The
benchmark (benchmarks/diagnose.py) times the engine on each at two sizes, and the test suite
(tests/test_fuzz_diagnosis.py) checks that doubling the size at most about doubles the time.
Letters and rank numbers come from a seeded generator: the same size gives the same paste.
"""

import random
import string

TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/work/train.py", line 43, in main\n'
    "    loss.backward()\n"
    "RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "
    '"/__w/pytorch/pytorch/torch/csrc/distributed/c10d/reducer.cpp":1732, please report a bug '
    "to PyTorch. \n"
)
WRAPPER = (
    "torch.multiprocessing.spawn.ProcessRaisedException: \n\n"
    "-- Process 0 terminated with the following error:\n"
)


def _repeat(unit, size):
    return unit * max(1, size // len(unit))


def _lines(make, size):
    """Lines from make(i) until `size` characters."""
    lines, total, i = [], 0, 0
    while total < size:
        line = make(i)
        lines.append(line)
        total += len(line) + 1
        i += 1
    return "\n".join(lines) + "\n"


def distinct_ranks(size):
    """One line per rank, every line different: `[rank<i>]: <six random letters>`."""
    rnd = random.Random(size)
    return _lines(lambda i: f"[rank{i}]: {''.join(rnd.choices(string.ascii_letters, k=6))}", size)


def ranks_printing_one_traceback(size):
    """Ranks 0, 1, 2... each print the same traceback: all but the first copy collapse."""
    lines = TRACEBACK.splitlines()
    return _lines(lambda i: f"[rank{i // len(lines)}]: {lines[i % len(lines)]}", size)


def ranks_interleaved(size):
    """Eight ranks print their lines interleaved, each its own numbers."""
    return _lines(lambda i: f"[rank{i % 8}]: step {i // 8} loss 0.{i:06d}", size)


def rank_prefixes_on_one_line(size):
    return _repeat("[rank1]:", size) + " RuntimeError: deep"


def rank_prefix_per_character(size):
    return _repeat("[rank1]:x", size)


def ansi_codes_in_a_row(size):
    return _repeat("\x1b[1;31m", size) + "RuntimeError: red"


def nested_ansi_codes(size):
    """Escape sequences that open inside one another and never close."""
    return _repeat("\x1b[\x1b]\x1b", size) + "m"


def ansi_code_per_character(size):
    rnd = random.Random(size)
    return "".join(f"\x1b[3{rnd.randrange(8)}m{rnd.choice('abc ')}" for _ in range(size // 6))


def short_lines(size):
    return _repeat("x\n", size)


def blank_lines(size):
    return "\n" * size


def carriage_returns(size):
    """A progress bar redrawn with `\\r`: one line per redraw."""
    return _lines(lambda i: f"\r{i % 100:3d}%|{'#' * (i % 40):40s}|", size)


def one_long_line(size):
    return "RuntimeError: " + "x" * size


def log_headers(size):
    """Timestamps and levels on every line, and prefixes within prefixes."""
    return _lines(
        lambda i: f"2026-11-30 08:42:51,{i % 1000:03d} - ERROR - [rank{i % 4}]: E{i}", size
    )


def timestamp_tokens(size):
    return _repeat("2026-11-30 ", size) + "ERROR x"


def deep_traceback(size):
    frame = '  File "/a/b.py", line 1, in f\n    f()\n'
    return "Traceback (most recent call last):\n" + _repeat(frame, size) + "RecursionError: x\n"


def chained_exceptions(size):
    """Every exception raised while handling the one before."""
    unit = TRACEBACK + "\nDuring handling of the above exception, another exception occurred:\n\n"
    return _repeat(unit, size)


def nested_wrappers(size):
    """A launcher's wrapper around a wrapper around..., the root failure at the bottom."""
    return _repeat(WRAPPER + "\nTraceback (most recent call last):\n", size) + TRACEBACK


def exception_lines(size):
    return _lines(lambda i: f"RuntimeError: failure number {i}", size)


def assert_sites(size):
    return _lines(lambda i: f'x INTERNAL ASSERT FAILED at "/src/reducer.cpp":{i}', size)


def argparse_errors(size):
    """`usage:` lines and `prog: error:` lines, which look back for each other."""
    return _lines(lambda i: "usage: train.py [-h]" if i % 50 == 0 else "train.py: error: x", size)


def signature_lines(size):
    """The seed's root line over and over: every signature hits every line."""
    return _repeat(TRACEBACK.splitlines()[-1] + "\n", size)


def fact_lines(size):
    return _repeat("static_graph=True find_unused_parameters=True torch 2.13.0\n", size)


def unicode_text(size):
    rnd = random.Random(size)
    alphabet = "é漢字🙂\u200b\ufeff\u0301ß∑"
    return _lines(lambda i: "".join(rnd.choices(alphabet, k=20)), size)


SHAPES = {
    "distinct ranks, one line each": distinct_ranks,
    "every rank prints the traceback": ranks_printing_one_traceback,
    "8 ranks interleaved": ranks_interleaved,
    "rank prefixes on one line": rank_prefixes_on_one_line,
    "a rank prefix per character": rank_prefix_per_character,
    "ANSI codes in a row": ansi_codes_in_a_row,
    "nested ANSI codes": nested_ansi_codes,
    "an ANSI code per character": ansi_code_per_character,
    "many short lines": short_lines,
    "blank lines": blank_lines,
    "carriage returns": carriage_returns,
    "one long line": one_long_line,
    "log headers on every line": log_headers,
    "timestamps on one line": timestamp_tokens,
    "deep traceback": deep_traceback,
    "chained exceptions": chained_exceptions,
    "deeply nested wrappers": nested_wrappers,
    "an exception on every line": exception_lines,
    "an assert site on every line": assert_sites,
    "argparse errors": argparse_errors,
    "the seed's line on every line": signature_lines,
    "a fact on every line": fact_lines,
    "unicode": unicode_text,
}
