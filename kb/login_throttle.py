"""Password guessing at the admin login, throttled per client address.

After LOGIN_FAILURES_PER_MINUTE failed logins from one address in a minute, its login POSTs
are refused with a 429 until the minute's window passes, without the password being checked;
the page itself still shows, saying why. Only failures count: a good login costs nothing.

Failures are counted from Django's `user_login_failed` signal, which names exactly the
attempts whose credentials were wrong. The receiver is connected when this module is imported,
which the URLconf does to route the login here, so it is in place before any login request."""

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth.signals import user_login_failed
from django.dispatch import receiver
from django.views.decorators.http import require_http_methods

from kb.ratelimit import Limited, client_address, count, used_up

BUCKET = "login-failures"
WINDOW = 60
MESSAGE = "Too many failed logins from your address: wait a minute before trying again."


@require_http_methods(["GET", "HEAD", "POST"])
def admin_login(request):
    """The admin's own login view, behind the throttle."""
    retry_after = used_up(
        BUCKET, client_address(request), settings.LOGIN_FAILURES_PER_MINUTE, WINDOW
    )
    if retry_after is not None:
        if request.method == "POST":
            raise Limited(MESSAGE, retry_after)
        messages.error(request, MESSAGE)
    return admin.site.login(request)


@receiver(user_login_failed, dispatch_uid="kb.login_throttle")
def _count_failure(sender, credentials, request=None, **kwargs):
    # Only failures that come with a request have an address to count against. count() raises
    # only for attempts that raced past admin_login's check together: those are refused too.
    if request is not None:
        count(BUCKET, client_address(request), settings.LOGIN_FAILURES_PER_MINUTE, WINDOW, MESSAGE)
