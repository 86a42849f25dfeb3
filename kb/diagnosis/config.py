"""What the engine knows about the ecosystem rather than about one failure: which exceptions
only wrap another process's failure, how launchers name the rank that failed first, which lines
never identify a failure on their own, and the fact rules. Content, read from
`fixtures/diagnosis.yaml`, so that a new failure family brings its own without code changes."""

from dataclasses import dataclass

from kb.patterns import pattern_error
from kb.taxonomy.document import KEY_RE, normalise_newlines
from kb.taxonomy.schema import Map, Seq, Text, read_yaml

FACT_SCOPES = ("frames", "text", "messages")


def _regex(value):
    return pattern_error("regex", value)


def _fact_key(value):
    return None if KEY_RE.match(value) else f"{value!r} is not a valid key"


SCHEMA = Map(
    {
        "wrapper_exceptions": Seq(Text(required=True), unique=True),
        "failing_rank": Seq(Map({"pattern": Text(required=True, check=_regex), "note": Text()})),
        "generic_lines": Seq(Map({"pattern": Text(required=True, check=_regex), "note": Text()})),
        "facts": Seq(
            Map(
                {
                    "key": Text(required=True, check=_fact_key),
                    "value": Text(required=True),
                    "in": Text(required=True, choices=FACT_SCOPES),
                    "pattern": Text(required=True, check=_regex),
                    "note": Text(),
                }
            )
        ),
    }
)


@dataclass(frozen=True)
class FactRule:
    key: str
    value: str  # "{1}" takes the pattern's first group
    # "frames" (frame paths and functions), "text" (every line but the exceptions' messages,
    # whose advice names settings the script may not use) or "messages" (those messages)
    scope: str
    pattern: str


@dataclass(frozen=True)
class DiagnosisConfig:
    wrapper_exceptions: tuple = ()
    failing_rank: tuple = ()  # RE2 patterns whose first group is a rank
    generic_lines: tuple = ()  # RE2 patterns
    facts: tuple = ()  # FactRule


def parse_config(text):
    """Returns (DiagnosisConfig, problems)."""
    value, problems, _ = read_yaml(normalise_newlines(text), SCHEMA)
    config = DiagnosisConfig(
        wrapper_exceptions=tuple(value["wrapper_exceptions"]),
        failing_rank=tuple(item["pattern"] for item in value["failing_rank"]),
        generic_lines=tuple(item["pattern"] for item in value["generic_lines"]),
        facts=tuple(
            FactRule(item["key"], item["value"], item["in"], item["pattern"])
            for item in value["facts"]
        ),
    )
    return config, problems
