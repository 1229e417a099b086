# Two commands on a fresh machine: `make demo` (the main job) and `make test`.
PY ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup demo test fonts clean

$(BIN)/argus: pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(BIN)/argus

# CJK glyphs for generated images (Debian package; the generator says so when absent).
fonts:
	@fc-list 2>/dev/null | grep -qi 'wqy\|noto.*cjk' || (command -v apt-get >/dev/null && (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei) || echo "install a CJK font: apt-get install fonts-wqy-microhei")

setup: fonts $(BIN)/argus

demo: setup
	$(BIN)/argus demo

test: setup
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) build *.egg-info
