"""The layers of docs/architecture.md hold: each app imports only the apps below it (import-linter
contracts in pyproject.toml), so the tree keeps explaining the architecture. Run in its own process:
import-linter configures logging, which must not leak into the other tests."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT = ("import sys; from importlinter.cli import lint_imports; "
        "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))")


def test_every_import_points_down_the_layers():
    result = subprocess.run([sys.executable, "-c", LINT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:]
