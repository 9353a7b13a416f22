"""Safe by default: DEBUG off, no start-up without a secret key, `check --deploy` clean with the
documented production settings, password validators on, demo logins only with the demo data."""
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.core.management import call_command
from django.test import Client

from console.management.commands import serve as serve_command
from recall_site.secret_key import DEVELOPMENT_KEY, load_secret_key

ROOT = Path(__file__).resolve().parents[2]
# As in docs/security.md, "Production settings" (plus a key and a database URL).
PRODUCTION = {
    "DEBUG": "false", "ALLOWED_HOSTS": "recall.example.com", "CSRF_TRUSTED_ORIGINS": "https://recall.example.com",
    "SECURE_SSL_REDIRECT": "true", "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
    "SESSION_COOKIE_SECURE": "true", "CSRF_COOKIE_SECURE": "true", "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true", "SECURE_HSTS_PRELOAD": "true",
}


def _manage(*args, tmp_path, **env):
    """Run manage.py with a clean environment: no key, no DEBUG, a database that is never reached."""
    base = {name: value for name, value in os.environ.items()
            if name not in ("SECRET_KEY", "SECRET_KEY_FILE", "DEBUG", "DJANGO_SETTINGS_MODULE")
            and not name.startswith("RECALL__")}
    base.update(RECALL_VAR_DIR=str(tmp_path), DATABASE_URL="postgres://nobody@127.0.0.1:9/none", **env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=base, capture_output=True,
                          text=True, timeout=120)


def test_without_a_secret_key_start_up_refuses_and_debug_is_off_by_default(tmp_path):
    refused = _manage("check", tmp_path=tmp_path)
    assert refused.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is not set. With DEBUG off" in refused.stderr
    (tmp_path / "secret_key").write_text("k" * 20 + "-local-key-made-by-make-run\n")
    shown = _manage("shell", "-v", "0", "-c", "from django.conf import settings; print(settings.DEBUG, settings.SECRET_KEY)",
                    tmp_path=tmp_path)
    assert shown.stdout.split() == ["False", "k" * 20 + "-local-key-made-by-make-run"], shown.stderr


def test_check_deploy_is_clean_with_the_production_settings(tmp_path):
    key = "Xq7-" + "".join(chr(65 + (n * 7) % 26) + str(n % 10) for n in range(30))
    result = _manage("check", "--deploy", "--tag", "security", "--fail-level", "WARNING", tmp_path=tmp_path,
                     SECRET_KEY=key, **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    insecure = _manage("check", "--deploy", "--tag", "security", tmp_path=tmp_path, SECRET_KEY=key)
    for warning in ("W004", "W008", "W012", "W016"):  # HSTS, SSL redirect, secure cookies: off by default
        assert f"security.{warning}" in insecure.stderr + insecure.stdout


def test_the_secret_key_comes_from_the_environment_its_file_or_var(tmp_path):
    local = tmp_path / "secret_key"
    assert load_secret_key({"SECRET_KEY": "a"}, debug=False, local_file=local) == "a"
    (tmp_path / "key").write_text("from-file\n")
    assert load_secret_key({"SECRET_KEY_FILE": str(tmp_path / "key")}, debug=False, local_file=local) == "from-file"
    assert load_secret_key({}, debug=True, local_file=local) == DEVELOPMENT_KEY
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is not set"):
        load_secret_key({}, debug=False, local_file=local)
    local.write_text("made-by-make-run")
    assert load_secret_key({}, debug=False, local_file=local) == "made-by-make-run"
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(ImproperlyConfigured, match="is empty"):
        load_secret_key({"SECRET_KEY_FILE": str(tmp_path / "empty")}, debug=False, local_file=local)


def test_password_validators_refuse_weak_passwords(db):
    for weak in ("admin", "demo", "password123", "12345678901"):
        with pytest.raises(ValidationError):
            validate_password(weak)
    validate_password("correct horse battery staple")


def _serve(monkeypatch, *args) -> str:
    class Child:
        def __init__(self, *args, **kwargs):
            pass

        def poll(self):
            return 0

        def wait(self, timeout=None):
            return 0

    monkeypatch.setattr(subprocess, "Popen", Child)
    # No real server was started: this process's database must stay up (test_serve_stop.py covers the stop).
    monkeypatch.setattr(serve_command, "stop_embedded_server_if_unused", lambda: False)
    out = StringIO()
    call_command("serve", *args, stdout=out)
    return out.getvalue()


def test_demo_logins_exist_only_with_the_demo_data_and_the_banner_says_so(db, monkeypatch):
    banner = _serve(monkeypatch, "--no-demo")
    assert not User.objects.filter(username__in=["admin", "demo"]).exists()
    assert "No demo data, so no demo logins" in banner and "admin / admin" not in banner
    banner = _serve(monkeypatch)
    assert set(User.objects.values_list("username", flat=True)) == {"admin", "demo"}
    assert "created with the demo data only" in banner and "demo / demo" in banner and "admin / admin" in banner


def test_behind_a_tls_proxy_http_is_redirected_and_https_gets_hsts(db, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 31536000
    client = Client()
    plain = client.get("/login/")
    assert plain.status_code == 301 and plain["Location"] == "https://testserver/login/"
    assert client.get("/api/v1/health").status_code == 200  # probes inside the network stay on HTTP
    secure = client.get("/login/", HTTP_X_FORWARDED_PROTO="https")
    assert secure.status_code == 200 and secure["Strict-Transport-Security"].startswith("max-age=31536000")


def test_static_files_are_served_with_debug_off_by_any_server(client, settings):
    settings.DEBUG = False
    response = client.get("/static/css/recall.css")
    assert response.status_code == 200 and b"{" in b"".join(response.streaming_content)
