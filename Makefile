# Recall: `make run` serves the app, `make test` runs the suite. Both set everything up.
VENV := .venv
PY := $(VENV)/bin/python
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: run test install browser bench quality screenshots clean

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	# CPU-only torch first, pinned, so nothing pulls a multi-GB CUDA build.
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $@

install: $(VENV)/.installed

# Debian's Chromium for the browser tests (never `playwright install`).
browser:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null)

run: install
	$(PY) manage.py serve

test: install browser
	$(PY) -m pytest

# Refresh the README's console screenshots from the browser tests.
screenshots: install browser
	RECALL_SCREENSHOT_DIR=docs/screenshots $(PY) -m pytest tests/browser

bench: install
	$(PY) bench/search.py
	$(PY) bench/ingest.py
	$(PY) bench/forget.py

# Memory quality on real conversations (LoCoMo, ../shared/data/locomo-dev.json; takes a few minutes).
quality: install
	$(PY) bench/quality_locomo.py

clean:
	rm -rf $(VENV) var
