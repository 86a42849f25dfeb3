"""What the engine knows about the ecosystem rather than about one failure: which exceptions
only wrap another process's failure, how launchers name the rank that failed first, which lines
never identify a failure on their own, and the fact rules. Content: each family's family.yaml
brings its own (kb/taxonomy/family.py reads them), and the engine takes them all together as
plain data, so a new family needs no code."""

from dataclasses import dataclass

from kb.diagnosis.calibration import UNFITTED, Calibration


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
    calibration: Calibration = UNFITTED

    @classmethod
    def combined(cls, parts):
        """One config from the parts of several families (dicts as family.yaml holds them),
        in their order: the first rule that sets a fact decides it."""
        parts = list(parts)
        fitted = [p["calibration"] for p in parts if p.get("calibration")]
        return cls(
            wrapper_exceptions=tuple(
                dict.fromkeys(w for p in parts for w in p["wrapper_exceptions"])
            ),
            failing_rank=tuple(i["pattern"] for p in parts for i in p["failing_rank"]),
            generic_lines=tuple(i["pattern"] for p in parts for i in p["generic_lines"]),
            facts=tuple(
                FactRule(i["key"], i["value"], i["in"], i["pattern"])
                for p in parts
                for i in p["facts"]
            ),
            calibration=Calibration.from_part(fitted[0]) if fitted else UNFITTED,
        )
