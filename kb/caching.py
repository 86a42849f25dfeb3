"""Whole pages rendered once per content version, for visitors who are not signed in.

The version is the latest revision's id. Recording a revision publishes the new version in the
cache once its transaction commits, so with one shared cache (Redis, several app servers) every
server serves the edit at once; with a cache per process (one machine) the other processes see
it within VERSION_TTL seconds, when they read the version from the database again. Staff
(drafts, admin links) and responses that set cookies or carry a CSRF token are never cached."""

import hashlib
from functools import wraps

from django.core.cache import cache
from django.db import transaction
from django.db.models import Max
from django.utils.cache import patch_vary_headers

from kb.models import Revision

PAGE_TIMEOUT = 24 * 3600
VERSION_KEY = "content-version"
VERSION_TTL = 2  # seconds


def content_version():
    version = cache.get(VERSION_KEY)
    if version is None:
        version = Revision.objects.aggregate(latest=Max("id"))["latest"] or 0
        cache.set(VERSION_KEY, version, VERSION_TTL)
    return version


def content_changed(revision_id):
    """Publish a new version once the edit is committed (never before: a page rendered from
    the old rows must not be cached under the new version)."""
    transaction.on_commit(lambda: cache.set(VERSION_KEY, revision_id, VERSION_TTL))


def _key(request, version):
    path = hashlib.sha256(request.get_full_path().encode()).hexdigest()[:40]
    return f"page:{version}:{int(bool(request.htmx))}:{path}"


def cached_for_visitors(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.user.is_authenticated or "messages" in request.COOKIES:
            response = view(request, *args, **kwargs)
        else:
            key = _key(request, content_version())
            response = cache.get(key)
            if response is None:
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
