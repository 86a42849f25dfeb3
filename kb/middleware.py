"""Security headers Django 5.2 does not set itself, and floods refused with a 429.

The Content-Security-Policy is strict: no inline script, no eval, no inline style, nothing
from another origin: the portal runs on closed networks and renders pasted text, so the
browser is told to run only our own files."""

from django.conf import settings

from kb.ratelimit import Limited, too_many_requests


def content_security_policy(get_response):
    policy = settings.CONTENT_SECURITY_POLICY

    def middleware(request):
        response = get_response(request)
        response.headers.setdefault("Content-Security-Policy", policy)
        return response

    return middleware


def refuse_floods(get_response):
    """A view that raises ratelimit.Limited answers 429 with Retry-After (kb/ratelimit.py)."""

    def middleware(request):
        return get_response(request)

    def process_exception(request, exception):
        if isinstance(exception, Limited):
            return too_many_requests(request, exception)
        return None

    middleware.process_exception = process_exception
    return middleware
