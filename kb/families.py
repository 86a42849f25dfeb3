"""What the families bring, as plain data: the engine's config (wrappers, generic lines, fact
rules), the shared questions with the fact that answers each, and the tailoring variables.
Read from the Family rows once per content version and shared by every request of the
process, as the engine is (an edit of a family records a revision, so the next request reads
them again)."""

from dataclasses import dataclass

from kb.caching import per_content_version
from kb.diagnosis.config import DiagnosisConfig
from kb.models import Family
from kb.snippets import variables_from


@dataclass(frozen=True)
class Families:
    config: DiagnosisConfig
    facts: dict  # shared question key -> "fact=value" that answers it yes ("" for none)
    variables: dict  # key -> snippets.Variable

    @classmethod
    def from_parts(cls, parts):
        parts = list(parts)
        return cls(
            config=DiagnosisConfig.combined(parts),
            facts={q["key"]: q["fact"] for p in parts for q in p["questions"]},
            variables=variables_from(v for p in parts for v in p["variables"]),
        )


@per_content_version
def current():
    return Families.from_parts(
        Family.objects.order_by("order", "slug").values_list("parts", flat=True)
    )
