"""What the console's answers tell the browser: nothing inline runs, cookies only over HTTPS when it is on."""
import os
import subprocess
import sys

from recall_site.content_security import POLICY


def test_every_answer_forbids_inline_and_foreign_scripts(client, db):
    for url in ("/login/", "/api/v1/health"):
        policy = client.get(url).headers["Content-Security-Policy"]
        assert policy == POLICY and "script-src 'self'" in policy and "unsafe-inline" not in policy


def test_recall_https_makes_the_session_and_csrf_cookies_secure():
    code = ("import django; django.setup(); from django.conf import settings; "
            "print(settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE)")
    def secure(https):
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "recall_site.settings_test", "RECALL_HTTPS": https}
        return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              check=True).stdout.split()
    assert secure("1") == ["True", "True"] and secure("0") == ["False", "False"]

