"""Print a Faultline link under every uncaught exception of a training job.

Import it at the top of a training script (or call `faultline_hook.install()`):

    import faultline_hook  # noqa: F401

When the job dies of an uncaught exception, Python prints the traceback as usual and this module
then prints one more line to standard error:

    Faultline: http://faultline.internal/go?q=RuntimeError%3A%20expect_autograd_hooks_...

The address comes from the environment variable `FAULTLINE_URL`; when it is unset or empty,
nothing extra is printed. The query is the exception's `Type: message` (its first line, at most
`MAX_CHARS` characters), masked so that nothing private leaves the machine: paths keep only their
last component, and addresses, numbers, hex values, long ids, e-mail addresses and home
directory and user names are replaced by placeholders. Nothing is sent anywhere: the link is
only printed, and opening it is up to whoever reads the log.

Launchers:
- `torchrun` runs the script in one process per rank, each with its own `sys.excepthook`, so every
  rank that dies prints its own link.
- `torch.multiprocessing.spawn` catches the exception in the child, sends its traceback to the
  parent and raises `ProcessRaisedException` there, whose message holds the child's traceback.
  The parent's hook links the child's root error: the last `SomeError: message` line of that
  message.

Only the Python standard library is used (the module runs inside training jobs, where the
project's dependencies are not installed), and the hook never raises: a bug here must not hide
the user's traceback. KeyboardInterrupt and SystemExit get no link.
"""

import getpass
import os
import re
import sys
import threading
from urllib.parse import quote

ENV_VAR = "FAULTLINE_URL"
MAX_CHARS = 300
MASK_WINDOW = 4000  # masked before it is cut to MAX_CHARS, so a cut never splits a private name
MAX_SCANNED_CHARS = 100_000  # of a wrapper's message, when looking for the child's error
PREFIX = "Faultline: "
WRAPPERS = ("ProcessRaisedException", "ChildFailedError")  # report another process's failure
TRACEBACK_HEADER = "Traceback (most recent call last):"
ERROR_SUFFIXES = ("Error", "Exception", "Interrupt", "Exit", "Failure")
PLACEHOLDERS = {"path", "hex", "addr", "id", "n", "email", "home", "user"}

# Python's `re`, not RE2, but the same rules as kb/diagnosis/mask.py (kept in step by the tests),
# preceded by what is private rather than variable: e-mail addresses and home directories.
_FLAGS = re.ASCII
_PRIVATE = [
    (re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", _FLAGS), "<email>"),
    # A home directory that ends the path: the path rule below would keep the user name.
    (
        re.compile(r"(?:[A-Za-z]:)?[/\\](?:home|Users)[/\\][^/\\\s\"':,;()<>]+(?![^\s\"':,;()<>])"),
        "<home>",
    ),
    (re.compile(r"(?<![\w~])~[A-Za-z_][\w.-]*(?![\w.~/\\-])", _FLAGS), "~<user>"),
]
_RULES = [
    (re.compile(r"(?:[A-Za-z]:)?(?:[\w.~+-]*[/\\])+([\w.+-]+)", _FLAGS), r"<path>/\1"),
    (re.compile(r"\b0x[0-9a-fA-F]+\b", _FLAGS), "<hex>"),
    (re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b", _FLAGS), "<addr>"),
    (re.compile(r"\b[0-9a-f]{12,}\b", _FLAGS), "<id>"),
    (re.compile(r"\d+(?:\.\d+)?", _FLAGS), "<n>"),
]


def _local_user():
    """The account running the job, masked wherever it still appears as a word."""
    try:
        user = getpass.getuser()
    except Exception:
        return None
    if len(user) < 3 or user == "root" or user.lower() in PLACEHOLDERS:
        return None
    return re.compile(rf"(?<![\w<]){re.escape(user)}(?![\w>])")


_USER = _local_user()


def mask(text):
    """`text` with paths, addresses, numbers and private names replaced by placeholders."""
    for pattern, replacement in _PRIVATE + _RULES:
        text = pattern.sub(replacement, text)
    if _USER is not None:
        text = _USER.sub("<user>", text)
    return text


def _exception_head(line):
    """`pkg.SomeError: message` → "pkg.SomeError: message", or None (as kb/diagnosis/parse.py)."""
    if not line or line[0] in " \t":
        return None
    name, colon, _ = line.partition(":")
    if len(name) > 200 or " " in name:
        return None
    if not colon and not name.endswith(ERROR_SUFFIXES):
        return None
    parts = name.split(".")
    if not all(part.isidentifier() for part in parts) or not parts[-1][:1].isupper():
        return None
    return name


def _child_error(message):
    """The last `SomeError: message` line of a wrapper's message (the child's root error),
    with the type's module path removed."""
    heads, errors = [], []
    for line in message[-MAX_SCANNED_CHARS:].splitlines():
        name = _exception_head(line)
        if name:
            short = name.rsplit(".", 1)[-1]
            heads.append(short + line.strip()[len(name) :])
            if short.endswith(ERROR_SUFFIXES):
                errors.append(heads[-1])
    return (errors or heads or [None])[-1]


def _first_line(message):
    for line in message.splitlines():
        if line.strip():
            return line.strip()
    return ""


def failure_text(exc):
    """`Type: first line of the message`, unmasked; a wrapper's child error if there is one."""
    name = type(exc).__name__
    try:
        message = str(exc)
    except Exception:  # a broken __str__ must not cost the link
        message = ""
    if name in WRAPPERS or TRACEBACK_HEADER in message:
        child = _child_error(message)
        if child:
            return child
    first = _first_line(message[:MAX_SCANNED_CHARS])
    return f"{name}: {first}" if first else name


def link_for(exc):
    """The Faultline link for `exc`, or None when FAULTLINE_URL is unset."""
    base = os.environ.get(ENV_VAR, "").strip().rstrip("/")
    if not base:
        return None
    text = failure_text(exc)
    if len(text) > MASK_WINDOW:
        text = text[:MASK_WINDOW].rsplit(None, 1)[0]
    query = mask(text)[:MAX_CHARS]
    return f"{base}/go?q={quote(query, errors='replace')}"


def _report(exc):
    try:
        if not isinstance(exc, Exception) or sys.stderr is None:
            return
        link = link_for(exc)
        if link:
            print(PREFIX + link, file=sys.stderr, flush=True)
    except Exception:  # the traceback printed above matters more than the link
        pass


def _sys_hook(previous):
    def hook(exc_type, exc, tb):
        try:
            previous(exc_type, exc, tb)
        finally:
            _report(exc)

    hook.faultline_previous = previous
    return hook


def _thread_hook(previous):
    def hook(args):
        try:
            previous(args)
        finally:
            _report(args.exc_value)

    hook.faultline_previous = previous
    return hook


def install():
    """Chain the hooks onto `sys.excepthook` and `threading.excepthook`; twice is once."""
    if not hasattr(sys.excepthook, "faultline_previous"):
        sys.excepthook = _sys_hook(sys.excepthook)
    if not hasattr(threading.excepthook, "faultline_previous"):
        threading.excepthook = _thread_hook(threading.excepthook)


def uninstall():
    """Restore the previous hooks (only where ours is still the outermost one)."""
    if hasattr(sys.excepthook, "faultline_previous"):
        sys.excepthook = sys.excepthook.faultline_previous
    if hasattr(threading.excepthook, "faultline_previous"):
        threading.excepthook = threading.excepthook.faultline_previous


install()
