"""Accepting a paste: what is too big, empty or not text gets a clear message and a 4xx."""

MAX_PASTE_BYTES = 1_000_000
CONTROL = frozenset(range(0, 32)) - {9, 10, 12, 13, 27}  # tab, newlines, form feed, ESC are text
MAX_CONTROL_SHARE = 0.1
SURROGATES = dict.fromkeys(range(0xD800, 0xE000), "\ufffd")


class PasteError(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


def accept_paste(text):
    """Return the paste as text to diagnose, or raise PasteError(4xx, why)."""
    text = _without_lone_surrogates(text)
    if len(text.encode("utf-8")) > MAX_PASTE_BYTES:
        raise PasteError(
            413,
            f"The paste is larger than {MAX_PASTE_BYTES // 1_000_000} MB. Paste the end of "
            "the output: the traceback and the lines just before it are what matter.",
        )
    if not text.strip():
        raise PasteError(400, "The paste is empty: paste a traceback, a log or an error message.")
    sample = text[:20000]
    controls = sum(1 for char in sample if ord(char) in CONTROL)
    if controls > MAX_CONTROL_SHARE * len(sample):
        raise PasteError(400, "This does not look like text output (it is mostly binary data).")
    return text


def _without_lone_surrogates(text):
    """JSON can carry half of a UTF-16 pair ("\\ud800"), which is no character and which RE2
    cannot encode: each becomes U+FFFD, as invalid UTF-8 does in a form or a file."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.translate(SURROGATES)
    return text


def decode_upload(data):
    """Bytes from a file or a request body as text; invalid UTF-8 is replaced, not refused."""
    return data.decode("utf-8", "replace")
