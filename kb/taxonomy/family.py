"""The family file format: `families/<family>/family.yaml`, what a failure family brings
besides its entries.

    name: Distributed training
    description: ...
    categories: [...]          # the family's category subtree
    frameworks: [...]          # training stacks a snippet can be written for
    wrapper_exceptions: [...]  # exceptions that only wrap another process's failure
    failing_rank: [...]        # how a launcher names the rank that failed first
    generic_lines: [...]       # lines every failure of the kind prints: no evidence alone
    facts: [...]               # what a paste proves about the setup (framework=..., ...)
    questions: [...]           # shared questions: check keys several entries ask, and the
                               # fact that answers each from a paste
    variables: [...]           # tailoring variables the family's snippets use
    happened: [...]            # the kinds of "what happened" the wizard's blank start asks
                               # first (one family declares them: common)
    shows: [...]               # which kinds each of the family's categories (or, where an
                               # entry differs from its category, each such entry) shows
    not_for_readers: [...]     # phrases of the team's own ("the lab", "the seed entry") that
                               # entry prose must not say to its readers
    calibration: {...}         # how much each kind of evidence counts (one family has it;
                               # written by `manage.py refit`: kb/diagnosis/calibration.py)

Everything but name, description, categories and frameworks is the family's "parts": stored
as one value on the Family row and read by the engine and the wizard as plain data
(kb/families.py). Like entry files, a file written by `render_family` reads back to the same
document and renders to the same bytes.
"""

from kb.diagnosis.calibration import FEATURES, NONE_FEATURES
from kb.diagnosis.normalize import ascii_int
from kb.patterns import pattern_error
from kb.taxonomy.document import CATEGORIES, FRAMEWORKS, KEY_RE, SLUG_RE, key
from kb.taxonomy.schema import (
    Map,
    Nullable,
    Number,
    Problem,
    Seq,
    Text,
    read_yaml,
    without_defaults,
    write_yaml,
)

FACT_SCOPES = ("frames", "text", "messages")
VARIABLE_TYPES = ("number", "yes_no", "text")


def _regex(value):
    return pattern_error("regex", value)


def _slug(value):
    return None if SLUG_RE.match(value) else f"{value!r} is not a valid slug"


def _fact(value):
    fact_key, equals, fact_value = value.partition("=")
    if not equals or not KEY_RE.match(fact_key) or not fact_value:
        return f"{value!r} is not key=value (a fact a rule of some family.yaml sets)"
    return None


patterned = Seq(Map({"pattern": Text(required=True, check=_regex), "note": Text()}))

PARTS = {
    "wrapper_exceptions": Seq(Text(required=True), unique=True),
    "failing_rank": patterned,
    "generic_lines": patterned,
    "facts": Seq(
        Map(
            {
                "key": key,
                "value": Text(required=True),
                "in": Text(required=True, choices=FACT_SCOPES),
                "pattern": Text(required=True, check=_regex),
                "note": Text(),
            }
        )
    ),
    "questions": Seq(Map({"key": key, "fact": Text(check=_fact), "note": Text()}), unique_by="key"),
    "variables": Seq(
        Map(
            {
                "key": key,
                "question": Text(required=True),
                "type": Text(required=True, choices=VARIABLE_TYPES),
                "default": Text(required=True),
                "choices": Seq(
                    Map(
                        {
                            "value": Text(required=True),
                            "label": Text(required=True),
                            "says": Text(required=True),
                        }
                    ),
                    required=True,
                    unique_by="value",
                ),
            }
        ),
        unique_by="key",
    ),
    "happened": Seq(
        Map({"key": key, "label": Text(required=True), "note": Text()}), unique_by="key"
    ),
    "shows": Seq(
        Map(
            {
                "category": Text(check=_slug),
                "entry": Text(check=_slug),
                "happened": Seq(key, required=True, unique=True),
            }
        )
    ),
    "not_for_readers": Seq(Map({"phrase": Text(required=True), "why": Text()}), unique_by="phrase"),
}


def _coefficients(names):
    return Seq(
        Map(
            {
                "feature": Text(required=True, choices=list(names)),
                "coefficient": Number(required=True),
            }
        ),
        required=True,
        unique_by="feature",
    )


PARTS["calibration"] = Nullable(
    Map(
        {
            "fitted": Text(required=True),
            "coefficients": _coefficients(FEATURES),
            "none": _coefficients(NONE_FEATURES),
            "match": Number(minimum=0.0, required=True),
            "possible": Number(minimum=0.0, required=True),
            "held_out": Seq(
                Map(
                    {
                        "entry": Text(required=True),
                        "pastes": Number(minimum=0, whole=True),
                        "top1": Number(minimum=0, whole=True),
                        "match": Number(minimum=0, whole=True),
                        "confused_with": Text(),
                    }
                ),
                unique_by="entry",
            ),
        }
    )
)
PARTS_SCHEMA = Map(PARTS)
FAMILY = Map(
    {
        "name": Text(required=True),
        "description": Text(),
        "categories": CATEGORIES,
        "frameworks": FRAMEWORKS,
        **PARTS,
    }
)


def parse_family(text):
    """Read a family.yaml. Returns (document, problems, lines by path)."""
    document, problems, lines = read_yaml(text, FAMILY)
    return document, problems + list(variable_problems(document["variables"], lines)), lines


def parse_parts(text):
    """Read the parts alone (the admin edits them as one YAML text)."""
    parts, problems, lines = read_yaml(text, PARTS_SCHEMA)
    return parts, problems + list(variable_problems(parts["variables"], lines)), lines


def render_family(document):
    return write_yaml(without_defaults(FAMILY, document))


def render_parts(parts):
    return write_yaml(without_defaults(PARTS_SCHEMA, parts))


def parts_of(document):
    return {name: document[name] for name in PARTS}


def variable_problems(variables, lines):
    """A variable's values must be what its type gives the snippet, and its default one of
    them."""
    for i, variable in enumerate(variables, 1):
        line = lines.get(f"variables[{i}]", 1)
        values = [choice["value"] for choice in variable["choices"]]
        if variable["type"] == "number":
            odd = [v for v in values if ascii_int(v) is None]
            if odd:
                yield Problem(line, f"variable {variable['key']!r}: {odd[0]!r} is not a number")
        elif variable["type"] == "yes_no" and sorted(values) != ["no", "yes"]:
            yield Problem(line, f"variable {variable['key']!r}: the choices of yes_no are yes, no")
        if values and variable["default"] not in values:
            yield Problem(
                line, f"variable {variable['key']!r}: the default is not one of its choices"
            )
