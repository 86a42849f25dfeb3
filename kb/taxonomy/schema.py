"""A small schema language over YAML nodes, so that every error can name its line.

`yaml.compose` keeps the position of every node; reading the node tree against a schema gives
plain Python values, a list of `Problem(line, message)` and the line of every value by path
(e.g. "checks[2].confirms"), which later cross-reference checks use. Unknown keys, missing
required keys and wrong types are all reported, not just the first.
"""

import re
from dataclasses import dataclass

import yaml

NULL_TAG = "tag:yaml.org,2002:null"
BOOL_TAG = "tag:yaml.org,2002:bool"


@dataclass(frozen=True)
class Problem:
    line: int  # 1-based, in the file
    message: str


class Reader:
    """Collects problems and value lines while reading; `offset` maps YAML lines to file lines."""

    def __init__(self, offset=0):
        self.offset = offset
        self.problems = []
        self.lines = {}

    def line_of(self, node):
        return node.start_mark.line + 1 + self.offset

    def problem(self, node, message):
        self.problems.append(Problem(self.line_of(node), message))


class Field:
    def __init__(self, required=False, default=None):
        self.required = required
        self.default = default

    def empty(self):
        return self.default() if callable(self.default) else self.default


class Text(Field):
    """A string. `choices` restricts it; `check(value)` returns an error message or None."""

    def __init__(self, required=False, default="", choices=None, check=None):
        super().__init__(required, default)
        self.choices = choices
        self.check = check

    def read(self, node, reader, where):
        if not isinstance(node, yaml.ScalarNode) or node.tag == NULL_TAG:
            reader.problem(node, f"{where} must be text")
            return self.empty()
        value = node.value
        if self.required and not value.strip():
            reader.problem(node, f"{where} must not be empty")
        if self.choices and value not in self.choices:
            reader.problem(node, f"{where} must be one of {', '.join(self.choices)}, not {value!r}")
        elif self.check and value:
            message = self.check(value)
            if message:
                reader.problem(node, f"{where}: {message}")
        return value


class Flag(Field):
    """true or false; false when left out."""

    def __init__(self):
        super().__init__(False, False)

    def read(self, node, reader, where):
        if not isinstance(node, yaml.ScalarNode) or node.tag != BOOL_TAG:
            reader.problem(node, f"{where} must be true or false")
            return self.empty()
        return node.value.lower() in ("true", "yes", "on")


class Number(Field):
    def __init__(self, default=0.0, minimum=None, whole=False, required=False):
        super().__init__(required, int(default) if whole else default)
        self.minimum = minimum
        self.whole = whole

    def read(self, node, reader, where):
        try:
            value = float(node.value)
        except (AttributeError, TypeError, ValueError):
            reader.problem(node, f"{where} must be a number")
            return self.empty()
        if self.whole:
            if not value.is_integer():
                reader.problem(node, f"{where} must be a whole number")
                return self.empty()
            value = int(value)
        if self.minimum is not None and value < self.minimum:
            reader.problem(node, f"{where} must be at least {self.minimum}")
        return value


class Seq(Field):
    """A list; `unique_by` names the key (or, for lists of text, None) that must not repeat."""

    def __init__(self, item, required=False, unique_by=None, unique=False):
        super().__init__(required, list)
        self.item = item
        self.unique_by = unique_by
        self.unique = unique or unique_by is not None

    def read(self, node, reader, where):
        if not isinstance(node, yaml.SequenceNode):
            reader.problem(node, f"{where} must be a list")
            return []
        if self.required and not node.value:
            reader.problem(node, f"{where} must not be empty")
        values, seen = [], set()
        for index, child in enumerate(node.value, 1):
            path = f"{where}[{index}]"
            reader.lines[path] = reader.line_of(child)
            value = self.item.read(child, reader, path)
            if self.unique:
                ident = value.get(self.unique_by) if isinstance(value, dict) else value
                if ident in seen:
                    reader.problem(child, f"{where}: {ident!r} appears twice")
                seen.add(ident)
            values.append(value)
        return values


class Map(Field):
    def __init__(self, fields, required=False):
        super().__init__(required, None)
        self.fields = fields

    def empty(self):
        return {name: field.empty() for name, field in self.fields.items()}

    def read(self, node, reader, where):
        if not isinstance(node, yaml.MappingNode):
            reader.problem(node, f"{where or 'the document'} must be a mapping of keys to values")
            return self.empty()
        given = {}
        for key_node, value_node in node.value:
            key = key_node.value
            if key in given:
                reader.problem(key_node, f"key {key!r} appears twice")
            elif key not in self.fields:
                known = ", ".join(self.fields)
                place = f" in {where}" if where else ""
                reader.problem(key_node, f"unknown key {key!r}{place} (known keys: {known})")
            else:
                given[key] = value_node
        values = {}
        for name, field in self.fields.items():
            path = f"{where}.{name}" if where else name
            if name in given:
                reader.lines[path] = reader.line_of(given[name])
                values[name] = field.read(given[name], reader, path)
            else:
                if field.required:
                    reader.problem(node, f"missing required key {path!r}")
                values[name] = field.empty()
        return values


class Nullable(Field):
    """A field that may be written as null (or left out) and is then None."""

    def __init__(self, inner):
        super().__init__(False, None)
        self.inner = inner

    def read(self, node, reader, where):
        if isinstance(node, yaml.ScalarNode) and node.tag == NULL_TAG:
            return None
        return self.inner.read(node, reader, where)


def read_yaml(text, schema, offset=0):
    """Parse `text` against `schema`; return (value, problems, lines by path)."""
    reader = Reader(offset)
    try:
        node = yaml.compose(text, Loader=yaml.CSafeLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = (mark.line + 1 if mark else 1) + offset
        reason = getattr(error, "problem", None) or str(error)
        return schema.empty(), [Problem(line, f"not valid YAML: {reason}")], {}
    if node is None:
        return schema.empty(), [Problem(1 + offset, "the document is empty")], {}
    value = schema.read(node, reader, "")
    return value, reader.problems, reader.lines


def without_defaults(schema, value):
    """The value as it is written to a file: keys holding their default are left out."""
    if isinstance(schema, Map):
        out = {}
        for name, field in schema.fields.items():
            item = value.get(name, field.empty())
            if field.required or item != field.empty():
                out[name] = without_defaults(field, item)
        return out
    if isinstance(schema, Seq):
        return [without_defaults(schema.item, item) for item in value]
    if isinstance(schema, Nullable):
        return value if value is None else without_defaults(schema.inner, value)
    return value


class _Dumper(yaml.SafeDumper):
    """Block style, lists indented under their key, multi-line text as literal blocks: the
    files' format, written by PyYAML's Python emitter (the reference, and slow)."""

    def increase_indent(self, flow=False, indentless=False):
        return super().increase_indent(flow, False)


class _FastDumper(yaml.CSafeDumper):
    """The same representation through libyaml's emitter, ten times faster; libyaml writes a
    list at its key's column, which `_indent_lists` shifts to the files' format."""


def _represent_str(dumper, value):
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


for _dumper in (_Dumper, _FastDumper):
    _dumper.add_representer(str, _represent_str)

_BLOCK_SCALAR = re.compile(r"(?:^|[:-] )[|>][-+0-9]*$")
_ITEM_MARKS = re.compile(r"(?:- |-$)+")


def _indent_lists(text):
    """Shift each block list that is a mapping's value (and all it holds) two columns right.
    Lines inside a literal block move with the key that holds them and are never read as
    structure."""
    out, lists, scalar_parent, key_column = [], [], None, None
    for line in text.split("\n"):
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if scalar_parent is not None:
            if not stripped or indent > scalar_parent:
                out.append(" " * (2 * len(lists)) + line if stripped else line)
                continue
            scalar_parent = None
        if not stripped:
            out.append(line)
            continue
        is_item = stripped.startswith("- ") or stripped == "-"
        while lists and (indent < lists[-1] or (indent == lists[-1] and not is_item)):
            lists.pop()
        if is_item and (not lists or lists[-1] != indent) and key_column == indent:
            lists.append(indent)
        out.append(" " * (2 * len(lists)) + line)
        marks = _ITEM_MARKS.match(stripped)
        body = stripped[marks.end() :] if marks else stripped
        node_column = indent + (marks.end() if marks else 0)
        key_column = node_column if body.endswith(":") else None
        if _BLOCK_SCALAR.search(stripped):
            # A literal block's lines are indented past the node that holds it: the key, or
            # the list item whose value the block is.
            scalar_parent = node_column - 2 if body[:1] in "|>" and marks else node_column
    return "\n".join(out)


def _beyond_the_bmp(value):
    # libyaml escapes characters past U+FFFF (an emoji in a captured message) where the
    # Python emitter writes them as they are.
    if isinstance(value, str):
        return any(ord(c) > 0xFFFF for c in value)
    if isinstance(value, dict):
        return any(_beyond_the_bmp(k) or _beyond_the_bmp(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_beyond_the_bmp(v) for v in value)
    return False


def write_yaml(value, fast=True):
    options = {
        "sort_keys": False,
        "allow_unicode": True,
        "default_flow_style": False,
        "width": 1 << 20,  # one line per value: diffs in review stay line-for-line
    }
    if fast and not _beyond_the_bmp(value):
        return _indent_lists(yaml.dump(value, Dumper=_FastDumper, **options))
    return yaml.dump(value, Dumper=_Dumper, **options)
