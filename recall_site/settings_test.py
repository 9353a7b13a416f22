"""Test settings: background tasks run inline, fast password hashing, a test-only secret key."""
import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-any-deployment")

from recall_site.settings import *  # noqa: E402, F403

Q_CLUSTER = {**Q_CLUSTER, "sync": True}  # noqa: F405
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
LOGGING = {"version": 1, "disable_existing_loggers": False}
