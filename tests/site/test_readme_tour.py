"""The README's five-minute tour runs as written on a fresh `make run`.

Every fenced bash block from "## Five-minute tour" to the next top-level section runs, in order, in one bash
session (so `$H` and the ids looked up on the way carry over, as in a reader's terminal) against a real
`manage.py serve` with the demo data, in its own data directory, from a folder holding only `.venv` and
`manage.py`. Each command must succeed, and each curl must answer 2xx — or, for the README's error examples,
the status its line announces with `# answers NNN`. Only the server address is changed (the first run of
a fresh server takes a while: its first write waits for the model to load, ~17 s of the ~40 s).
"""
import os
import re
import shutil
import subprocess

import pytest

from tests.site.live_serve import ROOT, clean_up, free_port, fresh_var, serve_env, start_serve

README_ADDRESS = "http://127.0.0.1:8000"
TOUR_START, TOUR_END = "## Five-minute tour", "\n## "
BASH_BLOCK = re.compile(r"^```bash\n(.*?)^```", re.DOTALL | re.MULTILINE)
EXPECTED_STATUS = re.compile(r"# answers (\d{3})\b")
CURL_CALL = re.compile(r"(?<![\w/.-])curl\s+-")

# Every curl of the tour goes through this function: its output goes where the command sends it, and the
# script stops unless the status is 2xx or the one announced for that command (EXPECT, set from its line).
PREAMBLE = r"""set -euo pipefail
shopt -s inherit_errexit
curl() {
  local out rc=0
  out=$(command curl --silent --show-error --write-out '%{stderr}%{http_code}' "$@" 2>&1 >&3) || rc=$?
  local status=${out: -3}
  echo "$status" >> "$TOUR_STATUSES"
  if (( rc != 0 )) || [[ $status != ${EXPECT:-2??} ]]; then
    printf 'README tour: curl exit %s, HTTP %s (expected %s): curl %s\n%s\n' \
      "$rc" "$status" "${EXPECT:-2xx}" "$*" "$out" >&2
    return 1
  fi
} 3>&1
"""


def tour_blocks(readme: str) -> list[str]:
    tour = readme[readme.index(TOUR_START):]
    tour = tour[:tour.index(TOUR_END, len(TOUR_START))]
    return BASH_BLOCK.findall(tour)


def with_expected_statuses(block: str) -> str:
    """`EXPECT=NNN ` before the command (its first, unindented line) whose line says `# answers NNN`."""
    lines = block.splitlines()
    for number, line in enumerate(lines):
        found = EXPECTED_STATUS.search(line)
        if found:
            start = next(i for i in range(number, -1, -1) if not lines[i][:1].isspace())
            lines[start] = f"EXPECT={found.group(1)} {lines[start]}"
    return "\n".join(lines) + "\n"


def tour_script(readme: str, address: str) -> str:
    blocks = [with_expected_statuses(block).replace(README_ADDRESS, address) for block in tour_blocks(readme)]
    return PREAMBLE + "".join(blocks) + "echo 'README tour: done'\n"


def test_the_tour_has_the_commands_it_is_known_for():
    """The extraction itself: the tour's blocks, its token line and its error examples are found."""
    readme = (ROOT / "README.md").read_text()
    blocks = tour_blocks(readme)
    assert len(blocks) >= 10 and "drf_create_token demo" in blocks[0]
    assert 'H="Authorization: Token $TOKEN"' in blocks[0]
    script = tour_script(readme, "http://127.0.0.1:1")
    assert "EXPECT=400 curl" in script and "EXPECT=404 curl" in script
    assert not re.search(r"[/\"]ent_…|<[a-z ]+>", script), "a placeholder where a looked-up id belongs"
    assert README_ADDRESS not in script


@pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")), reason="the embedded server only, as make run uses")
def test_every_tour_command_runs_as_written_against_make_run(tmp_path):
    var, folder = fresh_var(tmp_path), tmp_path / "reader"
    folder.mkdir()
    (folder / ".venv").symlink_to(ROOT / ".venv")
    (folder / "manage.py").symlink_to(ROOT / "manage.py")
    statuses = tmp_path / "statuses"
    port = free_port()
    serve = start_serve(var, port, demo=True)
    try:
        script = tour_script((ROOT / "README.md").read_text(), f"http://127.0.0.1:{port}")
        tour = subprocess.run(["bash", "-c", script], cwd=folder, env=serve_env(var, TOUR_STATUSES=str(statuses)),
                              capture_output=True, text=True, timeout=120)
    finally:
        clean_up(serve, var)
        shutil.rmtree(var, ignore_errors=True)
    assert tour.returncode == 0 and tour.stdout.endswith("README tour: done\n"), (
        f"exit {tour.returncode}\n--- stderr\n{tour.stderr[-4000:]}\n--- stdout (end)\n{tour.stdout[-2000:]}")
    answered = statuses.read_text().split()
    written = len(CURL_CALL.findall("".join(tour_blocks((ROOT / "README.md").read_text()))))
    assert len(answered) >= written, "a curl of the tour did not go through the check"
