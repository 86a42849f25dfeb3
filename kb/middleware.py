"""Security headers Django 5.2 does not set itself: a strict Content-Security-Policy.

No inline script, no eval, no inline style, nothing from another origin: the portal runs on
closed networks and renders pasted text, so the browser is told to run only our own files."""

from django.conf import settings


def content_security_policy(get_response):
    policy = settings.CONTENT_SECURITY_POLICY

    def middleware(request):
        response = get_response(request)
        response.headers.setdefault("Content-Security-Policy", policy)
        return response

    return middleware
