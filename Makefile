# Recall: `make run` serves the app, `make test` runs the suite. Both set everything up.
VENV := .venv
PY := $(VENV)/bin/python
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

# DEBUG is off by default, so Django needs a secret key: one is made once and kept in var/secret_key,
# where the settings find it (recall_site/secret_key.py).
KEY_FILE := $(or $(RECALL_VAR_DIR),var)/secret_key

.PHONY: run test install browser bench bench-deps quality screenshots clean

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

$(KEY_FILE):
	mkdir -p $(dir $@)
	umask 077 && python3 -c "import secrets; print(secrets.token_urlsafe(50))" > $@

run: install $(KEY_FILE)
	$(PY) manage.py serve

test: install browser
	$(PY) -m pytest

# Refresh the README's console screenshots from the browser tests.
screenshots: install browser
	RECALL_SCREENSHOT_DIR=docs/screenshots $(PY) -m pytest tests/browser

bench: install $(KEY_FILE)
	$(PY) bench/search.py
	$(PY) bench/ingest.py
	$(PY) bench/forget.py

# mem0 and FAISS for bench/compare_mem0.py only, pinned so nothing already installed changes version:
# the current environment (minus this project's editable line) is passed to pip as constraints.
bench-deps: install
	$(PY) -m pip freeze --exclude-editable | grep -v '^recall' > $(VENV)/bench-constraints.txt
	$(PY) -m pip install --quiet -c $(VENV)/bench-constraints.txt "mem0ai==2.2.1" "faiss-cpu>=1.8"

# Memory quality on real conversations (LoCoMo, ../shared/data/locomo-dev.json; takes a few minutes).
quality: install $(KEY_FILE)
	$(PY) bench/quality_locomo.py

clean:
	rm -rf $(VENV) var
