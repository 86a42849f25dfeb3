"""What the framework scenarios of the checkpoint entries share (scenarios/fw_*_ckpt2_*.py):
a folder both ranks write their checkpoints in, the user's LightningModules that save and load
them, tiny Hugging Face models saved as a script names them, and a stand-in for the Hub.

The broken files themselves come from ckpt_support (a checkpoint whose storages are tagged
cuda:0, the first half of a file, an HTML page); the models and the gradient checks from
framework_support and lightning_support.

- ``shared_dir()``: the run's own folder, the same on both ranks (Lightning's rank 0 writes the
  checkpoint that every rank then loads), made the current directory.
- ``local_hub(folder)``: an HTTP server on 127.0.0.1 that answers as the Hub does for the files
  of one repository (the HEAD and GET of ``/<repo>/resolve/main/<file>``, with the commit and
  ETag headers huggingface_hub reads), and a cache of this rank's own, so that
  ``from_pretrained("org/model")`` downloads into a real cache and ``force_download=True``
  really fetches again, with nothing leaving the machine.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import torch

from tools.repro.framework_support import arguments_the_script_gives, network, random_batches

WIDE = 64  # trainer_checkpoints_newest_cut's model
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def shared_dir() -> str:
    """A folder of this run, the same for both ranks (named after torchrun's port, which they
    share), made the current directory."""
    path = Path(tempfile.gettempdir()) / f"faultline-ckpt2-{os.environ.get('MASTER_PORT', 'x')}"
    # The workers end with os._exit, which leaves no chance to remove a run's folder: each run
    # removes those of runs that ended a while ago instead.
    for old in path.parent.glob("faultline-ckpt2-*"):
        with contextlib.suppress(OSError):  # the other rank may be removing it too
            if old != path and time.time() - old.stat().st_mtime > 600:
                shutil.rmtree(old, ignore_errors=True)
    path.mkdir(exist_ok=True)
    os.chdir(path)
    return str(path)


def batches(rank: int):
    """This rank's random batches, as a loader."""
    return torch.utils.data.DataLoader(random_batches(rank), batch_size=None)


# --- Lightning -------------------------------------------------------------------------------


def lit_module_class(rank: int, optimized=lambda module: module.parameters(), **hparams):
    """The user's LightningModule: the tiny network (`self.net`), saving its hyperparameters
    (`hparams`, the defaults of its __init__), SGD over `optimized(module)`, this rank's own
    batches as its train_dataloader (for a snippet that calls trainer.fit(model) itself)."""
    import lightning.pytorch as pl

    defaults = dict(hparams)

    class LitModel(pl.LightningModule):
        def __init__(self, **kwargs):
            super().__init__()
            self.save_hyperparameters({**defaults, **kwargs})
            self.net = network()

        def training_step(self, batch, batch_idx):
            loss = self.net(batch).pow(2).mean()
            self.log("train_loss", loss, sync_dist=True)
            return loss

        def validation_step(self, batch, batch_idx):
            self.log("val_loss", self.net(batch).pow(2).mean(), sync_dist=True)

        def configure_optimizers(self):
            return torch.optim.SGD(optimized(self), lr=0.1)

        def train_dataloader(self):
            return batches(rank)

        def val_dataloader(self):
            return batches(rank + 10)

    return LitModel


def classifier_module_class(rank: int):
    """The user's LightningModule with a classification head of `num_classes` outputs, the
    number saved in its hyperparameters (self.classifier)."""
    import lightning.pytorch as pl

    class LitModel(pl.LightningModule):
        def __init__(self, num_classes: int = 10):
            super().__init__()
            self.save_hyperparameters()
            self.body = torch.nn.Linear(4, 16)
            self.classifier = torch.nn.Linear(16, num_classes)

        def training_step(self, batch, batch_idx):
            return self.classifier(self.body(batch).relu()).pow(2).mean()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

        def train_dataloader(self):
            return batches(rank)

    return LitModel


@contextlib.contextmanager
def lightning_machine(world_size: int, **script):
    """pl.Trainer(...) built inside gets the machine (two CPU processes) and what keeps a run
    short and quiet, for the arguments its caller leaves out; unlike
    lightning_support.lightning_on_this_machine it leaves checkpointing on, for the snippets
    that keep checkpoints (`script`: further arguments of the user's script)."""
    import lightning.pytorch as pl

    with arguments_the_script_gives(
        pl.Trainer,
        accelerator="cpu",
        devices=world_size,
        strategy="ddp",
        enable_progress_bar=False,
        enable_model_summary=False,
        logger=False,
        use_distributed_sampler=False,
        **script,
    ):
        yield


def save_lightning_checkpoint(module, world_size: int, path: str = "last.ckpt") -> str:
    """What the earlier run left: `module` fitted one epoch on two CPU processes, its checkpoint
    saved by trainer.save_checkpoint (rank 0 writes it, both wait) at `path`."""
    import lightning.pytorch as pl

    with lightning_machine(world_size, max_epochs=1, enable_checkpointing=False):
        trainer = pl.Trainer()
    trainer.fit(module)
    trainer.save_checkpoint(path)
    return path


def fit_checked(module, world_size: int, steps: list | None = None, **script):
    """Fit `module` (on its own data) with a Trainer of the script (`script`: max_epochs, a
    ckpt_path for fit...), asserting equal gradients across ranks at every optimizer step;
    returns the steps."""
    import lightning.pytorch as pl

    from tools.repro.lightning_support import gradient_check

    steps = [] if steps is None else steps
    ckpt_path = script.pop("ckpt_path", None)
    script = {"max_epochs": 1, "enable_checkpointing": False, **script}
    with lightning_machine(world_size, **script):
        trainer = pl.Trainer(callbacks=[gradient_check(steps)])
    trainer.fit(module, ckpt_path=ckpt_path)
    return steps


# --- Hugging Face models ---------------------------------------------------------------------


def tiny_bert_classifier(num_labels: int = 10, hidden_size: int = 8):
    """A BERT for sequence classification from a small config (nothing downloaded)."""
    from transformers import BertConfig, BertForSequenceClassification

    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=32,
        hidden_size=hidden_size,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=2 * hidden_size,
        max_position_embeddings=16,
        num_labels=num_labels,
    )
    return BertForSequenceClassification(config)


def classification_dataset(rank: int, num_labels: int, count: int = 16):
    """Token rows and a class label each, different on every rank."""
    generator = torch.Generator().manual_seed(rank)
    return [
        {
            "input_ids": torch.randint(0, 32, (8,), generator=generator),
            "labels": torch.randint(0, num_labels, (), generator=generator),
        }
        for _ in range(count)
    ]


class HiddenStateLoss(torch.nn.Module):
    """A bare transformer (AutoModel's, without a head) trained on the mean square of its
    hidden states: what the Trainer needs of a model, a loss in the output."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, labels=None):
        hidden = self.model(input_ids=input_ids).last_hidden_state
        return {"loss": hidden.pow(2).mean()}


def gradient_callback(steps: list):
    """A TrainerCallback asserting equal gradients across ranks before every optimizer step of
    the Trainer's model, counting the steps into `steps`."""
    from transformers import TrainerCallback

    from tools.repro.harness import grads_match_across_ranks

    class CheckGradients(TrainerCallback):
        def on_pre_optimizer_step(self, args, state, control, model=None, **kwargs):
            assert grads_match_across_ranks(model), f"step {state.global_step}: gradients differ"
            steps.append(state.global_step)

    return CheckGradients()


@contextlib.contextmanager
def trainers_checked(steps: list):
    """Every Trainer built inside (by a snippet, say) checks its gradients at each optimizer
    step (gradient_callback), as the lab's own runs do."""
    from transformers import Trainer

    with arguments_the_script_gives(Trainer, callbacks=[gradient_callback(steps)]):
        yield


class LateTrainer:
    """The script's `trainer`, for a snippet that builds the TrainingArguments and then calls
    trainer.train(...): built when the snippet trains, with the arguments it built last
    (`built`, filled by recording_arguments) and the script's model and data."""

    def __init__(self, built: list, **script):
        self.built, self.script = built, script

    def train(self, **kwargs):
        from transformers import Trainer

        return Trainer(args=quiet(self.built[-1]), **self.script).train(**kwargs)


@contextlib.contextmanager
def recording_arguments(built: list, **script):
    """TrainingArguments built inside are appended to `built`, with `script` (what the user's
    script sets besides: max_steps, ...) for the arguments their caller leaves out; on this
    machine with use_cpu=True (framework_support.hf_trainer_on_this_machine)."""
    from transformers import TrainingArguments

    original = TrainingArguments.__init__

    def __init__(self, *args, **kwargs):
        original(self, *args, **{"use_cpu": True, **script, **kwargs})
        built.append(self)

    TrainingArguments.__init__ = __init__
    try:
        yield
    finally:
        TrainingArguments.__init__ = original


def quiet(args):
    """What keeps a Trainer run short and quiet, set on the script's TrainingArguments."""
    args.report_to = []
    args.per_device_train_batch_size = 2
    args.disable_tqdm = True
    return args


# --- A stand-in for the Hub ------------------------------------------------------------------


def _etag(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@contextlib.contextmanager
def local_hub(folder: str, repo_id: str = "org/model"):
    """Serve the files of `folder` as the Hub serves repository `repo_id` at main, on
    127.0.0.1, and point huggingface_hub at it, with a fresh cache of this process's own (in the
    current directory).
    Yields the cache folder. Counts the downloads of each file in `local_hub.downloads`."""
    from huggingface_hub import constants

    root = Path(folder)
    prefix = f"/{repo_id}/resolve/main/"
    downloads = {}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):  # the server's log is not the user's output
            pass

        def _answer(self, body: bool):
            name = self.path.split("?")[0]
            path = root / name[len(prefix) :] if name.startswith(prefix) else None
            if path is None or not path.is_file():
                self.send_response(404)
                self.send_header("X-Error-Code", "EntryNotFound")
                self.send_header("X-Repo-Commit", COMMIT)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            data = path.read_bytes()
            self.send_response(200)
            self.send_header("X-Repo-Commit", COMMIT)
            self.send_header("ETag", f'"{_etag(path)}"')
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if body:
                downloads[path.name] = downloads.get(path.name, 0) + 1
                self.wfile.write(data)

        def do_HEAD(self):
            self._answer(body=False)

        def do_GET(self):
            self._answer(body=True)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    endpoint = f"http://127.0.0.1:{server.server_address[1]}"
    cache = tempfile.mkdtemp(prefix="hf-cache-", dir=os.getcwd())
    saved = {
        name: getattr(constants, name)
        for name in ("ENDPOINT", "HUGGINGFACE_CO_URL_TEMPLATE", "HF_HUB_CACHE", "HF_HUB_OFFLINE")
    }
    constants.ENDPOINT = endpoint
    constants.HUGGINGFACE_CO_URL_TEMPLATE = endpoint + "/{repo_id}/resolve/{revision}/{filename}"
    constants.HF_HUB_CACHE = cache
    constants.HF_HUB_OFFLINE = False
    local_hub.downloads = downloads
    try:
        yield cache
    finally:
        for name, value in saved.items():
            setattr(constants, name, value)
        server.shutdown()


def cached_blob(cache: str, filename: str, repo_id: str = "org/model") -> Path:
    """The file of the cache that `filename` of the repository links to (what a broken
    download leaves broken)."""
    folder = Path(cache) / f"models--{repo_id.replace('/', '--')}" / "snapshots" / COMMIT
    return (folder / filename).resolve()


@contextlib.contextmanager
def damaged_hub_download(rank: int, filename: str, damage):
    """The Hub repository org/model (framework_support.tiny_gpt2's transformer, the bare
    GPT2Model, its weights as `filename`: pytorch_model.bin or model.safetensors) served by
    local_hub and downloaded once with from_pretrained, after which `damage(path)` breaks the
    cached file, as an interrupted or mangled download leaves it. Yields the saved model."""
    from transformers import AutoModel

    from tools.repro.framework_support import tiny_gpt2

    repo = Path(tempfile.mkdtemp(prefix=f"hub-repo-rank{rank}-", dir=os.getcwd()))
    saved = tiny_gpt2().transformer
    saved.config.save_pretrained(repo)
    if filename.endswith(".safetensors"):
        from safetensors.torch import save_file

        save_file(saved.state_dict(), repo / filename)
    else:
        torch.save(saved.state_dict(), repo / filename)
    with local_hub(str(repo)) as cache:
        AutoModel.from_pretrained("org/model")
        damage(str(cached_blob(cache, filename)))
        yield saved


def redownload_fix(scenario, filename: str, damage):
    """The `main` of a fixed Trainer scenario whose snippet loads org/model again over the
    cached `filename` that `damage` broke (damaged_hub_download): it must download the file a
    second time and load the saved weights, which the Trainer then trains."""
    from tools.repro.framework_support import report_equal_gradients
    from tools.repro.snippets import fix_snippet, run_snippet

    def main(rank, world_size):
        shared_dir()
        with damaged_hub_download(rank, filename, damage) as saved:
            model = run_snippet(fix_snippet(scenario.slug, *scenario.snippet))["model"]
            assert local_hub.downloads[filename] == 2, local_hub.downloads
        assert torch.equal(model.wte.weight, saved.wte.weight)
        if rank == 0:
            print(f"{filename} downloaded again; the model loads")
        report_equal_gradients(train_bare_model(model, rank), rank)

    return main


def train_bare_model(model, rank: int) -> list:
    """Train the bare transformer (HiddenStateLoss) a few steps with the Trainer, asserting
    equal gradients across ranks at every optimizer step; returns the steps."""
    from transformers import Trainer, TrainingArguments

    from tools.repro.framework_support import hf_trainer_on_this_machine, token_dataset

    with hf_trainer_on_this_machine():
        args = TrainingArguments(
            output_dir=f"out-rank{rank}", ddp_backend="gloo", max_steps=4, save_strategy="no"
        )
    steps = []
    Trainer(
        model=HiddenStateLoss(model),
        args=quiet(args),
        train_dataset=token_dataset(rank),
        callbacks=[gradient_callback(steps)],
    ).train()
    return steps


def cut_in_half(path: str, fraction: float = 0.5) -> None:
    """Leave only the first half (or `fraction`) of the file at `path` (ckpt_support.truncate,
    in place)."""
    from tools.repro.ckpt_support import truncate

    truncate(path, path + ".half", fraction)
    os.replace(path + ".half", path)


def trainer_checkpoint_with_frozen_body(rank: int) -> str:
    """What the earlier run left: a tiny 2-label BERT trained two steps by the Trainer with its
    body frozen (only the classifier in the optimizer's groups), its checkpoint saved at
    out/checkpoint-2 in the shared folder (rank 0 writes, both wait)."""
    import torch.distributed as dist
    from transformers import Trainer, TrainingArguments

    from tools.repro.framework_support import hf_trainer_on_this_machine

    model = tiny_bert_classifier(num_labels=2)
    for parameter in model.bert.parameters():
        parameter.requires_grad_(False)
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", ddp_backend="gloo", max_steps=2, save_steps=2)
    Trainer(model=model, args=quiet(args), train_dataset=classification_dataset(rank, 2)).train()
    dist.barrier()
    return "out/checkpoint-2"


def resume_args(max_steps: int):
    from transformers import TrainingArguments

    from tools.repro.framework_support import hf_trainer_on_this_machine

    with hf_trainer_on_this_machine():
        args = TrainingArguments(
            output_dir="out", ddp_backend="gloo", max_steps=max_steps, save_strategy="no"
        )
    return quiet(args)


def trainer_checkpoints_newest_cut(rank: int) -> None:
    """What the earlier run left: a tiny 2-label BERT trained four steps by the Trainer with
    save_steps=2 and save_total_limit=2 (out/checkpoint-2 and out/checkpoint-4, rank 0 writes),
    then the newest checkpoint's optimizer.pt cut to half its size, as a save interrupted while
    writing it leaves it. The model is 64 wide, so that the half is over 64 kB: torch 2.13.0
    reads a zip archive cut to between about 4 and 64 kB as "OSError: [Errno 22] Invalid
    argument" rather than "failed finding central directory"."""
    import torch.distributed as dist
    from transformers import Trainer, TrainingArguments

    from tools.repro.framework_support import hf_trainer_on_this_machine

    with hf_trainer_on_this_machine():
        args = TrainingArguments(
            output_dir="out", ddp_backend="gloo", max_steps=4, save_steps=2, save_total_limit=2
        )
    model = tiny_bert_classifier(num_labels=2, hidden_size=WIDE)
    Trainer(model=model, args=quiet(args), train_dataset=classification_dataset(rank, 2)).train()
    dist.barrier()
    if rank == 0:
        cut_in_half("out/checkpoint-4/optimizer.pt")
    dist.barrier()


def accelerate_saved_state(rank: int, path: str = "checkpoints/step_500", **save):
    """What the earlier run left: MeanSquare(network()) and SGD prepared by an Accelerator on
    two CPU processes, trained on this rank's batches, its state written by save_state at `path`
    in the shared folder (`save`: save_state's options). Returns the trained weights
    (unwrapped)."""
    from accelerate import Accelerator

    from tools.repro.accelerate_support import (
        accelerate_names,
        accelerate_on_this_machine,
        accelerate_train,
    )

    script = accelerate_names(rank)
    with accelerate_on_this_machine():
        accelerator = Accelerator()
    prepared = accelerator.prepare(script["model"], script["optimizer"], script["dataloader"])
    accelerate_train(accelerator, *prepared)
    accelerator.save_state(path, **save)
    accelerator.wait_for_everyone()
    return {k: v.clone() for k, v in accelerator.unwrap_model(prepared[0]).state_dict().items()}


def accelerate_load_damaged_state(rank: int, damaged: str, damage, **save) -> None:
    """The broken Accelerate resume: the earlier run's state (accelerate_saved_state, `save`:
    save_state's options), its file `damaged` damaged by `damage(path)` on rank 0, then the
    script's prepare and load_state of the folder, which must fail."""
    from accelerate import Accelerator

    from tools.repro.accelerate_support import accelerate_names, accelerate_on_this_machine

    accelerate_saved_state(rank, **save)
    script = accelerate_names(rank)
    with accelerate_on_this_machine():
        accelerator = Accelerator()
    if rank == 0:
        damage(damaged)
    accelerator.wait_for_everyone()
    accelerator.prepare(script["model"], script["optimizer"])
    accelerator.load_state(os.path.dirname(damaged))
    print(f"rank {rank}: never reached")


def three_output_network():
    """framework_support.network with its last layer resized from 1 output to 3: the head a
    user changes after saving (num_classes 1 -> 3)."""
    torch.manual_seed(1)
    return torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))


def accelerate_numbered_states(rank: int, saves: int = 3) -> dict:
    """What the earlier run left, saved as checkpoint-truncated-zip's Accelerate snippet
    configures it (ProjectConfiguration(project_dir="out", automatic_checkpoint_naming=True,
    total_limit=2)): MeanSquare(network()) and SGD trained on this rank's batches, save_state()
    after each of `saves` epochs (out/checkpoints/checkpoint_0, _1, _2; Accelerate deletes the
    oldest beyond two), then the newest folder's optimizer.bin cut to half its size, as a save
    interrupted while writing it leaves it. Returns {folder name: the weights saved there}."""
    from accelerate import Accelerator
    from accelerate.utils import ProjectConfiguration

    from tools.repro.accelerate_support import (
        accelerate_names,
        accelerate_on_this_machine,
        accelerate_train,
    )

    script = accelerate_names(rank)
    with accelerate_on_this_machine():
        accelerator = Accelerator(
            project_config=ProjectConfiguration(
                project_dir="out", automatic_checkpoint_naming=True, total_limit=2
            )
        )
    prepared = accelerator.prepare(script["model"], script["optimizer"], script["dataloader"])
    weights = {}
    for epoch in range(saves):
        accelerate_train(accelerator, *prepared)
        accelerator.save_state()
        accelerator.wait_for_everyone()
        state = accelerator.unwrap_model(prepared[0]).state_dict()
        weights[f"checkpoint_{epoch}"] = {k: v.clone() for k, v in state.items()}
    kept = sorted(os.listdir("out/checkpoints"))
    assert kept == [f"checkpoint_{saves - 2}", f"checkpoint_{saves - 1}"], kept
    if rank == 0:
        cut_in_half(f"out/checkpoints/checkpoint_{saves - 1}/optimizer.bin")
    accelerator.wait_for_everyone()
    return weights


def accelerate_restore_and_train(scenario, rank: int, saved: dict, done: str) -> None:
    """The rest of a fixed Accelerate scenario whose snippet builds the Accelerator, prepares
    the script's model and optimizer and loads a saved state: a model built afresh (other
    weights than `saved`) is restored to `saved` by the snippet (printing `done` on rank 0),
    then trains on this rank's batches with equal gradients across ranks at every step."""
    from tools.repro.accelerate_support import (
        MeanSquare,
        accelerate_names,
        accelerate_on_this_machine,
        accelerate_train,
    )
    from tools.repro.framework_support import report_equal_gradients
    from tools.repro.harness import check_every_optimizer_step
    from tools.repro.snippets import fix_snippet, run_snippet

    torch.manual_seed(1)
    model = MeanSquare(
        torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    )
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_every_optimizer_step(model)
    with accelerate_on_this_machine():
        names = run_snippet(
            fix_snippet(scenario.slug, *scenario.snippet), model=model, optimizer=optimizer
        )
    accelerator = names["accelerator"]
    loaded = accelerator.unwrap_model(names["model"]).state_dict()
    assert all(torch.equal(loaded[k], v) for k, v in saved.items()), "weights not restored"
    if rank == 0:
        print(done)
    dataloader = accelerator.prepare(accelerate_names(rank)["dataloader"])
    accelerate_train(accelerator, names["model"], names["optimizer"], dataloader)
    report_equal_gradients(steps, rank)


def accelerate_refused_then_restored(
    scenario, rank: int, damaged: str, damage, values=None, **save
):
    """The `main` of a fixed Accelerate scenario whose snippet checks a state folder and then
    calls load_state: the earlier run's state (accelerate_saved_state, `save`: save_state's
    options), its file `damaged` damaged by `damage(path)` on rank 0, the real one kept aside.
    The entry's snippet (rendered with `values`), after prepare of an untrained model, must
    refuse the folder (rank 0 prints why); with the real file back, it restores the saved weights
    ("load_state restored the saved weights") and the model trains with gradients equal across
    ranks at every optimizer step."""
    from accelerate import Accelerator

    from tools.repro.accelerate_support import (
        accelerate_names,
        accelerate_on_this_machine,
        accelerate_train,
    )
    from tools.repro.framework_support import report_equal_gradients
    from tools.repro.harness import check_every_optimizer_step
    from tools.repro.snippets import fix_snippet, run_snippet

    saved = accelerate_saved_state(rank, **save)
    script = accelerate_names(rank)  # untrained: other weights than the saved ones
    with accelerate_on_this_machine():
        accelerator = Accelerator()
    if rank == 0:
        shutil.copy(damaged, "real-copy")
        damage(damaged)
    accelerator.wait_for_everyone()
    model, optimizer, dataloader = accelerator.prepare(
        script["model"], script["optimizer"], script["dataloader"]
    )
    unwrapped = accelerator.unwrap_model(model)
    assert not all(torch.equal(unwrapped.state_dict()[k], v) for k, v in saved.items())
    code = fix_snippet(scenario.slug, *scenario.snippet, **(values or {}))
    try:
        run_snippet(code, accelerator=accelerator)
        raise AssertionError(f"the snippet loaded the damaged {damaged}")
    except ValueError as refused:
        if rank == 0:
            print(refused)
    accelerator.wait_for_everyone()
    if rank == 0:
        shutil.move("real-copy", damaged)  # fetched again
    accelerator.wait_for_everyone()
    run_snippet(code, accelerator=accelerator)
    loaded = unwrapped.state_dict()
    assert all(torch.equal(loaded[k], v) for k, v in saved.items()), "weights not restored"
    if rank == 0:
        print("load_state restored the saved weights")
    steps = check_every_optimizer_step(unwrapped)
    accelerate_train(accelerator, model, optimizer, dataloader)
    report_equal_gradients(steps, rank)
