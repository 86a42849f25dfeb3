"""A page cached for every visitor that holds a form: the result's "did this fix it?".

kb/caching.py caches no response that used a CSRF token, since the token is the visitor's
own. The result page is rendered instead with `placeholder()` as its token, so that the page
is the same for everyone and is cached with the others, and `with_visitor_token` puts the
visitor's own token in its place as it is served (calling get_token, so that the CSRF
middleware sends the visitor its cookie as it would for any page with a form)."""

from functools import cache, wraps

from django.middleware.csrf import get_token
from django.utils.crypto import salted_hmac


@cache
def placeholder():
    """Derived from SECRET_KEY, so the same on every server that shares the cache, and no
    one can put it into a page by way of the query string to have a visitor's token shown
    where they chose."""
    return salted_hmac("wizard.csrf.placeholder", "", algorithm="sha256").hexdigest()


def with_visitor_token(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        marker = placeholder().encode()
        if marker in response.content:
            response.content = response.content.replace(marker, get_token(request).encode())
        return response

    return wrapper
