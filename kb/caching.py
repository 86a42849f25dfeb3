"""Whole pages rendered once per content version, for visitors who are not signed in.

The version is the latest revision's id with the latest list revision's and the latest family
revision's (an entry's edit, a category's, a framework's, an old address's, a family's).
Recording any publishes the new version in the cache once its transaction commits, so with one
shared cache (Redis, several app servers) every server serves the edit at once; with a cache per
process (one machine) the other processes see it within VERSION_TTL seconds, when they read the
version from the database again. Staff
(drafts, admin links) and responses that set cookies or carry a CSRF token are never cached."""

import hashlib
import threading
from functools import wraps

from django.contrib import messages
from django.core.cache import cache
from django.db import transaction
from django.db.models import Max
from django.http import QueryDict
from django.utils.cache import patch_vary_headers

from kb.models import FamilyRevision, ListRevision, Revision

PAGE_TIMEOUT = 24 * 3600
VERSION_KEY = "content-version"
VERSION_TTL = 2  # seconds


def _latest_version():
    entries = Revision.objects.aggregate(latest=Max("id"))["latest"] or 0
    lists = ListRevision.objects.aggregate(latest=Max("id"))["latest"] or 0
    families = FamilyRevision.objects.aggregate(latest=Max("id"))["latest"] or 0
    return f"{entries}.{lists}.{families}"


def content_version():
    version = cache.get(VERSION_KEY)
    if version is None:
        version = _latest_version()
        cache.set(VERSION_KEY, version, VERSION_TTL)
    return version


def per_content_version(build):
    """`build(*args)`, made once per content version and arguments and shared by the requests
    of the process (the engine, the families' parts, the wizard's content): an edit records a
    revision, so the next call after it builds anew."""
    lock, memo = threading.Lock(), {"version": None, "values": {}}

    @wraps(build)
    def current(*args, **kwargs):
        version, key = content_version(), (args, tuple(sorted(kwargs.items())))
        with lock:
            if memo["version"] != version:
                memo["version"], memo["values"] = version, {}
            if key not in memo["values"]:
                memo["values"][key] = build(*args, **kwargs)
            return memo["values"][key]

    return current


def content_changed():
    """Publish the new version once the edit is committed (never before: a page rendered from
    the old rows must not be cached under the new version)."""
    transaction.on_commit(lambda: cache.set(VERSION_KEY, _latest_version(), VERSION_TTL))


def _key(request, version, query):
    place = hashlib.sha256(f"{request.path}?{query}".encode()).hexdigest()[:40]
    return f"page:{version}:{int(bool(request.htmx))}:{place}"


def _has_messages(request):
    """Whether a flash message waits for this visitor. A `messages` cookie alone proves
    nothing (anyone can send one): only messages that read back count."""
    return "messages" in request.COOKIES and len(messages.get_messages(request)) > 0


def cached_for_visitors(view=None, *, query=None):
    """Serve `view` to visitors from a page rendered once per content version.

    The cache key is the path and `query(request, version)`: the query string reduced to what
    the view reads (by default nothing), so parameters a view does not know cannot make a
    cache miss each; the view then renders from that same reduced query."""
    if view is None:
        return lambda view: cached_for_visitors(view, query=query)

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.user.is_authenticated or _has_messages(request):
            response = view(request, *args, **kwargs)
        else:
            version = content_version()
            reduced = query(request, version) if query else ""
            key = _key(request, version, reduced)
            response = cache.get(key)
            if response is None:
                request.GET = QueryDict(reduced)
                response = view(request, *args, **kwargs)
                if _cacheable(request, response):
                    cache.set(key, response, PAGE_TIMEOUT)
        patch_vary_headers(response, ["HX-Request", "Cookie"])
        return response

    return wrapper


def _cacheable(request, response):
    return (
        response.status_code == 200
        and not response.cookies
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    )
