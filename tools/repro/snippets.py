"""The fix a user would copy, for the lab's fixed runs: an entry's snippet, read from its file
under fixtures/ and rendered the way the wizard renders it, so that a fixed scenario runs the
code the knowledge base shows rather than a hand-written twin of it.

    from tools.repro.snippets import fix_snippet, run_snippet

    CODE = fix_snippet("dist-init-twice", "init-once")                 # plain PyTorch
    CODE = fix_snippet(SLUG, "align-no-sync", accumulation_steps="4")  # as the wizard's query
    run_snippet(CODE, model=model, dataloader=batches, optimizer=optimizer)

A scenario names the snippet it runs in its SCENARIO (`snippet=(fix key, framework)`), which is
how the lab's tests know which fixes have been run for real.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
TAXONOMY = REPO_ROOT / "fixtures"


@cache
def taxonomy():
    """The entries by slug, and every family's tailoring variables, read from the files."""
    from kb.snippets import variables_from
    from kb.taxonomy.reading import read_taxonomy

    taxonomy = read_taxonomy(TAXONOMY)
    entries = {source.document["slug"]: source.document for source in taxonomy.entries}
    variables = variables_from(v for f in taxonomy.families for v in f.document["variables"])
    return entries, variables


def fix_snippet(slug: str, fix: str, framework: str = "pytorch", **answers: str) -> str:
    """The snippet of the entry's `fix` for `framework`, rendered with `answers` (each
    variable's value as the wizard's query carries it, e.g. accumulation_steps="8",
    scheduler="no") and the family's defaults for the rest."""
    _configure_django()
    from kb.snippets import render_snippet

    entries, variables = taxonomy()
    fixes = {f["key"]: f for f in entries[slug]["fixes"]}
    snippets = {s["framework"]: s for s in fixes[fix]["snippets"]}
    return render_snippet(snippets[framework]["code"], variables, answers)


# Every DDP model a snippet built, kept until the process ends (see run_snippet).
_KEPT = []


def run_snippet(code: str, **names) -> dict:
    """Execute the snippet with `names` as the script around it would define them (the model,
    the data, the optimizer); returns its namespace.

    The DDP models it builds live until the process ends. A snippet may destroy the process
    group and drop its model inside a function of its own; freeing the model then frees the
    group's last reference, and on torch 2.13.0 that deadlocks now and then (~ProcessGroupGloo,
    holding the GIL, joins gloo's thread, which waits for the GIL to free a finished
    collective's tensors). The lab's workers end with os._exit, so nothing frees them. The
    snippet's own functions may build their DDP after this returns (a `worker` the scenario
    calls): the class they imported while it ran is the keeping one.

    A model built before the snippet ran is still a DistributedDataParallel to isinstance checks
    made while it runs: Accelerate's unwrap_model looks the class up in torch.nn.parallel each
    time, and with a plain subclass there it returned such a model still wrapped."""
    import torch.nn.parallel as parallel

    original = parallel.DistributedDataParallel

    class AnyDDP(type(original)):
        def __instancecheck__(cls, instance):
            return isinstance(instance, original)

    class KeptDDP(original, metaclass=AnyDDP):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            _KEPT.append(self)

    namespace = dict(names)
    parallel.DistributedDataParallel = KeptDDP
    try:
        exec(compile(code, "<snippet>", "exec"), namespace)  # noqa: S102: the lab's own content
    finally:
        parallel.DistributedDataParallel = original
    return namespace


def definitions(code: str, *names: str) -> dict:
    """The functions `names` a snippet defines, with the imports they use and nothing else
    it runs: what a user copies from one form of a fix into another that refers to them (the
    Lightning form's `collate_fn=pad_collate` is the plain form's pad_collate)."""
    import ast

    tree = ast.parse(code)
    kept = [
        node
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
        or (isinstance(node, ast.FunctionDef) and node.name in names)
    ]
    namespace = {}
    exec(compile(ast.Module(kept, []), "<snippet>", "exec"), namespace)  # noqa: S102
    missing = set(names) - set(namespace)
    assert not missing, f"the snippet defines no {sorted(missing)}"
    return {name: namespace[name] for name in names}


def run_fix_on_linear_model(scenario, rank: int):
    """The setting most fixed runs give their entry's snippet: the same `LinearLoss` and SGD on
    every rank, three batches of this rank's own data, and `check_each_step` asserting equal
    gradients before each step counts. Returns the model, the snippet's namespace and the
    steps counted so far (a snippet that only defines a worker trains when the caller runs it)."""
    import torch

    from tools.repro.harness import check_each_step
    from tools.repro.models import LinearLoss

    torch.manual_seed(0)
    model = LinearLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_each_step(optimizer, model)
    torch.manual_seed(rank)
    batches = [torch.randn(8, 4) for _ in range(3)]
    code = fix_snippet(scenario.slug, *scenario.snippet)
    names = run_snippet(code, model=model, dataloader=batches, optimizer=optimizer)
    return model, names, steps


def _configure_django():
    """Rendering a template reads a few settings (number formatting): a scenario is no site."""
    from django.conf import settings

    if not settings.configured:
        settings.configure(USE_I18N=False)
