"""Where Django's SECRET_KEY comes from: SECRET_KEY, else the file named by SECRET_KEY_FILE,
else var/secret_key (under RECALL_VAR_DIR) if it exists.

`make run` (and `make bench`) create var/secret_key once, with a random key, and
reuse it, so manage.py commands find it too. With none of these and DEBUG on, a
fixed development key is used; with DEBUG off (the default) start-up refuses:
a guessable key lets anyone forge session cookies and password-reset tokens.
"""
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

DEVELOPMENT_KEY = "dev-only-insecure-key-change-me"
MISSING = (
    "SECRET_KEY is not set. With DEBUG off Recall needs a secret key: set SECRET_KEY to a long random "
    "string (python -c 'import secrets; print(secrets.token_urlsafe(50))'), or SECRET_KEY_FILE to a file "
    "holding one. `make run` creates var/secret_key and reuses it; DEBUG=true falls back to a development key."
)


def load_secret_key(environ, *, debug: bool, local_file: Path) -> str:
    """The key from the environment, its file or `local_file`; the development key only when `debug`."""
    if environ.get("SECRET_KEY"):
        return environ["SECRET_KEY"]
    if environ.get("SECRET_KEY_FILE"):
        return _read_key_file(Path(environ["SECRET_KEY_FILE"]))
    if local_file.is_file():
        return _read_key_file(local_file)
    if debug:
        return DEVELOPMENT_KEY
    raise ImproperlyConfigured(MISSING)


def _read_key_file(path: Path) -> str:
    try:
        key = path.read_text().strip()
    except OSError as error:
        raise ImproperlyConfigured(f"The secret key file {path} cannot be read: {error.strerror}") from None
    if not key:
        raise ImproperlyConfigured(f"The secret key file {path} is empty")
    return key
