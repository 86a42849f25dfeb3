"""The seed entry's fix snippets are templates (kb/snippets.py): every answer the wizard can get
renders to tidy Python that still carries the fix, and the plain-PyTorch forms really run.

No database: the entry is read from its file, the way the content lint reads it.
"""

import ast
import contextlib

import pytest
from django.conf import settings

from kb.snippets import describe, render_snippet, uses
from kb.taxonomy.document import parse_entry
from tests.conftest import shipped_entry_path, variables_of

SLUG = "ddp-expect-autograd-hooks-assert"
FRAMEWORKS = ["pytorch", "lightning", "hf_trainer", "accelerate"]
ACCUMULATION_STEPS = [1, 2, 4, 8]
SCHEDULER = [True, False]
# The keyword arguments (or the snippet's own constant) that configure gradient accumulation.
ACCUMULATION_SETTINGS = {
    "accumulation_steps",
    "accumulate_grad_batches",
    "gradient_accumulation_steps",
    "num_steps",
}


VARIABLES = variables_of(settings.TAXONOMY_DIR)


def read_fixes():
    document, problems, _lines = parse_entry(shipped_entry_path(SLUG).read_text())
    assert not problems, problems
    return {fix["key"]: fix for fix in document["fixes"]}


FIXES = read_fixes()


def snippet(key, framework):
    return next(s for s in FIXES[key]["snippets"] if s["framework"] == framework)


def renderings(keys=tuple(FIXES), frameworks=tuple(FRAMEWORKS)):
    """pytest params (fix key, framework, rendered code, accumulation_steps, scheduler)."""
    return [
        pytest.param(
            key,
            s["framework"],
            render_snippet(
                s["code"],
                VARIABLES,
                {"accumulation_steps": str(steps), "scheduler": "yes" if scheduler else "no"},
            ),
            steps,
            scheduler,
            id=f"{key}-{s['framework']}-x{steps}-{'scheduler' if scheduler else 'constant'}",
        )
        for key in keys
        for s in FIXES[key]["snippets"]
        if s["framework"] in frameworks
        for steps in ACCUMULATION_STEPS
        for scheduler in SCHEDULER
    ]


ALL = "key, framework, code, accumulation_steps, scheduler"


def calls(tree, name):
    """Calls of `name(...)` or `<anything>.name(...)`."""
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == name)
            or (isinstance(node.func, ast.Attribute) and node.func.attr == name)
        )
    ]


def keyword_values(tree, names):
    """The constant values given to keyword arguments or assigned to names in `names`."""
    values = [
        keyword.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        for keyword in node.keywords
        if keyword.arg in names
    ]
    values += [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(isinstance(target, ast.Name) and target.id in names for target in node.targets)
    ]
    return [ast.literal_eval(value) for value in values]


def pep8_double_blank_lines(tree):
    """Line numbers of the two blank lines PEP 8 puts around a top-level def or class."""
    allowed = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            allowed |= {start - 2, start - 1, node.end_lineno + 1, node.end_lineno + 2}
    return allowed


# --- Every rendering is tidy Python -------------------------------------------------------------


@pytest.mark.parametrize(ALL, renderings())
def test_every_rendering_parses_with_no_template_left_and_no_whitespace_litter(
    key, framework, code, accumulation_steps, scheduler
):
    tree = ast.parse(code)
    assert "{{" not in code and "{%" not in code
    lines = code.split("\n")
    assert lines[0].strip() and lines[-1].strip(), "no leading or trailing blank line"
    assert [line for line in lines if line != line.rstrip()] == []
    allowed = pep8_double_blank_lines(tree)
    litter = [
        number
        for number, (previous, line) in enumerate(zip(lines, lines[1:], strict=False), 2)
        if not previous and not line and number not in allowed
    ]
    assert litter == [], f"two blank lines in a row at line {litter} of\n{code}"


def test_every_fix_has_a_pytorch_snippet_first_and_one_for_each_framework():
    for key, fix in FIXES.items():
        frameworks = [s["framework"] for s in fix["snippets"]]
        assert frameworks == FRAMEWORKS, key
        assert {s["language"] for s in fix["snippets"]} == {"python"}


def test_static_graph_off_resolves_the_verified_trigger_and_align_no_sync_only_the_mismatch():
    assert FIXES["static-graph-off"]["resolves"] == ["static_graph", "no_sync_mismatch"]
    assert FIXES["align-no-sync"]["resolves"] == ["no_sync_mismatch"]
    why = FIXES["static-graph-off"]["why"]
    assert "Drop static_graph" in why
    assert "one fully synchronised forward and backward before the first no_sync()" in why
    assert "synchronise every micro-batch with the framework's sync-each-batch option" in why


def test_snippets_ask_the_wizard_only_for_what_they_are_tailored_to():
    """The plain loop steps the user's scheduler if they have one; a Trainer snippet sets no
    scheduler at all (the user's lr_scheduler_type stays theirs)."""
    for key, fix in FIXES.items():
        for s in fix["snippets"]:
            if s["framework"] == "pytorch":
                assert uses(s["code"], "scheduler"), (key, s["framework"])
            if s["framework"] == "hf_trainer":
                assert "lr_scheduler_type" not in s["code"], key
            if s["framework"] == "hf_trainer" or key in ("align-no-sync", "static-graph-off"):
                assert uses(s["code"], "accumulation_steps"), (key, s["framework"])


# --- What a rendering is called ----------------------------------------------------------------


def test_the_entry_page_says_what_the_defaults_are():
    defaults = {key: VARIABLES[key].default for key in ("accumulation_steps", "scheduler")}
    assert describe(defaults, VARIABLES) == (
        "for 4 accumulation steps, with a learning-rate scheduler"
    )


@pytest.mark.parametrize(
    "values, words",
    [
        ({"accumulation_steps": "8"}, "for 8 accumulation steps"),
        ({"accumulation_steps": "1"}, "without gradient accumulation"),
        ({"scheduler": "no"}, "without a learning-rate scheduler"),
    ],
)
def test_each_choice_is_said_in_words(values, words):
    assert describe(values, VARIABLES) == words


# --- Every rendering keeps its fix --------------------------------------------------------------


@pytest.mark.parametrize(ALL, renderings(["single-backward"]))
def test_single_backward_sums_the_losses_into_at_most_one_backward(
    key, framework, code, accumulation_steps, scheduler
):
    tree = ast.parse(code)
    assert "loss_fn_a(out_a) + loss_fn_b(out_b)" in code or (
        'outputs["loss_a"] + outputs["loss_b"]' in code
    )
    # Lightning and the Trainer run the backward themselves on the one loss returned.
    assert len(calls(tree, "backward")) == (1 if framework in ("pytorch", "accelerate") else 0)


@pytest.mark.parametrize(ALL, renderings(["non-reentrant-checkpointing"]))
def test_non_reentrant_checkpointing_passes_use_reentrant_false(
    key, framework, code, accumulation_steps, scheduler
):
    assert "use_reentrant=False" in code or '"use_reentrant": False' in code
    assert "use_reentrant=True" not in code and '"use_reentrant": True' not in code


@pytest.mark.parametrize(ALL, renderings(["static-graph-off"]))
def test_static_graph_off_never_turns_the_static_graph_on(
    key, framework, code, accumulation_steps, scheduler
):
    tree = ast.parse(code)
    assert "static_graph=True" not in code
    assert all(
        value is False for value in keyword_values(tree, {"static_graph", "ddp_static_graph"})
    )
    if framework == "pytorch":
        (ddp,) = calls(tree, "DDP")
        assert ddp.keywords == []  # DDP's defaults: no static graph
    else:
        assert "static_graph=False" in code


@pytest.mark.parametrize(
    "framework, alternative",
    [
        ("pytorch", "sync_now = i == 0 or (i + 1) % accumulation_steps == 0"),
        ("lightning", "accumulate_grad_batches=1"),
        ("hf_trainer", '{"gradient_accumulation_kwargs": {"sync_each_batch": True}}'),
        ("accelerate", "sync_each_batch=True"),
    ],
)
def test_static_graph_off_says_how_to_keep_the_static_graph(framework, alternative):
    s = snippet("static-graph-off", framework)
    assert alternative in s["code"] + s["note"]


@pytest.mark.parametrize(
    ALL, renderings(["align-no-sync", "static-graph-off"], frameworks=["pytorch"])
)
def test_hand_written_accumulation_keeps_forward_and_backward_inside_no_sync(
    key, framework, code, accumulation_steps, scheduler
):
    tree = ast.parse(code)
    if accumulation_steps == 1:
        assert "no_sync" not in code
        return
    (block,) = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.With)
        and any("model.no_sync()" in ast.unparse(item.context_expr) for item in node.items)
    ]
    inside = ast.Module(body=block.body, type_ignores=[])
    forwards = [call for call in calls(tree, "model") if isinstance(call.func, ast.Name)]
    assert len(forwards) == len(calls(inside, "model")) == 1
    assert len(calls(tree, "backward")) == len(calls(inside, "backward")) == 1


@pytest.mark.parametrize(ALL, renderings())
def test_the_accumulation_steps_appear_wherever_accumulation_is_configured(
    key, framework, code, accumulation_steps, scheduler
):
    values = keyword_values(ast.parse(code), ACCUMULATION_SETTINGS)
    assert set(values) <= {accumulation_steps}
    configures = framework in ("lightning", "accelerate") and key in (
        "align-no-sync",
        "static-graph-off",
    )
    configures |= framework == "hf_trainer"
    configures |= (
        framework == "pytorch"
        and accumulation_steps > 1
        and key
        in (
            "align-no-sync",
            "static-graph-off",
        )
    )
    assert bool(values) == configures


@pytest.mark.parametrize(ALL, renderings())
def test_the_scheduler_is_stepped_if_and_only_if_the_loop_has_one(
    key, framework, code, accumulation_steps, scheduler
):
    template = snippet(key, framework)["code"]
    if not uses(template, "scheduler"):
        return
    if framework == "hf_trainer":
        expected = 'lr_scheduler_type="cosine"' if scheduler else 'lr_scheduler_type="constant"'
        assert expected in code
        assert code.count("lr_scheduler_type=") == 1
    else:
        assert ("scheduler" in code) is scheduler
        if "loss" in code:
            assert ("scheduler.step()" in code) is scheduler
    if framework == "pytorch":
        assert ("CosineAnnealingLR(optimizer, T_max=num_training_steps)" in code) is scheduler


# --- The plain-PyTorch forms run ----------------------------------------------------------------
# Real PyTorch, so `slow` like the lab (make test runs them; importing torch alone takes seconds).


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def tiny_model(torch, heads=1):
    """A small model standing in for the DDP-wrapped one: it has DDP's no_sync() and records
    every forward and every backward pass with whether it ran inside no_sync()."""

    class TinyModel(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.trunk = torch.nn.Linear(4, 4)
            self.heads = torch.nn.ModuleList(torch.nn.Linear(4, 1) for _ in range(heads))
            self.syncing = True
            self.events = []

        @contextlib.contextmanager
        def no_sync(self):
            self.syncing = False
            try:
                yield
            finally:
                self.syncing = True

        def forward(self, x):
            self.events.append(("forward", self.syncing))
            hidden = self.trunk(x).relu()
            # Fires once per backward pass through the trunk, however many heads it feeds.
            hidden.register_hook(lambda grad: self.events.append(("backward", self.syncing)))
            outputs = tuple(head(hidden) for head in self.heads)
            return outputs[0].pow(2).mean() if heads == 1 else outputs

    return TinyModel()


def run(code, torch, **names):
    namespace = {"torch": torch, "nn": torch.nn, **names}
    exec(compile(code, "<snippet>", "exec"), namespace)
    return namespace


def free_names(torch, model, steps=3):
    return {
        "model": model,
        "batch": torch.randn(8, 4),
        "num_training_steps": steps,
        "local_rank": 0,
        "loss_fn_a": lambda out: out.pow(2).mean(),
        "loss_fn_b": lambda out: out.abs().mean(),
    }


@pytest.mark.slow
@pytest.mark.parametrize(ALL, renderings(["single-backward"], frameworks=["pytorch"]))
def test_the_single_backward_loop_runs_one_backward_per_forward(
    torch, key, framework, code, accumulation_steps, scheduler
):
    model = tiny_model(torch, heads=2)
    before = model.trunk.weight.detach().clone()
    namespace = run(code, torch, **free_names(torch, model))
    assert model.events == [("forward", True), ("backward", True)] * 3
    assert not torch.equal(model.trunk.weight, before), "the optimizer stepped"
    if scheduler:
        assert namespace["scheduler"].last_epoch == 3


@pytest.mark.slow
@pytest.mark.parametrize(ALL, renderings(["non-reentrant-checkpointing"], frameworks=["pytorch"]))
def test_the_checkpointing_loop_runs_and_its_block_recomputes_in_the_backward(
    torch, key, framework, code, accumulation_steps, scheduler
):
    model = tiny_model(torch)
    namespace = run(code, torch, **free_names(torch, model))
    assert model.events == [("forward", True), ("backward", True)] * 3
    block = namespace["Block"](torch.nn.Linear(4, 4))
    with torch.no_grad():
        assert block(torch.randn(2, 4)).shape == (2, 4)
    block(torch.randn(2, 4)).sum().backward()
    assert block.layer.weight.grad is not None
    if scheduler:
        assert namespace["scheduler"].last_epoch == 3


@pytest.mark.slow
@pytest.mark.parametrize(
    ALL, renderings(["align-no-sync", "static-graph-off"], frameworks=["pytorch"])
)
def test_the_accumulation_loops_run_each_forward_and_backward_on_the_same_side_of_no_sync(
    torch, monkeypatch, key, framework, code, accumulation_steps, scheduler
):
    wrapped = []

    def ddp(module, **kwargs):
        wrapped.append(kwargs)
        return module

    monkeypatch.setattr(torch.nn.parallel, "DistributedDataParallel", ddp)
    model = tiny_model(torch)
    optimizer_steps = 2
    micro_batches = optimizer_steps * accumulation_steps
    names = free_names(torch, model, steps=optimizer_steps)
    names["dataloader"] = [torch.randn(8, 4) for _ in range(micro_batches)]
    namespace = run(code, torch, **names)

    synchronised = [(i + 1) % accumulation_steps == 0 for i in range(micro_batches)]
    assert model.events == [
        event for sync in synchronised for event in (("forward", sync), ("backward", sync))
    ]
    if scheduler:
        assert namespace["scheduler"].last_epoch == optimizer_steps
    if key == "static-graph-off":
        assert wrapped == [{}]  # DDP's defaults: no static graph
