"""Parse normalised lines: Python tracebacks, exceptions, C++ assert sites, log levels, ranks.

The root failure is the first exception that is not a wrapper (an exception that only reports
another process's failure, such as a launcher's summary); which types are wrappers is content
(the families' family.yaml), so is how to read the failing rank from a launcher's summary.
"""

from dataclasses import dataclass, field

from kb.diagnosis.normalize import ascii_int

TRACEBACK_HEADER = "Traceback (most recent call last):"
MAX_MESSAGE_LINES = 30
USAGE_LOOKBACK = 50  # lines between argparse's usage line and its error line, at most
BARE_SUFFIXES = ("Error", "Exception", "Interrupt", "Exit")  # a type alone on its line
ERROR_SUFFIXES = (*BARE_SUFFIXES, "Failure")


@dataclass
class Frame:
    path: str
    lineno: int | None
    function: str
    code: str  # the source line printed under the frame, if any
    index: int  # line index in the normalised paste


@dataclass
class ExceptionBlock:
    type: str
    message: str
    index: int  # the line "Type: message"
    last_index: int  # the last line of a multi-line message
    frames: list = field(default_factory=list)
    rank: int | None = None

    @property
    def short_type(self):
        return self.type.rsplit(".", 1)[-1]


@dataclass
class AssertSite:
    path: str
    lineno: int | None
    index: int


@dataclass
class Parsed:
    exceptions: list = field(default_factory=list)
    root: ExceptionBlock | None = None
    # The root is a wrapper (a launcher's summary): no worker's own exception is in the paste.
    root_is_wrapper: bool = False
    assert_sites: list = field(default_factory=list)
    levels: list = field(default_factory=list)  # (line index, level), in order


def parse_frame(text):
    """`  File "path", line 12, in func` → (path, 12, func), or None."""
    stripped = text.lstrip()
    if not stripped.startswith('File "'):
        return None
    path, quote, rest = stripped[6:].partition('"')
    if not quote:
        return None
    lineno, function = None, ""
    for part in rest.split(","):
        part = part.strip()
        if part.startswith("line "):
            number = part[5:].strip()
            lineno = ascii_int(number)
        elif part.startswith("in "):
            function = part[3:].strip()
    return path, lineno, function


def exception_head(text):
    """`pkg.mod.SomeError: message` → ("pkg.mod.SomeError", "message"), or None."""
    if not text or text[0] in " \t":
        return None
    name, colon, message = text.partition(":")
    if len(name) > 200 or " " in name:
        return None
    if not colon and not name.endswith(BARE_SUFFIXES):
        return None
    parts = name.split(".")
    if not all(part.isidentifier() for part in parts) or not parts[-1][:1].isupper():
        return None
    return name, message.strip()


def assert_site(text):
    """The C++ file and line of `... INTERNAL ASSERT FAILED at "path":123` or
    `Exception raised from f at path:123`, or None."""
    marker = text.find(' at "')
    if marker != -1 and "ASSERT" in text[:marker]:
        end = text.find('"', marker + 5)
        if end != -1:
            path = text[marker + 5 : end]
            number = text[end + 2 : end + 12].split(",")[0].split(" ")[0]
            return path, ascii_int(number)
    if text.startswith("Exception raised from "):
        location = text.rsplit(" at ", 1)[-1].split(" ")[0]
        path, _, number = location.rpartition(":")
        if path:
            return path, ascii_int(number)
    return None


def parse(normalised, wrapper_types=()):
    lines = normalised.lines
    parsed = Parsed()
    wrappers = set(wrapper_types)
    frames, in_traceback = [], False
    usage_at = {}  # argparse's prog -> the index of its latest `usage: prog ...` line
    # A paste that starts at a frame is a traceback cut above its header.
    first = next((i for i, line in enumerate(lines) if line.text.strip()), 0)
    index = 0
    while index < len(lines):
        line = lines[index]
        text = line.text
        if line.level:
            parsed.levels.append((index, line.level))
        site = assert_site(text) if ("ASSERT" in text or "raised from" in text) else None
        if site:
            parsed.assert_sites.append(AssertSite(site[0], site[1], index))
        if text.startswith("usage: "):
            prog, space, _ = text[7:].partition(" ")
            if space:
                usage_at[prog] = index

        if text.endswith(TRACEBACK_HEADER):
            frames, in_traceback = [], True
        elif (in_traceback or index == first) and (frame := parse_frame(text)):
            in_traceback = True
            code = ""
            following = lines[index + 1].text if index + 1 < len(lines) else ""
            if following.startswith("    ") and not parse_frame(following):
                code = following.strip()
            frames.append(Frame(*frame, code=code, index=index))
        elif not in_traceback and ": error: " in text and _usage_error(text, index, usage_at):
            # argparse exits with SystemExit(2) and prints no traceback: this line is the failure.
            argparse_exit = ExceptionBlock("SystemExit", text, index, index, rank=line.rank)
            parsed.exceptions.append(argparse_exit)
            parsed.levels.append((index, "ERROR"))
        elif (
            (":" in text or text.endswith(BARE_SUFFIXES))  # cheap, before exception_head
            and (head := exception_head(text))
            and (in_traceback or head[1])
        ):
            last = _message_end(lines, index)
            message = "\n".join([head[1]] + [lines[i].text for i in range(index + 1, last + 1)])
            block = ExceptionBlock(head[0], message.strip(), index, last, frames, line.rank)
            if in_traceback or _looks_like_error(head[0]):
                parsed.exceptions.append(block)
                parsed.levels.append((index, "ERROR"))
            frames, in_traceback = [], False
            index = last
        index += 1

    roots = [e for e in parsed.exceptions if not {e.type, e.short_type} & wrappers]
    parsed.root = roots[0] if roots else (parsed.exceptions[0] if parsed.exceptions else None)
    parsed.root_is_wrapper = parsed.root is not None and not roots
    parsed.levels.sort()
    return parsed


def _usage_error(text, index, usage_at, lookback=USAGE_LOOKBACK):
    """Is this argparse's `prog: error: message`, after the parser's `usage: prog ...` line?"""
    prog, _, message = text.partition(": error: ")
    if not message or not prog or " " in prog:
        return False
    usage = usage_at.get(prog)
    return usage is not None and index - usage <= lookback


def _looks_like_error(name):
    """An exception line outside a traceback (a pasted last line) must name an error type."""
    return name.rsplit(".", 1)[-1].endswith(ERROR_SUFFIXES)


def _message_end(lines, index):
    """Exception messages run on until a blank line, a new traceback or a logging line."""
    last = index
    for following in range(index + 1, min(len(lines), index + 1 + MAX_MESSAGE_LINES)):
        line = lines[following]
        if (
            not line.text.strip()
            or line.text.endswith(TRACEBACK_HEADER)
            or line.level
            or line.rank != lines[index].rank
            or parse_frame(line.text)
            or line.text.startswith(("During handling of", "The above exception"))
        ):
            break
        last = following
    return last
