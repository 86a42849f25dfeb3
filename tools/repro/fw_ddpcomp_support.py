"""What the framework scenarios of ddp-torch-compile's DDPOptimizer split share (fw_*_ddpcomp_*):
Lightning 2.6.6, the Hugging Face Trainer of transformers 5.24.0 and Accelerate 1.15.0 compiling a
DDP model on torch 2.13.0, two CPU processes.

DDPOptimizer splits a compiled graph where DDP's gradient buckets end, and its first bucket takes
1 MiB of parameters (torch.distributed._DEFAULT_FIRST_BUCKET_BYTES): framework_support's network
(under 1 KiB) fits in it and compiles whole whatever optimize_ddp says. wide_network holds just
over 1 MiB, so DDP's default buckets cut it in two. A smaller bucket_cap_mb cannot stand in for
the size: below 1 MiB, DDPOptimizer refuses it ("First bucket should be smaller/equal to other
buckets", torch/_dynamo/backends/distributed.py).

The graphs are compiled by an eager backend that counts them, whatever backend the framework
passes ("inductor" in the Trainer's torch_compile and in Accelerate's dynamo_backend): Inductor's
C++ compilation of each graph takes over a minute of the lab's 2 shared cores, and DDPOptimizer
splits the graph before the backend sees it, then hands each piece to the backend in turn.
"""

from __future__ import annotations

import contextlib
import functools

import torch
import torch.nn as nn

LAYERS = 3  # the Linear layers of wide_network


def wide_network() -> nn.Module:
    """framework_support's network, 512 wide: the middle layer's 1 MiB fills DDP's first bucket."""
    torch.manual_seed(0)
    return nn.Sequential(
        nn.Linear(4, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 1)
    )


class Compilations:
    """What compiling the training step made of it, recorded while `traced()` is active: the
    linear layers of each graph the backend compiled, and the buckets of each graph DDPOptimizer
    split (torch/_dynamo/backends/distributed.py, DDPOptimizer.compile_fn)."""

    def __init__(self):
        self.layers_per_graph = []
        self.splits = []

    def backend(self, gm, example_inputs):
        """The eager backend, counting the graph's linear layers (graphs without any are DDP's
        own forward, around the model, when the framework compiles the DDP wrapper)."""
        layers = sum(node.target is torch._C._nn.linear for node in gm.graph.nodes)
        if layers:
            self.layers_per_graph.append(layers)
        return gm.forward

    @contextlib.contextmanager
    def traced(self):
        """torch.compile(...) inside the block compiles with `backend`, and DDPOptimizer's splits
        are counted; the block must cover the training, where the compiled step first runs."""
        from torch._dynamo.backends.distributed import DDPOptimizer

        original_compile, original_split = torch.compile, DDPOptimizer.compile_fn

        @functools.wraps(original_compile)
        def compile_counted(*args, **kwargs):
            return original_compile(*args, **{**kwargs, "backend": self.backend})

        @functools.wraps(original_split)
        def split_counted(optimizer, gm, example_inputs, **configs):
            compiled = original_split(optimizer, gm, example_inputs, **configs)
            self.splits.append(len(optimizer.buckets))
            return compiled

        torch.compile, DDPOptimizer.compile_fn = compile_counted, split_counted
        try:
            yield
        finally:
            torch.compile, DDPOptimizer.compile_fn = original_compile, original_split

    def report_split(self, rank: int) -> None:
        """The broken runs: DDPOptimizer cut every compiled step, so no graph holds the whole
        model."""
        assert self.splits and min(self.splits) > 1, f"DDPOptimizer did not split: {self.splits}"
        assert max(self.layers_per_graph) < LAYERS, f"one graph: {self.layers_per_graph}"
        if rank == 0:
            print(
                f"DDPOptimizer split the compiled step into {self.splits[0]} graphs"
                f" (linear layers per graph: {self.layers_per_graph[: self.splits[0]]})"
            )

    def report_whole(self, rank: int) -> None:
        """The fixed runs: DDPOptimizer never ran, and one graph holds the whole model."""
        assert not self.splits, f"DDPOptimizer split the graph: {self.splits}"
        assert LAYERS in self.layers_per_graph, f"not one graph: {self.layers_per_graph}"
        if rank == 0:
            print(f"no DDPOptimizer split: the {LAYERS} linear layers compiled as one graph")
