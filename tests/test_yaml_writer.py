"""The files are written through libyaml for speed, shifted to the files' format: what it
writes reads back to the same value, and is what PyYAML's own emitter (the reference) writes."""

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from kb.taxonomy.schema import write_yaml
from tests.examples import examples

# The text of the content: words, code, YAML's own marks, indented and blank lines. Not other
# line breaks (the loader turns them into \n) nor control characters.
PRINTABLE = st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp"))
TEXT = st.text(st.sampled_from(list("ab xyz:-#|>'\"[]{},.0123\n\t")) | PRINTABLE, max_size=40)
KEYS = st.sampled_from(["slug", "text", "checks", "note", "- x", "a: b", "when", "|"])
SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=25,
)
DOCUMENTS = st.dictionaries(KEYS, VALUES, min_size=1, max_size=5)


@settings(max_examples=examples(100), deadline=None)
@given(DOCUMENTS)
def test_what_is_written_reads_back_to_the_same_value(document):
    assert yaml.safe_load(write_yaml(document)) == document


@settings(max_examples=examples(100), deadline=None)
@given(DOCUMENTS)
def test_the_fast_writer_writes_what_the_reference_writes(document):
    assert write_yaml(document) == write_yaml(document, fast=False)


def test_a_literal_block_that_looks_like_a_list_stays_text():
    document = {"checks": [{"note": "- one\n- two:\n  three\n", "tags": ["a", "b"]}], "x": 1}
    assert write_yaml(document) == (
        "checks:\n  - note: |\n      - one\n      - two:\n        three\n"
        "    tags:\n      - a\n      - b\nx: 1\n"
    )
