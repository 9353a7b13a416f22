"""The layers of docs/architecture.md hold: each app imports only the apps below it (import-linter
contracts in pyproject.toml), so the tree keeps explaining the architecture."""
from pathlib import Path

from importlinter.cli import lint_imports

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_every_import_points_down_the_layers():
    assert lint_imports(config_filename=str(PYPROJECT), no_cache=True, no_logo=True) == 0
