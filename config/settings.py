"""Faultline settings: the only settings file. Every value comes from the environment.

The defaults make `make run` work on SQLite with no configuration. Production sets at least
SECRET_KEY, ALLOWED_HOSTS and DATABASE_URL (see README.md, "Configuration").
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default=False):
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value not in {"1", "true", "yes", "on", "0", "false", "no", "off"}:
        raise ImproperlyConfigured(f"{name}={value!r}: use 1 or 0.")
    return value in {"1", "true", "yes", "on"}


def env_int(name, default):
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not (value.isascii() and value.isdigit()):
        raise ImproperlyConfigured(f"{name}={value!r}: expected a whole number.")
    return int(value)


def env_list(name, default=""):
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

# A single machine may keep its key in .secret_key (make creates it); production sets
# SECRET_KEY, the same on every app server.
_KEY_FILE = BASE_DIR / ".secret_key"
SECRET_KEY = os.environ.get("SECRET_KEY") or (
    _KEY_FILE.read_text().strip() if _KEY_FILE.exists() else ""
)
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY, or run make to create .secret_key.")
    SECRET_KEY = "insecure-development-key-never-used-with-debug-off"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# The public address of the site, used in links printed outside it (error hooks, the CLI).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials.apps.SimpleAppConfig",
    "kb",
    "wizard",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "kb.middleware.content_security_policy",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "kb.middleware.refuse_oversized",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "kb.middleware.private_for_signed_in",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "kb.middleware.refuse_floods",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # "page.html#fragment" renders one {% partialdef %} of a page (htmx swaps).
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
            "builtins": ["template_partials.templatetags.partials"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "kb.context_processors.site_links",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several gunicorn workers write to one file. WAL lets readers go on during a write;
    # IMMEDIATE takes the write lock when a transaction starts, so a second writer waits for
    # it (up to the timeout, in seconds) instead of failing with "database is locked" when it
    # tries to upgrade a read lock another writer is waiting on.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }

# One machine: each process keeps its own cache. Several app servers: point them all at one
# Redis, so that rendered pages and everything else cached are shared.
REDIS_URL = os.environ.get("REDIS_URL", "")
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            # Locmem keeps 300 entries by default, fewer than the wizard's steps along one
            # walk through every entry's checklist: visited in turn, each page was culled
            # before anyone asked for it again. A page is some 7 KB.
            "OPTIONS": {"MAX_ENTRIES": env_int("CACHE_MAX_ENTRIES", 5000)},
        }
    )
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Where the shipped taxonomy lives (one file per entry); load_taxonomy and dump_taxonomy use it.
TAXONOMY_DIR = Path(os.environ.get("TAXONOMY_DIR", BASE_DIR / "fixtures"))

# Security. Cookies are Secure unless DEBUG is on or SECURE_COOKIES=0 (make run serves
# plain HTTP on loopback and sets it). TLS is usually terminated by a proxy in front.
SECURE_COOKIES = env_bool("SECURE_COOKIES", not DEBUG)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
if env_bool("TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Behind a proxy every request comes from the proxy's address: limits per client then read
# the last hop the proxy added to X-Forwarded-For (kb/ratelimit.py).
TRUST_X_FORWARDED_FOR = env_bool("TRUST_X_FORWARDED_FOR", False)

# A paste holds at most 1 MB (kb/paste.py); form-encoded, each byte may take three. Larger
# bodies, and links longer than MAX_URL_BYTES, get the site's own 413 and 414 pages.
DATA_UPLOAD_MAX_MEMORY_SIZE = 3_000_000 + 100_000
MAX_URL_BYTES = 8192

# Limits on what visitors can make the site store or try (kb/ratelimit.py; README, "Limits").
UNMATCHED_PER_ADDRESS_PER_HOUR = env_int("UNMATCHED_PER_ADDRESS_PER_HOUR", 100)
UNMATCHED_MAX_ROWS = env_int("UNMATCHED_MAX_ROWS", 10_000)
FEEDBACK_PER_ADDRESS_PER_HOUR = env_int("FEEDBACK_PER_ADDRESS_PER_HOUR", 60)
LOGIN_FAILURES_PER_MINUTE = env_int("LOGIN_FAILURES_PER_MINUTE", 5)
# Days a posted paste keeps its shared address, /d/<key> (kb/sharing.py).
SHARED_PASTE_DAYS = env_int("SHARED_PASTE_DAYS", 90)
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
