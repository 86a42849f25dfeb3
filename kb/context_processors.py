"""What every page's frame (templates/base.html) links to, reversed once per process: each
uncached page (a wizard step, a diagnosis, a search) reversed the same four addresses anew,
some 80 µs of a 1.6 ms wizard step."""

from functools import cache

from django.urls import get_script_prefix, reverse

LINKS = {"home": "kb:home", "browse": "kb:browse", "wizard": "wizard:step", "search": "kb:search"}


def site_links(request):
    # Not "frame": the diagnosis page's own context names the user's traceback frame so.
    return {"site_links": _site_links(get_script_prefix())}


@cache
def _site_links(prefix):
    # Keyed by the prefix the site is served under, which is all that reverse() reads that
    # a request can change.
    return {name: reverse(view) for name, view in LINKS.items()}
