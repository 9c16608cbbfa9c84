"""Django settings for Tanteo, read from the environment through :mod:`config.env`.

Every variable, its default and its meaning is listed in ``docs/configuration.md``.
The defaults run a local instance with no service at all: DEBUG on, SQLite in the project
folder, Celery tasks executed eagerly in-process, a local-memory cache. With ``DEBUG`` off,
a ``SECRET_KEY`` is required and the security settings default to production values.
"""

import datetime
from pathlib import Path

from celery.schedules import crontab
from csp.constants import NONCE, NONE, SELF
from django.utils.translation import gettext_lazy as _

from config.env import Env, EnvError

BASE_DIR = Path(__file__).resolve().parent.parent

env = Env()

# --- Core -------------------------------------------------------------------------------

DEBUG = env.bool("DEBUG", default=True)

# Only local development may fall back to a key everyone knows.
SECRET_KEY = env.str(
    "SECRET_KEY", default="django-insecure-local-development-only" if DEBUG else None
)
if SECRET_KEY is None:
    raise EnvError("SECRET_KEY is required when DEBUG is off.")

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    # First: its runserver serves ASGI (the live pages' sockets) in place of Django's.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Its ordinals ("1st", "1.º", "1r"), translated by Django: the circuits' placements.
    "django.contrib.humanize",
    # Before staticfiles, so runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "axes",
    "csp",
    "channels",
    "tournaments",
    "referees",
    "api",
]

MIDDLEWARE = [
    "config.middleware.HealthCheckMiddleware",
    "config.middleware.RefusedMethodMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # A championship's pages in its time zone (its times told, its forms read there).
    "config.middleware.ChampionshipTimeZoneMiddleware",
    # After the language is known (its page is translated), before anything reads the body.
    "config.middleware.RequestBodyLimitMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes requires: it turns a refused login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.i18n",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Data -------------------------------------------------------------------------------

DATABASES = {
    "default": env.database(
        "DATABASE_URL",
        default="sqlite:///db.sqlite3",
        base_dir=BASE_DIR,
        pool=env.bool("DATABASE_POOL", default=True),
    )
}

CACHES = {"default": env.cache("REDIS_URL")}
CACHES["default"]["KEY_PREFIX"] = env.str("CACHE_KEY_PREFIX", default="tanteo")
if CACHES["default"]["BACKEND"].endswith("LocMemCache"):
    # The embedded default: room for a big day's pages and their parts (a round of 200
    # tables is 200 rows), past Django's 300 entries; each process has its own.
    CACHES["default"].setdefault("OPTIONS", {})["MAX_ENTRIES"] = 3000

# Public pages are served from that cache, keyed by the versions of what they show
# (tournaments/live/); off, they are rendered on every request.
PAGE_CACHE = env.bool("PAGE_CACHE", default=True)
# Where those pages are also written for the proxy to serve without Python (empty: they
# are not; tournaments/live/published.py, `manage.py proxy_config`).
PUBLISHED_PAGES_DIR = env.str("PUBLISHED_PAGES_DIR", default="")
# A published page is renewed at once by a write, then at most once in this many seconds
# (the writes meanwhile renewed together at its end; tournaments/live/renewing.py); 0: at
# once after every write.
PUBLISHED_RENEW_EVERY = env.int("PUBLISHED_RENEW_EVERY", default=1, minimum=0)

# The live pages' sockets (Django Channels): what a write announces reaches every server
# process through Redis; in memory (one process: runserver) when REDIS_URL is unset.
CHANNEL_LAYERS = {"default": env.channel_layer("REDIS_URL")}
if "CONFIG" in CHANNEL_LAYERS["default"]:
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = CACHES["default"]["KEY_PREFIX"] + ":asgi"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# django-axes first: it refuses a locked-out login before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# --- Email (referee invitations) ---------------------------------------------------------

# The console by default: an invitation is printed, and its link is on the organiser's page
# anyway, so no mail server is needed for anything to work. Printed with its secret links
# hidden (config.logs): the process's output is a log.
EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="config.logs.ConsoleEmailBackend")
EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25, minimum=1)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="tanteo@localhost")
# Where the site is reached from outside: the links of the mails sent with no request
# behind them (the players' notices, tournaments.notices).
SITE_URL = env.str("SITE_URL", default="http://localhost:8000")

# --- Web Push (the players' phones: tournaments.notices.push, docs/configuration.md) ------

# The site's VAPID keys (`manage.py vapid_keys` prints a new pair): the public key a phone
# subscribes with, the private key each push is signed with, and who to contact about
# them (a mailto: or https: address). Without both keys no phone is offered notifications
# and the mails work as before.
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default=f"mailto:{DEFAULT_FROM_EMAIL}")
# The push services a subscription may point at (HTTPS only): the site posts to its
# endpoint, so any other host is refused (no request to an address a visitor chose).
# "*.example.com" is any subdomain of example.com.
PUSH_SERVICE_HOSTS = env.list(
    "PUSH_SERVICE_HOSTS",
    default=[
        "fcm.googleapis.com",
        "updates.push.services.mozilla.com",
        "*.notify.windows.com",
        "web.push.apple.com",
        "*.push.apple.com",
    ],
)
# For the tests alone, never from the environment: hosts whose plain-http endpoints are
# accepted (a test's own push service on 127.0.0.1). Empty: none.
PUSH_INSECURE_TEST_HOSTS: list[str] = []

# --- Languages and time -----------------------------------------------------------------

LANGUAGES = [
    ("es", _("Spanish")),
    ("ca", _("Catalan")),
    ("en", _("English")),
]
LANGUAGE_CODE = env.str("LANGUAGE_CODE", default="es")
if LANGUAGE_CODE not in dict(LANGUAGES):
    raise EnvError(f"LANGUAGE_CODE must be one of es, ca, en, not {LANGUAGE_CODE!r}.")
LOCALE_PATHS = [BASE_DIR / "locale"]
# The project's date formats per language (config/formats/): a weekday with its date as
# each language writes it, read by name (tournaments.templatetags.dates).
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Madrid")
USE_TZ = True

# --- Static files -----------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    # Pyodide's runtime files, from the npm registry (package.json, installed by `make
    # install`: `npm ci`), served as static/pyodide/: the referee's tablet runs the rules
    # engine with it (referees/tablet.py). Never from a CDN. Without node_modules the
    # tablet keeps to the server-rendered flow.
    "config.staticfinders.PyodideFinder",
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed names need `collectstatic` first: production only.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- Security (production defaults whenever DEBUG is off) -------------------------------

SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
# Every tap of a referee's tablet reads his session: from the cache, the database only
# when the cache lost it (writes go to both, so nothing is lost with the cache).
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_SAMESITE = "Lax"
if env.bool("SECURE_PROXY_SSL_HEADER", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Content-Security-Policy (django-csp): everything from this site only, no inline script
# or style (an inline script would need the page's nonce, ``request.csp_nonce``), never
# framed. Fixed here, not configurable: docs/configuration.md.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# --- Logging in: throttling (django-axes) ------------------------------------------------

# After LOGIN_FAILURE_LIMIT wrong passwords for one user name from one address, that pair is
# refused (even with the right password) for LOGIN_COOLOFF_MINUTES after the last attempt.
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5, minimum=1)
AXES_COOLOFF_TIME = datetime.timedelta(
    minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15, minimum=1)
)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.views.locked_out"
AXES_CLIENT_IP_CALLABLE = "config.middleware.client_ip"
# How many proxies in front of the site append to X-Forwarded-For (0: none, use the peer).
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0, minimum=0)

# --- Request bodies ---------------------------------------------------------------------

# A whole request body (Content-Length) above this is answered 413 before it is read. It
# leaves room for the CSV team import (2 MB files, tournaments/io/imports.py).
REQUEST_MAX_BODY_SIZE = env.int("REQUEST_MAX_BODY_SIZE", default=5_000_000, minimum=100_000)
# Form fields (everything but uploaded files): the biggest page posts a few kilobytes.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1_000_000
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
# Uploads up to this size stay in memory, larger ones go to a temporary file: a whole CSV
# import (2 MB at most) stays in memory.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_500_000

# --- Celery -----------------------------------------------------------------------------

# Without a broker, tasks run eagerly in the calling process: nothing else to start locally.
CELERY_TASK_ALWAYS_EAGER = not env.is_set("CELERY_BROKER_URL")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="memory://")
# Results (for .get() and monitoring) go to the broker's Redis unless told otherwise.
CELERY_RESULT_BACKEND = env.str(
    "CELERY_RESULT_BACKEND",
    default=CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis", "rediss")) else None,
)
CELERY_TIMEZONE = TIME_ZONE

# Tasks are published from web requests, after the result is committed: a broker that is
# down or hung must cost a request about this many seconds, never a worker's whole
# timeout. A publish that fails is logged and left to the standings repair below.
_BROKER_TIMEOUT = env.int("CELERY_BROKER_TIMEOUT", default=1, minimum=1)
_PUBLISH_RETRY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
_VISIBILITY_TIMEOUT = env.int("CELERY_VISIBILITY_TIMEOUT", default=3600, minimum=1)
CELERY_BROKER_CONNECTION_TIMEOUT = _BROKER_TIMEOUT
CELERY_TASK_PUBLISH_RETRY_POLICY = _PUBLISH_RETRY
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": _BROKER_TIMEOUT,
    "socket_timeout": _BROKER_TIMEOUT,
    # Also bounds connecting a channel (kombu retries forever without it).
    **_PUBLISH_RETRY,
    # How long a message taken by a worker that vanished (killed, machine lost) stays
    # unacknowledged before Redis hands it to another worker (late acknowledgement).
    "visibility_timeout": _VISIBILITY_TIMEOUT,
    # Look for such messages this often (kombu's default: a scan every 100 s).
    "unacked_restore_interval": min(10, _VISIBILITY_TIMEOUT),
    "unacked_restore_throttle": 1,
}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = _BROKER_TIMEOUT
CELERY_REDIS_SOCKET_TIMEOUT = 5 * _BROKER_TIMEOUT
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": _PUBLISH_RETRY}

# Periodic tasks (`celery -A config beat`). The repair refreshes the standings a lost
# refresh left stale (broker down when a result was saved, worker killed mid-task).
# How long a write's Idempotency-Key is remembered (a tablet's retries come far sooner).
IDEMPOTENCY_KEY_DAYS = env.int("IDEMPOTENCY_KEY_DAYS", default=7, minimum=1)
# Teams one address may send through the entry form and the API in a window of seconds.
ENTRY_FORM_LIMIT = env.int("ENTRY_FORM_LIMIT", default=10, minimum=1)
ENTRY_FORM_WINDOW = env.int("ENTRY_FORM_WINDOW", default=600, minimum=1)
STANDINGS_REPAIR_INTERVAL = env.int("STANDINGS_REPAIR_INTERVAL", default=300, minimum=10)
CELERY_BEAT_SCHEDULE = {
    "championships-finish-ended": {
        "task": "tournaments.tasks.championships_finish_ended",
        "schedule": crontab(hour=3, minute=0),
    },
    "idempotency-keys-purge": {
        "task": "api.tasks.purge_idempotency_keys",
        "schedule": crontab(hour=3, minute=30),
    },
    "notices-resend": {
        "task": "tournaments.notices.tasks.resend_notices",
        "schedule": 120.0,
        "options": {"expires": 120},
    },
    "standings-repair": {
        "task": "tournaments.tasks.repair_standings",
        "schedule": float(STANDINGS_REPAIR_INTERVAL),
        # A run not started before the next one is due is dropped, not piled up.
        "options": {"expires": STANDINGS_REPAIR_INTERVAL},
    },
}

# --- API --------------------------------------------------------------------------------

# --- API (Django REST framework, drf-spectacular, django-filter): docs/api.md ------------
# Kept in one block: the API's apps, authentication, errors, pagination and throttles.

INSTALLED_APPS += [
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    # Swagger UI and Redoc served from our own static files, never from a CDN.
    "drf_spectacular_sidecar",
]

REST_FRAMEWORK = {
    # Token first: a request without credentials is answered 401 with `WWW-Authenticate`.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    # DRF's, with a bound on a body's nesting (api/parsers.py); forms and uploads as DRF's.
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # OPTIONS says what a view allows, never runs its object lookup (api/metadata.py).
    "DEFAULT_METADATA_CLASS": "api.metadata.Metadata",
    "DEFAULT_THROTTLE_CLASSES": ["api.throttles.AnonThrottle", "api.throttles.UserWriteThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("API_THROTTLE_ANON", default="120/min"),
        "user_write": env.str("API_THROTTLE_USER_WRITE", default="120/min"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Tanteo API",
    "DESCRIPTION": "Truco championships: read everything public; organisers and referees "
    "write. Errors, idempotency and throttling: docs/api.md.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "ChampionshipStatusEnum": "tournaments.models.Championship.Status",
        "MatchStatusEnum": "tournaments.models.Match.Status",
        "EntryStatusEnum": "tournaments.models.Entry.Status",
        "ScorekeepingEnum": "tournaments.models.Scorekeeping",
        "RecordedEnum": "tournaments.models.Match.Recorded",
        "ResultSideEnum": "api.serializers.results.SIDES",
    },
}

# --- Logging ----------------------------------------------------------------------------

# Every line with the tokens of the secret addresses hidden (config.logs): a team's link,
# an invitation, a check-in code. Django's own loggers (its warnings, runserver's and
# daphne's requests) lose Django's default handlers, which have no such filter, and go up
# to the root's like every other.
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {"hide_secrets": {"()": "config.logs.HideSecrets"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["hide_secrets"],
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": [], "propagate": True},
        "django.server": {"handlers": [], "propagate": True},
        # django-axes announces itself at every start (commands too); logins and lockouts
        # it logs from axes.handlers, at INFO and WARNING.
        "axes.apps": {"level": "WARNING"},
        # Its DEBUG lines name each request's path: a push endpoint's is a capability.
        "urllib3.connectionpool": {"level": "INFO" if LOG_LEVEL == "DEBUG" else LOG_LEVEL},
    },
}
if CELERY_TASK_ALWAYS_EAGER:
    # Tasks run inside the command or request that queued them: a line per task (and
    # kombu's word on the in-memory broker) would bury what the command itself says.
    LOGGING["loggers"].update(
        {
            "celery.app.trace": {"level": "WARNING"},
            "kombu.connection": {"level": "ERROR"},
        }
    )
