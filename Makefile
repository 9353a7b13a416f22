# Recall: `make run` serves the app, `make test` runs the suite. Both set everything up.
VENV := .venv
PY := $(VENV)/bin/python
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

# DEBUG is off by default, so Django needs a secret key: one is made once and kept in var/secret_key,
# where the settings find it (recall_site/secret_key.py).
KEY_FILE := $(or $(RECALL_VAR_DIR),var)/secret_key

# Every version pip installs is pinned there (pip constraints; the file says how to refresh it).
CONSTRAINTS := constraints.txt

.PHONY: run test install browser bench bench-million bench-deps compare-mem0 quality screenshots clean

$(VENV)/.installed: pyproject.toml $(CONSTRAINTS)
	test -x $(PY) || python3 -m venv $(VENV)
	# CPU-only torch first, pinned, so nothing pulls a multi-GB CUDA build.
	$(PY) -m pip install --quiet -c $(CONSTRAINTS) torch==2.13.0
	$(PY) -m pip install --quiet -c $(CONSTRAINTS) -e ".[dev]"
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
	$(PY) bench/contacts_import.py

# The 2M-memory table (one user of 1M, ten of 100k; ~18 min and 12 GB of disk).
bench-million: install $(KEY_FILE)
	$(PY) bench/search.py --size 1000000

# mem0 and FAISS (the bench extra) for bench/compare_mem0.py only, at the versions constraints.txt pins,
# which are the app's too: packages are added, and the check below fails if any installed one changed.
bench-deps: install
	$(PY) -m pip freeze --exclude-editable | sort > $(VENV)/before-bench-deps.txt
	$(PY) -m pip install --quiet -c $(CONSTRAINTS) -e ".[bench]"
	$(PY) -m pip freeze --exclude-editable | sort > $(VENV)/after-bench-deps.txt
	@changed=$$(comm -23 $(VENV)/before-bench-deps.txt $(VENV)/after-bench-deps.txt); \
	  if [ -n "$$changed" ]; then echo "bench-deps changed installed packages: $$changed"; exit 1; fi

# Recall's search against mem0 on the same corpus (10k then 100k; e.g. COMPARE_ARGS="--size 1000 --skip-qdrant").
COMPARE_ARGS ?=
compare-mem0: bench-deps $(KEY_FILE)
	$(PY) bench/compare_mem0.py $(COMPARE_ARGS)

# Memory quality on real conversations (LoCoMo, ../shared/data/locomo-dev.json; takes a few minutes).
quality: install $(KEY_FILE)
	$(PY) bench/quality_locomo.py

clean:
	rm -rf $(VENV) var
