"""Fix, in Accelerate: the entry's own snippet's one-machine command, `accelerate launch
--num_processes 2` (no second node asked for, no rendezvous to wait on; --multi_gpu is this
machine's line, as it has no GPU), then the snippet itself (Accelerator(), prepare()), rendered
as the wizard renders it, and the script's loop: both processes train, with gradients equal
across ranks at every optimizer step. Run with plain `python -m` (the lab's "spawn" launcher);
under the launcher this module is the worker.
"""

import sys

from tools.repro.accelerate_support import accelerate_snippet_fix
from tools.repro.fw_sysenv_support import accelerate_node
from tools.repro.harness import FIXED, Scenario, launch_without_group, started_by_torchrun
from tools.repro.net_support import run_nodes

SCENARIO = Scenario(
    slug="rendezvous-timeout",
    variant="accelerate-fixed-one-machine-launch",
    description="fix in Accelerate 1.15.0: accelerate launch --num_processes 2 on one machine",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("spawn",),
    snippet=("nodes-that-will-start", "accelerate"),
    preload=("accelerate",),
)
MODULE = "tools.repro.scenarios.fw_accelerate_sysenv_fixed_one_machine_launch"

if __name__ == "__main__":
    if started_by_torchrun():
        launch_without_group(accelerate_snippet_fix(SCENARIO), SCENARIO)
    else:
        command = accelerate_node(MODULE, "--main_process_port", "0", machines=1)
        command[command.index("--num_processes") + 1] = "2"
        sys.exit(run_nodes(command, []))
