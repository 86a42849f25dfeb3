"""Normalising and parsing pasted output: pure functions, no database."""

import pytest
from django.conf import settings

from kb.diagnosis.config import DiagnosisConfig
from kb.diagnosis.facts import FactRules
from kb.diagnosis.mask import mask
from kb.diagnosis.normalize import normalise, strip_log_prefix, strip_rank
from kb.diagnosis.parse import parse
from kb.taxonomy.reading import read_family_parts
from tests.samples import ASSERT_LINE, TRACEBACK, prefixed
from tools.repro.run import CORPUS_DIR


@pytest.fixture(scope="module")
def config():
    return DiagnosisConfig.combined(read_family_parts(settings.TAXONOMY_DIR))


@pytest.mark.parametrize(
    ("line", "rank", "rest"),
    [
        ("[rank1]: Traceback (most recent call last):", 1, "Traceback (most recent call last):"),
        ("[rank12]:   File x", 12, "  File x"),
        ("[default0]:hello", 0, "hello"),
        ("[rank0]: [rank0]: [rank0]: deep", 0, "deep"),
        ("[ranking]: not a prefix", None, "[ranking]: not a prefix"),
    ],
)
def test_rank_prefixes_are_removed_and_remembered(line, rank, rest):
    assert strip_rank(line) == (rank, rest)


@pytest.mark.parametrize(
    ("line", "level", "rest"),
    [
        ("2026-11-30 08:42:51,373 - INFO - training starts", "INFO", "training starts"),
        ("2026-11-30 08:42:51,373 WARNING accumulating 4 steps", "WARNING", "accumulating 4 steps"),
        ("[2026-11-30 08:42:51,373][train][ERROR] - it broke", "ERROR", "it broke"),
        ("2026-11-30T08:42:51Z ERROR it broke", "ERROR", "it broke"),
        ("WARNING:root:careful", "WARNING", "careful"),
        ("INFO: starting", "INFO", "starting"),
        (
            "E1130 08:42:51.373000 5875 torch/distributed/elastic/multiprocessing/api.py:1002]"
            " failed (exitcode: 1)",
            "ERROR",
            "failed (exitcode: 1)",
        ),
        (
            "[W1130 07:25:51.838722244 reducer.cpp:1529] Warning: find_unused_parameters=True",
            "WARNING",
            "Warning: find_unused_parameters=True",
        ),
        (
            "[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout",
            "ERROR",
            "[Rank 1] Watchdog caught collective operation timeout",
        ),
        ("[E notes] not a source line", None, "[E notes] not a source line"),
        ("RuntimeError: boom", None, "RuntimeError: boom"),
        ('  File "x.py", line 1, in f', None, '  File "x.py", line 1, in f'),
    ],
)
def test_log_prefixes_are_removed_and_their_level_kept(line, level, rest):
    assert strip_log_prefix(line) == (level, rest)


def test_every_rank_printing_the_same_traceback_is_kept_once():
    text = "\n".join(prefixed(1, TRACEBACK) + prefixed(0, TRACEBACK))
    normalised = normalise(text)
    assert [line.text for line in normalised.lines] == [line.rstrip() for line in TRACEBACK]
    assert normalised.ranks == [1, 0]
    assert {line.rank for line in normalised.lines} == {1}


def test_interleaved_ranks_are_collapsed_too():
    interleaved = [
        line
        for pair in zip(prefixed(0, TRACEBACK), prefixed(1, TRACEBACK), strict=True)
        for line in pair
    ]
    assert len(normalise("\n".join(interleaved)).lines) == len(TRACEBACK)


def test_ranks_that_print_different_lines_keep_them():
    other = TRACEBACK[:-1] + ["RuntimeError: something else on rank 1"]
    normalised = normalise("\n".join(prefixed(0, TRACEBACK) + prefixed(1, other)))
    texts = [line.text for line in normalised.lines]
    assert "RuntimeError: something else on rank 1" in texts
    assert ASSERT_LINE.rstrip() in texts


def test_ansi_colours_carriage_returns_and_nul_bytes_are_removed():
    text = "\x1b[31mRuntimeError\x1b[0m: boom\r\n\x00second line\rthird"
    normalised = normalise(text)
    texts = [line.text for line in normalised.lines]
    assert texts == ["RuntimeError: boom", "second line", "third"]
    assert normalised.original[0] == "RuntimeError: boom"


def test_each_normalised_line_knows_its_line_in_the_paste():
    text = "\n".join(["intro"] + prefixed(1, TRACEBACK) + prefixed(0, TRACEBACK) + ["outro"])
    normalised = normalise(text)
    assert normalised.lines[-1].source == len(TRACEBACK) * 2 + 1
    offset = normalised.text.index("expect_autograd_hooks_")
    assert normalised.lines[normalised.line_at(offset)].text.startswith("RuntimeError")


def test_parse_finds_frames_exception_and_assert_site():
    parsed = parse(normalise("\n".join(TRACEBACK)))
    root = parsed.root
    assert root.type == "RuntimeError"
    assert root.message.startswith("expect_autograd_hooks_ INTERNAL ASSERT FAILED")
    assert [(f.path, f.lineno, f.function) for f in root.frames] == [
        ("/work/train.py", 43, "main"),
        ("/venv/lib/python3.11/site-packages/torch/_tensor.py", 623, "backward"),
    ]
    assert root.frames[0].code == "loss.backward()"
    [site] = parsed.assert_sites
    assert site.path.endswith("torch/csrc/distributed/c10d/reducer.cpp")
    assert site.lineno == 1732


def test_the_root_failure_is_the_child_error_not_the_spawn_wrapper(config):
    text = "\n".join(
        [
            "Traceback (most recent call last):",
            '  File "/venv/torch/multiprocessing/spawn.py", line 211, in join',
            "    raise ProcessRaisedException(msg, error_index, failed_process.pid)",
            "torch.multiprocessing.spawn.ProcessRaisedException: ",
            "",
            "-- Process 1 terminated with the following error:",
            *TRACEBACK,
        ]
    )
    parsed = parse(normalise(text), config.wrapper_exceptions)
    assert [block.short_type for block in parsed.exceptions] == [
        "ProcessRaisedException",
        "RuntimeError",
    ]
    assert parsed.root.type == "RuntimeError"


def test_the_root_failure_is_the_error_a_system_error_reports(config):
    text = "\n".join([*TRACEBACK, "", "The above exception was the direct cause of the following "
                       "exception:", "", "Traceback (most recent call last):",
                       '  File "/work/train.py", line 43, in main',
                       "SystemError: <method 'run_backward' of 'torch._C._EngineBase' objects> "
                       "returned NULL without setting an exception"])  # fmt: skip
    parsed = parse(normalise(text), config.wrapper_exceptions)
    assert parsed.root.type == "RuntimeError"


def test_a_traceback_cut_above_its_header_is_a_traceback_all_the_same():
    text = "\n".join(
        [
            '  File "/venv/torch/distributed/launcher/api.py", line 269, in launch_agent',
            "    raise ChildFailedError(",
            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
            "============================================================",
            "  traceback : Signal 9 (SIGKILL) received by PID 14750",
        ]
    )
    parsed = parse(normalise(text))
    assert parsed.root.short_type == "ChildFailedError"
    assert [frame.function for frame in parsed.root.frames] == ["launch_agent"]
    assert "Signal 9 (SIGKILL)" in parsed.root.message


def test_a_pasted_last_line_alone_is_an_exception():
    parsed = parse(normalise(ASSERT_LINE))
    assert parsed.root.type == "RuntimeError"
    assert parsed.assert_sites[0].lineno == 1732


def test_an_argparse_exit_is_the_failure_before_the_launcher_summary(config):
    text = "\n".join(
        [
            "usage: train.py [-h] [--epochs EPOCHS]",
            "train.py: error: unrecognized arguments: --local-rank=0",
            "Traceback (most recent call last):",
            '  File "/venv/torch/distributed/run.py", line 1019, in run',
            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        ]
    )
    parsed = parse(normalise(text), config.wrapper_exceptions)
    assert parsed.root.type == "SystemExit"
    assert parsed.root.message == "train.py: error: unrecognized arguments: --local-rank=0"
    assert (1, "ERROR") in parsed.levels


def test_an_error_line_without_its_usage_line_is_not_an_argparse_exit():
    parsed = parse(normalise("main.py: error: something went wrong"))
    assert parsed.exceptions == []


def test_multi_line_messages_are_kept_whole():
    text = "\n".join(
        [
            "Traceback (most recent call last):",
            '  File "t.py", line 1, in <module>',
            "RuntimeError: Expected to have finished reduction in the prior iteration.",
            "Parameter indices which did not receive grad for rank 0: 2 3",
            "",
            "unrelated line",
        ]
    )
    root = parse(normalise(text)).root
    assert root.message.endswith("did not receive grad for rank 0: 2 3")
    assert "unrelated" not in root.message


def test_truncated_paste_without_exception_line_has_no_root():
    parsed = parse(normalise("\n".join(TRACEBACK[:3])))
    assert parsed.root is None


def test_levels_come_in_order_with_exceptions_as_errors():
    text = "\n".join(
        [
            "2026-11-30 08:00:00,000 INFO start",
            "2026-11-30 08:00:01,000 WARNING early",
            "/x/y.py:3: UserWarning: careful",
            *TRACEBACK,
        ]
    )
    parsed = parse(normalise(text))
    assert [level for _, level in parsed.levels] == ["INFO", "WARNING", "WARNING", "ERROR"]


def test_facts_are_what_the_text_proves(config):
    text = "\n".join(
        [
            "Traceback (most recent call last):",
            '  File "/v/site-packages/transformers/trainer.py", line 2200, in train',
            '  File "/v/site-packages/accelerate/accelerator.py", line 10, in backward',
            '  File "/v/site-packages/torch/utils/checkpoint.py", line 300, in backward',
            '  File "/v/site-packages/torch/distributed/run.py", line 1028, in main',
            "    model = DDP(model, static_graph=True)",
            "TORCH_DISTRIBUTED_DEBUG=DETAIL",
            "torch==2.13.0",
            ASSERT_LINE,
        ]
    )
    normalised = normalise(text)
    facts = FactRules(config.facts).extract(normalised, parse(normalised))
    values = {key: fact.value for key, fact in facts.items()}
    assert values == {
        "framework": "hf_trainer",
        "gradient_checkpointing": "yes",
        "static_graph": "yes",
        "torch_distributed_debug": "DETAIL",
        "launcher": "torchrun",
        "torch_version": "2.13.0",
    }
    assert normalised.lines[facts["static_graph"].line].text.endswith("static_graph=True)")


def test_the_first_failed_workers_exit_code_and_signal_are_facts(config):
    summary = "\n".join(
        [
            "Failures:",
            "[1]:",
            "  exitcode  : -15 (pid: 14751)",
            "  traceback : Signal 15 (SIGTERM) received by PID 14751",
            "------------------------------------------------------------",
            "Root Cause (first observed failure):",
            "[0]:",
            "  rank      : 0 (local_rank: 0)",
            "  exitcode  : -9 (pid: 14750)",
            "  error_file: <N/A>",
            "  traceback : Signal 9 (SIGKILL) received by PID 14750",
        ]
    )
    normalised = normalise(summary)
    facts = FactRules(config.facts).extract(normalised, parse(normalised))
    values = {key: fact.value for key, fact in facts.items() if key != "launcher"}
    assert values == {"exitcode": "-9", "signal": "SIGKILL", "killed_by_signal": "yes"}


def test_torchruns_own_sigterm_is_no_kill(config):
    summary = (
        "Root Cause (first observed failure):\n[0]:\n"
        "  traceback : Signal 15 (SIGTERM) received by PID 1"
    )
    normalised = normalise(summary)
    facts = FactRules(config.facts).extract(normalised, parse(normalised))
    assert facts["signal"].value == "SIGTERM" and "killed_by_signal" not in facts


def test_no_fact_is_guessed(config):
    normalised = normalise(ASSERT_LINE)
    assert FactRules(config.facts).extract(normalised, parse(normalised)) == {}


@pytest.mark.parametrize(
    ("capture", "advice_only", "proven"),
    [
        # "... or try to use _set_static_graph() as a workaround ..."
        ("ddp-mark-variable-ready-twice/checkpoint-same-layer-twice-torchrun.txt",
         "static_graph", {}),
        # "You can enable unused parameter detection by passing ... `find_unused_parameters=True`"
        ("ddp-unused-params-prior-reduction/unused-param-torchrun.txt",
         "find_unused_parameters", {}),
        # ... while the parameter names in the same message do prove the debug level.
        ("ddp-unused-params-prior-reduction/unused-param-debug-info-torchrun.txt",
         "find_unused_parameters", {"torch_distributed_debug": "INFO or DETAIL"}),
        # A warning is not an exception message: it states the setting the script used.
        ("ddp-find-unused-parameters-perf-warning/find-unused-all-params-used-torchrun.txt",
         "static_graph", {"find_unused_parameters": "yes"}),
    ],
)  # fmt: skip
def test_advice_in_pytorchs_error_messages_proves_nothing_about_the_script(
    config, capture, advice_only, proven
):
    normalised = normalise((CORPUS_DIR / capture).read_text())
    facts = FactRules(config.facts).extract(
        normalised, parse(normalised, config.wrapper_exceptions)
    )
    assert advice_only not in facts
    assert {key: facts[key].value for key in proven if key in facts} == proven


def test_masking_removes_paths_numbers_and_addresses():
    masked = mask('RuntimeError: at "/home/alice/run/reducer.cpp":1732 on 10.0.0.7:29500 0x7ffe12')
    assert masked == 'RuntimeError: at "<path>/reducer.cpp":<n> on <addr> <hex>'
    assert "alice" not in masked


def test_hostile_input_takes_linear_time():
    huge_line = "x" * 1_000_000
    frames = '  File "a.py", line 1, in f\n    f()\n' * 50_000
    nested = "[rank0]: " * 10_000 + "RuntimeError: deep"
    for text in (huge_line, frames, nested, "\x00" * 100_000, "\x1b[" * 100_000):
        normalised = normalise(text)
        parse(normalised)
    assert parse(normalise(nested)).root.message == "deep"
