"""Whole pages rendered once per content version, for visitors who are not signed in.

The version is the latest revision's id, read from the database on each request (one indexed
query), so every app server sees an edit at once whatever cache it has: an edit records a
revision, and pages of the old version are never served again. Staff (drafts, admin links)
and responses that set cookies or carry a CSRF token are never cached."""

import hashlib
from functools import wraps

from django.core.cache import cache
from django.db.models import Max
from django.utils.cache import patch_vary_headers

from kb.models import Revision

PAGE_TIMEOUT = 24 * 3600


def content_version():
    return Revision.objects.aggregate(latest=Max("id"))["latest"] or 0


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
