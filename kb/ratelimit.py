"""Limits per client address, counted in the cache: what a flood is refused gets a 429 with a
`Retry-After`, never a 500.

Counters are fixed windows (`limit` events per `window` seconds). With one shared cache
(Redis, several app servers) a limit holds across servers; with a cache per process (one
machine) each process counts its own, so a client may get up to `limit` times the number of
processes: still a bound, which is what protects the database.
"""

import time

from django.conf import settings
from django.core.cache import cache


class Limited(Exception):
    """Raised when a client has used up a limit; `retry_after` is in whole seconds."""

    def __init__(self, message, retry_after):
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


def client_address(request):
    """The client's address: the proxy's last `X-Forwarded-For` hop when the site is told to
    trust it (TRUST_X_FORWARDED_FOR), the connection's address otherwise."""
    if settings.TRUST_X_FORWARDED_FOR:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1][:64]
    return request.META.get("REMOTE_ADDR", "")[:64] or "unknown"


def _window(window):
    now = time.time()
    start = int(now // window) * window
    return start, max(1, int(start + window - now))


def count(bucket, key, limit, window, message):
    """Count one event of `key` in `bucket`; raise Limited once `limit` is passed."""
    start, retry_after = _window(window)
    name = f"limit:{bucket}:{start}:{key}"
    cache.add(name, 0, window + 1)
    try:
        used = cache.incr(name)
    except ValueError:  # expired between add and incr
        cache.set(name, 1, window + 1)
        used = 1
    if used > limit:
        raise Limited(message, retry_after)


def used_up(bucket, key, limit, window):
    """Whether `key` has already used `limit` events of `bucket` in this window (no count)."""
    start, retry_after = _window(window)
    used = cache.get(f"limit:{bucket}:{start}:{key}", 0)
    return retry_after if used >= limit else None
