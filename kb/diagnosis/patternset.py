"""Many RE2 patterns, one pass: which of them occur in a text, and then where.

`hits` runs every pattern at once with an RE2 set, in time linear in the text whatever the
number of patterns. `locate` finds where each hit is: the set runs over blocks of lines, and each
hitting pattern is then searched only in the blocks where it hit, so a long paste is scanned
about once however many patterns hit.
"""

import re2

from kb.patterns import quiet_options

# An RE2 set of thousands of patterns needs more than RE2's default 8 MB to compile.
SET_MEMORY = 512 << 20
BLOCK_CHARS = 32_768


class PatternSet:
    def __init__(self, sources):
        """`sources` are RE2 patterns, each applied line by line (^ and $ match at lines)."""
        self.sources = [f"(?m){source}" for source in sources]
        self._compiled = {}
        self._set = None
        if self.sources:
            options = quiet_options()
            options.max_mem = SET_MEMORY
            self._set = re2.Set.SearchSet(options)
            for source in self.sources:
                self._set.Add(source)
            self._set.Compile()

    def __len__(self):
        return len(self.sources)

    def hits(self, text):
        """Indices of the patterns that match somewhere in `text`, in order."""
        if self._set is None:
            return []
        return sorted(self._set.Match(text) or ())  # RE2 answers None for no hit

    def regex(self, index):
        if index not in self._compiled:
            self._compiled[index] = re2.compile(self.sources[index], quiet_options())
        return self._compiled[index]

    def matches(self, index, text, limit=20):
        """Up to `limit` match objects of pattern `index` in `text`."""
        found = []
        for match in self.regex(index).finditer(text):
            found.append(match)
            if len(found) >= limit:
                break
        return found

    def locate(self, text, limit=20):
        """{pattern index: [start offsets of up to `limit` matches]} for every pattern that
        matches in `text`. Patterns match within a line, so blocks end at line breaks."""
        found = {}
        start = 0
        while start < len(text):
            end = (
                len(text)
                if len(text) - start <= BLOCK_CHARS
                else text.find("\n", start + BLOCK_CHARS)
            )
            end = len(text) if end == -1 else end
            block = text[start:end]
            for index in self.hits(block):
                offsets = found.setdefault(index, [])
                if len(offsets) < limit:
                    room = limit - len(offsets)
                    offsets += [start + m.start() for m in self.matches(index, block, room)]
            start = end + 1
        return found
