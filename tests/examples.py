"""How many examples a property test draws: a fifth (ten at least) in the fast suite, where
they would cost a quarter of its time, and every one of them under `make test`, which sets
FAULTLINE_ALL_EXAMPLES=1."""

import os

ALL_EXAMPLES = bool(os.environ.get("FAULTLINE_ALL_EXAMPLES"))


def examples(count: int) -> int:
    return count if ALL_EXAMPLES else max(10, count // 5)
