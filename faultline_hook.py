"""Print a Faultline link under every uncaught exception of a training job.

Import it at the top of a training script (or call `faultline_hook.install()`):

    import faultline_hook  # noqa: F401

When the job dies of an uncaught exception, Python prints the traceback as usual and this module
then prints one more line to standard error:

    Faultline: http://faultline.internal/go?q=RuntimeError%3A%20expect_autograd_hooks_...

The address comes from the environment variable `FAULTLINE_URL`; when it is unset or empty,
nothing extra is printed. The query is the exception's `Type: message` (its first line, at most
`MAX_CHARS` characters), masked so that nothing private leaves the machine: credentials in URLs,
bearer tokens, API keys and `password=`/`token=` values, e-mail addresses, home directories and
user names, then addresses, numbers, hex values and long ids are replaced by placeholders, and
paths keep only their last component. The server masks with the same rules (`MASK_RULES`).
Nothing is sent anywhere: the link is only printed, and opening it is up to whoever reads the log.

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
# Exceptions that only report another failure: the short names of the shipped families'
# `wrapper_exceptions` (their family.yaml files, which this hook, copied alone into a training
# job, cannot read; a test keeps them equal).
WRAPPERS = ("ProcessRaisedException", "ProcessExitedException", "ChildFailedError", "SystemError")
TRACEBACK_HEADER = "Traceback (most recent call last):"
ERROR_SUFFIXES = ("Error", "Exception", "Interrupt", "Exit", "Failure")
PLACEHOLDERS = {"path", "hex", "addr", "id", "n", "email", "home", "user", "secret", "token"}


def _any_case(word):
    """`word` in any mix of cases, spelled out: `(?i)` would also fold non-ASCII letters in RE2
    (ſ is an s there) but not in Python's `re` with re.ASCII."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in word)


_SPACE = r" \t\n\r\f\v"  # spelled out: RE2's \s leaves out \v
_SECRET_NAMES = "|".join(
    _any_case(word)
    for word in (
        "password", "passwd", "secret", "secret_key", "secretkey", "api_key", "apikey",
        "access_key", "accesskey", "private_key", "privatekey",
    )
)  # fmt: skip
# "token" alone, with a prefix that says it is a credential, or in an environment variable:
# not pad_token, eos_token and the other tokenizer settings that fill ML error messages.
_TOKEN_NAMES = (
    r"(?:auth_|access_|api_|hf_|refresh_|session_|bearer_)?token"
    r"|(?:auth|access|api|refresh|session)Token|[A-Za-z0-9_]*TOKEN|Token"
)
# An assignment to a secret up to its "=" or ":", opening the group 1 that each rule below
# closes after its own opening quote, if any.
_ASSIGNED = rf"\b((?:[A-Za-z0-9_]*(?:{_SECRET_NAMES})|{_TOKEN_NAMES})[\"']?[ \t]*[:=][ \t]*"
_SCHEME = r"[A-Za-z][A-Za-z0-9+.-]{0,30}://"
_URL_PART = rf"[^{_SPACE}/?#\"'<>]"

# The masking rules, one set for this hook and for the server, which compiles the same sources
# with RE2 (kb/diagnosis/mask.py): (pattern, replacement, needles), applied in order. Secrets and
# private names come first, before the path and number rules can cut them into pieces. Every
# pattern means the same to Python's `re` (with re.ASCII) and to RE2, which has no lookaround: a
# delimiter that must follow a match is matched and put back by `\1`, the only group reference a
# replacement may hold. A rule runs only on a text that holds one of its needles (none: always),
# a cheap skip. Masking a masked text changes nothing more (but where a digit is glued to a
# word: `9token: x`), so the server masks a link's query as it masks the paste.
MASK_RULES = (
    # scheme://user:password@host keeps the scheme and the host.
    (rf"({_SCHEME})[^{_SPACE}/?#@:\"'<>]*:{_URL_PART}*@", r"\1<user>:<secret>@", ("://",)),
    (rf"({_SCHEME})[^{_SPACE}/?#@:\"'<>]+@", r"\1<user>@", ("://",)),
    (
        r"((?:[Aa]uthorization|AUTHORIZATION)[\"']?[ \t]*[:=][ \t]*[\"']?"
        r"(?:(?:[Bb]earer|BEARER|[Bb]asic|BASIC|[Tt]oken|TOKEN)[ \t]+)?)"
        rf"[^{_SPACE}\"',;]+",
        r"\1<token>",
        ("uthorization", "UTHORIZATION"),
    ),
    # password=..., "api_key": "...", WANDB_API_KEY=...: a quoted value up to its closing
    # quote (kept, so that a second masking sees the same value), else up to a delimiter.
    (rf'{_ASSIGNED}")[^"\n]*"', r'\1<secret>"', ("=", ":")),
    (rf"{_ASSIGNED}')[^'\n]*'", r"\1<secret>'", ("=", ":")),
    (
        rf"{_ASSIGNED}[\"']?)[^{_SPACE}\"',;&)\]}}=][^{_SPACE}\"',;&)\]}}]*",
        r"\1<secret>",
        ("=", ":"),
    ),
    (r"\b([Bb]earer[ \t]+)[A-Za-z0-9._~+/-]{16,}=*", r"\1<token>", ("earer",)),
    (r"\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*", "<token>", ("eyJ",)),  # a JWT
    (r"hf_[A-Za-z0-9]{30,}", "<token>", ("hf_",)),  # Hugging Face
    (r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b", "<token>", ("AKIA", "ASIA")),  # AWS access key id
    (
        r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})",
        "<token>",
        ("ghp_", "gho_", "ghs_", "ghu_", "ghr_", "github_pat_"),
    ),
    (r"\bsk-[A-Za-z0-9_-]{20,}", "<token>", ("sk-",)),  # OpenAI-style, sk-proj-... too
    # Weights & Biases keys are 40 hex digits, like a commit id: the id rule below masks both.
    (r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", "<email>", ("@",)),
    # A home directory that ends the path: the path rule below would keep the user name.
    (
        rf"(?:[A-Za-z]:)?[/\\](?:home|Users)[/\\][^/\\{_SPACE}\"':,;()<>]+"
        rf"([/\\]?(?:[{_SPACE}\"':,;()<>]|$))",
        r"<home>\1",
        ("home", "Users"),
    ),
    # ~name wherever it stands: a rule that looked at the character before would mask the
    # text differently once that character had become a placeholder.
    (r"~[A-Za-z_][\w.-]*([^\w.~/\\-]|$)", r"~<user>\1", ("~",)),
    # A masked path stays as it is; a drive letter is a word of its own (not the b of db:5432/x).
    (r"(?:<path>|\b[A-Za-z]:)?(?:[\w.~+-]*[/\\])+([\w.+-]+)", r"<path>/\1", ("/", "\\")),
    (r"\b0x[0-9a-fA-F]+\b", "<hex>", ("0x",)),
    (r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b", "<addr>", (".",)),
    (r"\b[0-9a-f]{12,}\b", "<id>", ()),
    (r"\d+(?:\.\d+)?", "<n>", ()),
)
_RULES = [
    (re.compile(source, re.ASCII), replacement, needles)
    for source, replacement, needles in MASK_RULES
]


def _local_user():
    """The account running the job, masked wherever it still appears as a word."""
    try:
        user = getpass.getuser()
    except Exception:
        return None
    if len(user) < 3 or user == "root" or user.lower() in PLACEHOLDERS:
        return None
    # Not one of MASK_RULES: only the job's machine knows the name, and only Python's `re` (with
    # its lookaround) ever runs this.
    return re.compile(rf"(?<![\w<]){re.escape(user)}(?![\w>])")


_USER = _local_user()


def mask(text):
    """`text` with secrets, private names, paths, addresses and numbers replaced by placeholders."""
    for pattern, replacement, needles in _RULES:
        if not needles or any(needle in text for needle in needles):
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
