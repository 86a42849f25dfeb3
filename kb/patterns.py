"""Validation of the patterns that run on pasted text.

Every pattern goes through RE2, whose matching time is linear in the input, so no signature can
make a paste take exponential time. This module has no Django imports: the loader, the model
forms and the content lint all use it.
"""

import re2

KINDS = ("literal", "regex", "exception", "assert_site")
MAX_PATTERN_LENGTH = 2000


def quiet_options():
    """RE2 options that report errors by exception only (RE2 also logs them by default)."""
    options = re2.Options()
    options.log_errors = False
    return options


def compile_regex(pattern):
    return re2.compile(pattern, options=quiet_options())


def pattern_error(kind, pattern):
    """Return why `pattern` is unusable as a signature of `kind`, or None when it is fine."""
    if kind not in KINDS:
        return f"unknown signature kind {kind!r} (expected one of {', '.join(KINDS)})"
    if not pattern or not pattern.strip():
        return "the pattern is empty"
    if len(pattern) > MAX_PATTERN_LENGTH:
        return f"the pattern is longer than {MAX_PATTERN_LENGTH} characters"
    if "\n" in pattern:
        return "a pattern matches within one line; it must not contain a line break"
    if kind == "assert_site" and "." not in pattern.replace("\\", "/").rsplit("/", 1)[-1]:
        return "an assert site ends with the source file's name, e.g. csrc/engine.cpp"
    if kind == "regex":
        try:
            compile_regex(pattern)
        except re2.error as error:
            reason = error.args[0] if error.args else error
            if isinstance(reason, bytes):
                reason = reason.decode("utf-8", "replace")
            return f"not a valid RE2 regular expression: {reason}"
    return None


def regex_for(kind, pattern):
    """The RE2 source a signature of `kind` stands for (literals are escaped)."""
    return pattern if kind == "regex" else re2.escape(pattern)
