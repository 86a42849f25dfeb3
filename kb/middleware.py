"""Security headers Django 5.2 does not set itself, and the site's own answers to requests it
refuses: too large (413, 414), holding a NUL (400), too many (429).

The Content-Security-Policy is strict: no inline script, no eval, no inline style, nothing
from another origin: the portal runs on closed networks and renders pasted text, so the
browser is told to run only our own files."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse, UnreadablePostError
from django.shortcuts import render
from django.utils.cache import patch_cache_control

from kb import coverage
from kb.models import Entry
from kb.ratelimit import Limited


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
            response = _refused(request, 429, exception.message, "429.html", {})
            response["Retry-After"] = str(exception.retry_after)
            return response
        return None

    middleware.process_exception = process_exception
    return middleware


def private_for_signed_in(get_response):
    """Pages for signed-in staff show drafts and admin links: no shared cache may keep them."""

    def middleware(request):
        response = get_response(request)
        if request.user.is_authenticated:
            patch_cache_control(response, private=True)
        return response

    return middleware


def refuse_oversized(get_response):
    """Requests too large for the site get its own answer instead of a bare 400 from deeper
    down: a link longer than MAX_URL_BYTES is a 414 that offers its text in the paste box,
    and a body larger than Django reads (DATA_UPLOAD_MAX_MEMORY_SIZE) a 413."""

    def middleware(request):
        if len(request.path) + len(request.META.get("QUERY_STRING", "")) > settings.MAX_URL_BYTES:
            paste = _paste_box(request.GET.get("q", ""))
            return _refused(request, 414, LINK_TOO_LONG, "kb/home.html", paste)
        # No page reads a NUL, and PostgreSQL refuses one in any text it is given to compare.
        if any("\x00" in key + "".join(values) for key, values in request.GET.lists()):
            paste = _paste_box(request.GET.get("q", "").replace("\x00", ""))
            return _refused(request, 400, LINK_HOLDS_NUL, "kb/home.html", paste)
        if request.method in ("POST", "PUT", "PATCH"):
            try:
                request.body  # noqa: B018  read here, where too large can still be answered
            except RequestDataTooBig:
                return _refused(request, 413, BODY_TOO_LARGE, "kb/home.html", _paste_box())
            except UnreadablePostError:
                return _refused(request, 400, BODY_UNREADABLE, "kb/home.html", _paste_box())
        return get_response(request)

    return middleware


LINK_TOO_LONG = (
    "This link is too long to be followed (links hold at most 8 KB). Its text is in the box "
    "below: press “Find the failure”, or paste the end of your output instead."
)
BODY_TOO_LARGE = (
    "The request is larger than the site accepts (pastes hold at most 1 MB). Paste the end of "
    "the output: the traceback and the lines just before it are what matter."
)
BODY_UNREADABLE = "The request's body did not arrive in full. Please send it again."
LINK_HOLDS_NUL = (
    "This link holds a NUL character (%00), which is not text. Its text without it is in the box "
    "below: press “Find the failure”, or follow the link again without the %00."
)


def _refused(request, status, message, template, context):
    """A refusal as JSON for the API, else as `template` showing `message` as its error."""
    if request.path.startswith("/api/"):
        return JsonResponse({"error": message}, status=status)
    return render(request, template, {**context, "error": message}, status=status)


def _paste_box(paste=""):
    return {"paste": paste, **coverage.known(Entry.objects.published())}
