"""Normalise a paste: one clean line per printed line, whatever launcher or logger printed it.

Removes what varies between copies of the same failure and carries no meaning for matching:
NUL bytes, `\\r`, ANSI colours, launcher rank prefixes (`[rank1]:`, `[default1]:`, remembered per
line) and log prefixes (timestamps, levels, glog/c10 headers; the level is remembered). When
several ranks print the same lines, only the first copy is kept; a run of blank lines is one.

Plain string operations only, one pass over the text and one over the lines, each step bounded
per character or per line (a copy is found by one dictionary lookup, however many ranks
printed): time grows with the paste's length whatever its shape, which the scaling tests and
benchmarks/diagnose.py's adversarial table check. No Django here.
"""

from dataclasses import dataclass, field
from itertools import accumulate

CSI_PARAMETERS = "0123456789;?"
CSI_INTERMEDIATES = "".join(map(chr, range(0x20, 0x30)))
LEVEL_WORDS = {
    "DEBUG": "DEBUG",
    "INFO": "INFO",
    "WARN": "WARNING",
    "WARNING": "WARNING",
    "ERROR": "ERROR",
    "CRITICAL": "CRITICAL",
    "FATAL": "CRITICAL",
}
GLOG_LEVELS = {"I": "INFO", "W": "WARNING", "E": "ERROR", "F": "CRITICAL"}
RANK_TAGS = ("[rank", "[default")
SEPARATORS = " \t-:|[]()"
DIGIT_MASK = str.maketrans("0123456789", "0000000000")
TIMESTAMP_CHARS = "0123456789-:.,T_Z+/"
LEVEL_STARTS = tuple(LEVEL_WORDS)
MAX_PREFIXES = 8
HEADER_STARTS = frozenset("0123456789[" + "".join({word[0] for word in LEVEL_WORDS}))


@dataclass(slots=True)
class Line:
    text: str  # without ANSI, rank and log prefixes, trailing blanks removed
    source: int  # 0-based index of the line in the paste
    rank: int | None = None
    level: str | None = None  # DEBUG, INFO, WARNING, ERROR or CRITICAL, when the line says


@dataclass
class Normalised:
    original: list[str]  # the paste's lines, ANSI removed, for showing back to the user
    lines: list[Line]  # what is matched: duplicate copies printed by other ranks removed
    ranks: list[int] = field(default_factory=list)  # in order of first appearance
    text: str = ""  # the lines joined by "\n"
    offsets: list[int] = field(default_factory=list)  # where each line starts in `text`

    def line_at(self, offset):
        """Index of the line holding character `offset` of `text` (binary search)."""
        low, high = 0, len(self.offsets) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if self.offsets[middle] <= offset:
                low = middle
            else:
                high = middle - 1
        return low


def ascii_int(text):
    """`text` as a number when it is at most 18 ASCII digits, else None (`str.isdigit` accepts
    "²" and "①", which `int` refuses, and `int` refuses 4,300 digits and more)."""
    return int(text) if len(text) <= 18 and text.isascii() and text.isdigit() else None


def strip_rank(line):
    """`[rank3]: text` → (3, "text"); nested prefixes are all removed, the outer rank kept."""
    rank, position = None, 0
    while line.startswith(RANK_TAGS, position):
        start = position + (5 if line.startswith("[rank", position) else 8)
        end = line.find("]:", start, start + 8)
        number = ascii_int(line[start:end]) if end != -1 else None
        if number is None:
            break
        if rank is None:
            rank = number
        position = end + 2
        if line.startswith(" ", position):
            position += 1
    return rank, line[position:]


def _is_timestamp(token):
    """2026-11-30, 2026-11-30T08:42:51.373, 08:42:51,373, 2026-11-30_08:42:51 and the like."""
    token = token.strip("[]()")
    if len(token) < 8 or not token[0].isdigit():
        return False
    return not token.strip(TIMESTAMP_CHARS) and (
        token.count(":") >= 2 or token.count("-") >= 2 or token.count("/") >= 2
    )


def strip_log_prefix(line):
    """Return (level or None, the line without its logging header)."""
    first = line[:1]
    if first not in HEADER_STARTS:
        return None, line  # most lines (frames, code, messages): one cheap test
    if len(line) > 6 and line[0] in GLOG_LEVELS and line[1:5].isdigit() and line[5] == " ":
        # glog / torch.distributed.elastic: "E1130 08:42:51.373000 5875 path.py:1002] text"
        end = line.find("] ", 6, 200)
        if end != -1:
            return GLOG_LEVELS[line[0]], line[end + 2 :]
    if line.startswith("[") and len(line) > 7 and line[1] in GLOG_LEVELS and line[2:6].isdigit():
        # c10 logging: "[W1130 07:25:51.838722244 engine.cpp:1529] Warning: text"
        end = line.find("] ", 6, 200)
        if end != -1:
            return GLOG_LEVELS[line[1]], line[end + 2 :]
    if line.startswith("[") and len(line) > 7 and line[1] in GLOG_LEVELS and line[2] == " ":
        # c10 logging before torch 2.2: "[E ProcessGroupNCCL.cpp:737] text"
        end = line.find("] ", 3, 200)
        source, _, number = line[3:end].rpartition(":")
        if end != -1 and "." in source and " " not in source and number.isdigit():
            return GLOG_LEVELS[line[1]], line[end + 2 :]

    if line.startswith("["):
        bracketed = _strip_bracket_groups(line)
        if bracketed is not None:
            return bracketed

    head = line[:160]
    colon_word = head.split(":", 1)[0]
    if colon_word in LEVEL_WORDS and ":" in head:
        # logging.basicConfig(): "WARNING:trainer:text"
        rest = line[len(colon_word) + 1 :]
        logger, sep, message = rest.partition(":")
        if sep and " " not in logger:
            return LEVEL_WORDS[colon_word], message.lstrip()
        return LEVEL_WORDS[colon_word], rest.lstrip()

    if not (first.isdigit() or line.startswith(LEVEL_STARTS)):
        return None, line
    tokens = head.split()
    position, skipped = 0, 0
    for token in tokens[:6]:
        bare = token.strip(SEPARATORS)
        if bare in LEVEL_WORDS and (skipped or token != bare or len(tokens) > 1):
            end = line.find(token, position) + len(token)
            return LEVEL_WORDS[bare], line[end:].lstrip(SEPARATORS + ",")
        if _is_timestamp(token) or (skipped and token.strip(SEPARATORS) == ""):
            position = line.find(token, position) + len(token)
            skipped += 1
            continue
        if skipped and len(bare) < 40 and token.startswith("[") and token.endswith("]"):
            position = line.find(token, position) + len(token)  # "[logger.name]" before level
            continue
        break
    if skipped:
        return None, line[position:].lstrip(SEPARATORS + ",")
    return None, line


def _strip_bracket_groups(line):
    """`[2026-11-30 08:42:51,373][train][ERROR] - text` (Hydra and similar): (level, text),
    or None when the leading brackets are not a logging header."""
    level, header, position = None, False, 0
    for _ in range(4):
        if not line.startswith("[", position):
            break
        end = line.find("]", position, position + 80)
        if end == -1:
            break
        content = line[position + 1 : end]
        if content.upper() in LEVEL_WORDS:
            level, header = LEVEL_WORDS[content.upper()], True
        elif content and all(_is_timestamp(part) for part in content.split()):
            header = True
        elif not content or " " in content:
            break
        position = end + 1
    if not header:
        return None
    return level, line[position:].lstrip(SEPARATORS + ",")


def strip_prefixes(line):
    """(rank, level, text): rank prefixes and log headers, in whatever order they were added
    (a logger's line under a launcher, or a rank tag inside a log message)."""
    rank = level = None
    for _ in range(MAX_PREFIXES):
        found_rank, rest = strip_rank(line) if line[:1] == "[" else (None, line)
        found_level, rest = strip_log_prefix(rest)
        if rest == line:
            break
        rank = rank if rank is not None else found_rank
        level = level or found_level
        line = rest
        if line[:1] not in HEADER_STARTS:
            break  # no prefix can start here
    return rank, level, line


def strip_ansi(text):
    """`text` without ANSI escape sequences: CSI (colours, cursor moves), OSC (titles, links,
    ended by BEL or by ESC and a backslash) and two-character escapes. A lone ESC goes too, so
    normalising again changes nothing. String methods on the pieces between ESCs: linear, with
    no regex call per sequence (a paste can hold an escape before every character)."""
    pieces = text.split("\x1b")
    kept = [pieces[0]]
    index = 1
    while index < len(pieces):
        piece = pieces[index]
        head = piece[:1]
        if head == "[":
            rest = piece[1:].lstrip(CSI_PARAMETERS).lstrip(CSI_INTERMEDIATES)
            kept.append(rest[1:] if rest and "@" <= rest[0] <= "~" else piece)
        elif head == "]" and "\x07" in piece:
            kept.append(piece[piece.index("\x07") + 1 :])
        elif head == "]" and index + 1 < len(pieces) and pieces[index + 1][:1] == "\\":
            index += 1  # an OSC ended by ESC and a backslash: both pieces' heads go
            kept.append(pieces[index][1:])
        elif head and "@" <= head <= "_":
            kept.append(piece[1:])  # a two-character escape, or an OSC that never ends
        else:
            kept.append(piece)
        index += 1
    return "".join(kept)


def normalise(text):
    text = text.replace("\x00", "")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x1b" in text:
        text = strip_ansi(text)
    original = text.split("\n")
    if original and original[-1] == "":
        original.pop()

    lines, ranks = [], []
    # Every rank prints the same traceback: a line is a copy when another rank printed the
    # same text (up to digits: pids, rank numbers) at the same point of its output.
    printed = {}  # rank -> how many lines it printed
    first_printed_by = {}  # "position:text with digits masked" -> rank
    for index, raw in enumerate(original):
        if raw[:1] in HEADER_STARTS:
            rank, level, rest = strip_prefixes(raw)
        else:
            rank, level, rest = None, None, raw  # most lines: no prefix can start here
        rest = rest.rstrip()
        if level is None and "Warning:" in rest and rest.find("Warning:", 0, 300) != -1:
            level = "WARNING"  # Python's `UserWarning: ...` and C++ `Warning: ...`
        if rank is not None:
            position = printed.get(rank)
            if position is None:
                position = 0
                ranks.append(rank)
            printed[rank] = position + 1
            # A string key, not a tuple: no object for the garbage collector per line.
            key = f"{position}:{rest.translate(DIGIT_MASK)}"
            if first_printed_by.setdefault(key, rank) != rank:
                continue
        if not rest and lines and not lines[-1].text:
            continue  # a run of blank lines reads as one
        lines.append(Line(rest, index, rank, level))

    while lines and not lines[-1].text:
        lines.pop()  # trailing blank lines carry nothing (and would not survive a second pass)
    texts = [line.text for line in lines]
    # Where each line starts in the joined text: the lengths so far, plus a break per line.
    offsets = list(accumulate(map((1).__add__, map(len, texts)), initial=0))[:-1]
    return Normalised(original, lines, ranks, "\n".join(texts), offsets)
