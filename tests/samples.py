"""Text the tests paste, shared by several test modules: the seed failure's traceback as
torch 2.13.0 prints it, and made-up secrets in the shapes real ones take (none is a real
credential)."""

ASSERT_LINE = (
    'RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/'
    'torch/csrc/distributed/c10d/reducer.cpp":1732, please report a bug to PyTorch. '
)
TRACEBACK = [
    "Traceback (most recent call last):",
    '  File "/work/train.py", line 43, in main',
    "    loss.backward()",
    '  File "/venv/lib/python3.11/site-packages/torch/_tensor.py", line 623, in backward',
    "    torch.autograd.backward(",
    ASSERT_LINE,
]


def prefixed(rank, lines):
    return [f"[rank{rank}]: {line}" for line in lines]


# Made-up secrets, one per kind the masking rules know.
JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbGljZSJ9.SflKxwRJSMeKKF2QT4fwpMeJf36POk6y"
HF = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567"
AWS_ID = "AKIAIOSFODNN7EXAMPLE"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
GITHUB = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
GITHUB_PAT = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
OPENAI = "sk-proj-Abc123Def456Ghi789Jkl012Mno345"
WANDB = "0123456789abcdef0123456789abcdef01234567"
