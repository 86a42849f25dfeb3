"""Shared diagnoses: a posted paste kept at its own address, /d/<key>, for anyone given the link.

What is kept is masked with the privacy rules of issue 7 (faultline_hook.MASK_RULES: credentials,
tokens, keys, e-mail addresses, home directories and user names, paths down to their last part,
network addresses, hex values and long ids). Their last rule, which turns every other number
into <n>, is left out: it exists so that repeats of a failure group together in the unmatched
queue, not for privacy, and the diagnosis reads numbers (a launcher's exit code, the sizes in
an error message, rank prefixes). Paths into installed packages keep the package's part.
Masked with every rule, 20 of the 750 labelled pastes of the lab and field corpora that rank
their own entry first ranked another; masked as here, 1 does. What the paste proved when it was
posted (its facts, their evidence masked) is kept beside it, for the facts that only the
unmasked text shows.

Whoever posted a paste may delete it: its key is remembered in their session, which the link
does not carry. A shared paste lives SHARED_PASTE_DAYS days; each new one clears those past it.
"""

import secrets

import re2

from faultline_hook import MASK_RULES
from kb import ratelimit
from kb.diagnosis import repository
from kb.diagnosis.facts import Fact
from kb.models import SharedPaste
from kb.patterns import quiet_options

KEY_BYTES = 9  # 12 url-safe characters: 72 random bits, not to be guessed
MAX_KEY_CHARS = 24  # SharedPaste.key's length: a longer one is no key
SESSION_KEY = "shared_pastes"
REMEMBERED = 50  # keys a session keeps, the newest
SHARES_PER_ADDRESS_PER_HOUR = 300
TOO_MANY = "Your address has posted more pastes than it may in an hour: try again later."
NUMBERS = "<n>"
LIBRARY_PARTS = ("site-packages/", "dist-packages/", "/torch/", "/lib/python")

# What is before site-packages is the user's (their home, their environment); what follows it,
# module names.
LIBRARY_PATH = re2.compile(
    r"[^ \t\n\"'<>()]*[/\\]((?:site|dist)-packages[/\\][\w.-]+(?:[/\\][\w.-]+)*)"
)
_PRIVATE_RULES = [
    (re2.compile(source.encode(), options=quiet_options()), replacement.encode(), needles)
    for source, replacement, needles in MASK_RULES
    if replacement != NUMBERS
]


def mask_private(text):
    """`text` with what is private replaced by placeholders, line for line (no rule crosses a
    line end, so line numbers stay those of the paste). A path into an installed package keeps
    its part from the package on (`<path>/site-packages/torch/distributed/run.py`): it is the
    package's, not the user's, and it is what tells the launcher and the framework."""
    pieces, end = [], 0
    for found in LIBRARY_PATH.finditer(text):
        pieces += [_mask_text(text[end : found.start()]), f"<path>/{found.group(1)}"]
        end = found.end()
    pieces.append(_mask_text(text[end:]))
    return "".join(pieces)


def _mask_text(text):
    data = text.encode()
    for pattern, replacement, needles in _PRIVATE_RULES:
        if not needles or any(needle.encode() in data for needle in needles):
            data = pattern.sub(replacement, data)
    return data.decode()


def user_frame(diagnosis):
    """The user's own frame: the last frame of the root traceback outside the libraries
    (site-packages, torch, the standard library), or None."""
    root = diagnosis.root
    for frame in reversed(root.frames if root else []):
        path = frame.path.replace("\\", "/")
        if not path.startswith("<") and not any(part in path for part in LIBRARY_PARTS):
            return frame
    return None


def frame_at(diagnosis, source_line):
    """The frame of the root traceback printed on the paste's line `source_line`, or None."""
    root = diagnosis.root
    lines = diagnosis.normalised.lines
    for frame in root.frames if root and source_line is not None else []:
        if lines[frame.index].source == source_line:
            return frame
    return None


def share(text, diagnosis, request):
    """Keep the paste at a new address and remember in the session who made it."""
    ratelimit.count(
        "shared",
        ratelimit.client_address(request),
        SHARES_PER_ADDRESS_PER_HOUR,
        3600,
        TOO_MANY,
    )
    SharedPaste.objects.expired().delete()
    frame = user_frame(diagnosis)
    shared = SharedPaste.objects.create(
        key=secrets.token_urlsafe(KEY_BYTES),
        masked_text=mask_private(text),
        frame_line=diagnosis.normalised.lines[frame.index].source if frame else None,
        facts={
            f.key: [f.value, _mask_text(f.evidence), diagnosis.normalised.lines[f.line].source]
            for f in diagnosis.facts.values()
        },
    )
    made = [shared.key, *request.session.get(SESSION_KEY, [])][:REMEMBERED]
    request.session[SESSION_KEY] = made
    return shared


def rediagnose(shared):
    """The diagnosis of the shared paste as the content is now, with the facts it proved when
    posted that its masked text no longer shows."""
    diagnosis = repository.diagnose(shared.masked_text)
    index = {line.source: i for i, line in reversed(list(enumerate(diagnosis.normalised.lines)))}
    for key, (value, evidence, source) in shared.facts.items():
        if key not in diagnosis.facts and source in index:
            diagnosis.facts[key] = Fact(key, value, index[source], evidence)
    return diagnosis


def made_by(request, key):
    return key in request.session.get(SESSION_KEY, [])


def forget(request, key):
    request.session[SESSION_KEY] = [k for k in request.session.get(SESSION_KEY, []) if k != key]


def live(key):
    """The shared paste at `key`, or None when there is none or it has expired (then it goes)."""
    shared = SharedPaste.objects.filter(key=key).first()
    if shared is not None and not SharedPaste.objects.live().filter(key=key).exists():
        shared.delete()
        return None
    return shared
