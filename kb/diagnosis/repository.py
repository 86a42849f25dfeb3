"""The engine fed from the database: the only part of kb.diagnosis that knows Django.

The compiled engine (every published signature in one RE2 set, with every family's wrappers,
generic lines and fact rules) is built once per content version and shared by every request of
the process; an edit anywhere records a revision, so the next request rebuilds it.
"""

from kb import families, fulltext
from kb.caching import per_content_version
from kb.diagnosis import Engine
from kb.diagnosis.rank import EntryInfo, SignatureIndex, SignatureSpec
from kb.models import Entry


def build_engine():
    entries = Entry.objects.published().prefetch_related("signatures", "fingerprint")
    infos, specs = [], []
    for entry in entries:
        steps = tuple((step.level, step.pattern) for step in entry.fingerprint.all())
        infos.append(EntryInfo(entry.slug, entry.code, entry.title, steps))
        specs += [
            SignatureSpec(entry.slug, s.kind, s.pattern, s.weight, s.scope)
            for s in entry.signatures.all()
        ]
    config = families.current().config
    return Engine(SignatureIndex(infos, specs, config.generic_lines), config)


current_engine = per_content_version(build_engine)


def diagnose(text):
    return current_engine().diagnose(text, fulltext=fulltext.search)
