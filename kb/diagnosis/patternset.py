"""Many RE2 patterns, one pass: which of them occur in a text, and then on which lines.

`hits` runs every pattern at once with an RE2 set, in time linear in the text whatever the
number of patterns; only the patterns that hit are then searched one by one to find their lines.
"""

import re2

from kb.patterns import quiet_options

# An RE2 set of thousands of patterns needs more than RE2's default 8 MB to compile.
SET_MEMORY = 512 << 20


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
