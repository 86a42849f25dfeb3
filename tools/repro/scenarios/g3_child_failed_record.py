"""DIST-008, how to find the cause: @record fills in the summary's traceback field.

Every rank raises an error outside the knowledge base (all of them, so that
no rank is left in a collective with a dead peer).  ``main`` is decorated
with ``torch.distributed.elastic.multiprocessing.errors.record``, so the worker
writes its exception to torchrun's error file and the ChildFailedError
summary shows the real exception type and message instead of "To enable
traceback see: ...".  The paste must match nothing in the knowledge base
(the cause here is not a DDP failure), hence a negative scenario.
"""

import os

from torch.distributed.elastic.multiprocessing.errors import record

from tools.repro.harness import NEGATIVE, NEGATIVE_SLUG, Scenario, launch

SCENARIO = Scenario(
    slug=NEGATIVE_SLUG,
    variant="child-failed-with-record",
    description="negative: the ranks raise under @record; the summary carries the traceback",
    expect="fail",
    role=NEGATIVE,
    key_text=("FileNotFoundError: [Errno 2] No such file or directory", "error_file: /"),
    launchers=("torchrun",),
)


def main(rank, world_size):
    with open(f"/nonexistent/shard-{rank:05d}.jsonl", encoding="utf-8") as shard:
        shard.read()


@record
def entry_point():
    launch(main, SCENARIO)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    entry_point()
