"""Imported first by every bench script: the project first on sys.path, this directory last.

`python bench/search.py` puts bench/ first, where search.py and ingest.py would shadow the apps of those
names. A bench script another one reuses is loaded by path (`load("search")` as module `bench_search`)."""
import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() not in (BENCH, ROOT)] + [str(BENCH)]


def load(name: str):
    """bench/<name>.py as the module `bench_<name>`."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
