"""Model-backend configuration: one model per role, from a TOML file plus environment.

Precedence (highest first): ARGUS_<ROLE>_MODEL / ARGUS_<ROLE>_BASE_URL / ARGUS_<ROLE>_API_KEY,
then the file's [roles.<role>] table, then OPENAI_BASE_URL / OPENAI_API_KEY, then the file's
[backend] table. A role without a model is served by the offline backend's rule for that role.

```toml
[backend]
base_url = "http://127.0.0.1:8080/v1"   # any OpenAI-compatible server
api_key = "sk-..."                       # or OPENAI_API_KEY
timeout = 60                             # seconds per request
max_retries = 4                          # 429 / 5xx / connection errors, exponential backoff
concurrency = 4                          # requests in flight per base URL
max_image_side = 1024                    # images are downscaled before upload
response_format = "auto"                 # auto | json_schema | json_object_schema | json_object
parse_retries = 2                        # re-asks after a reply that fails validation
fallback_after = 3                       # consecutive failed calls before a role uses the offline rule
temperature = 0.0
cache = "model_cache.db"                 # optional extra content-addressed cache file

[roles.perceiver]
model = "gpt-4o-mini"
[roles.verifier]
model = "qwen2.5-7b-instruct"
base_url = "http://gpu-box:8000/v1"

[prices."gpt-4o-mini"]                   # USD per million tokens (optional)
input = 0.15
output = 0.60
```
"""
from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Literal, Mapping

from pydantic import BaseModel, Field, ValidationError

from core.errors import InputError

ROLES: tuple[str, ...] = ("perceiver", "hypothesizer", "router", "verifier", "deep_visual", "judge")
ResponseFormatMode = Literal["auto", "json_schema", "json_object_schema", "json_object"]
DEFAULT_CONFIG_NAME = "argus.toml"


class RoleConfig(BaseModel):
    model: str | None = None
    base_url: str | None = None
    api_key: str | None = None
    max_tokens: int = Field(default=512, ge=16, le=32768)
    temperature: float | None = None
    response_format: ResponseFormatMode | None = None
    vision: bool | None = None     # send images (perceiver, deep_visual); None: probed once
    context_length: int | None = Field(default=None, ge=512)   # tokens; None: probed once


class Price(BaseModel):
    input: float = Field(default=0.0, ge=0)    # USD per 1M prompt tokens
    output: float = Field(default=0.0, ge=0)   # USD per 1M completion tokens


class BackendSettings(BaseModel):
    base_url: str | None = None
    api_key: str | None = None
    timeout: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=4, ge=0, le=20)
    backoff_base: float = Field(default=0.5, ge=0)
    backoff_max: float = Field(default=20.0, ge=0)
    concurrency: int = Field(default=4, ge=1, le=256)
    max_image_side: int = Field(default=1024, ge=32, le=8192)
    response_format: ResponseFormatMode = "auto"
    parse_retries: int = Field(default=2, ge=0, le=10)
    fallback_after: int = Field(default=3, ge=1, le=1000)   # consecutive failures -> offline rule
    perceiver_batch: int = Field(default=4, ge=1, le=16)    # posts per perceiver call (text-only models)
    temperature: float = 0.0
    seed: int | None = 0
    cache: str | None = None


class ResolvedRole(BaseModel):
    """Everything a call for one role needs (model None: the offline rule serves the role)."""

    role: str
    model: str | None
    base_url: str | None
    api_key: str | None
    max_tokens: int
    temperature: float
    response_format: ResponseFormatMode
    vision: bool | None = None          # None: decided by the capability probe
    context_length: int | None = None   # None: decided by the capability probe


class BackendConfig(BaseModel):
    backend: BackendSettings = Field(default_factory=BackendSettings)
    roles: dict[str, RoleConfig] = Field(default_factory=dict)
    prices: dict[str, Price] = Field(default_factory=dict)
    source: str | None = None   # the TOML file read, if any

    def role(self, name: str) -> ResolvedRole:
        if name not in ROLES:
            raise KeyError(f"unknown role {name!r} (roles: {', '.join(ROLES)})")
        rc = self.roles.get(name) or RoleConfig()
        b = self.backend
        return ResolvedRole(
            role=name,
            model=rc.model,
            base_url=rc.base_url or b.base_url,
            api_key=rc.api_key or b.api_key,
            max_tokens=rc.max_tokens,
            temperature=b.temperature if rc.temperature is None else rc.temperature,
            response_format=rc.response_format or b.response_format,
            vision=rc.vision,
            context_length=rc.context_length,
        )

    def model_roles(self) -> list[str]:
        """Roles served by a model (the rest fall back to the offline rules)."""
        return [r for r in ROLES if self.role(r).model]

    def price_of(self, model: str | None, prompt_tokens: int | None, completion_tokens: int | None) -> float:
        p = self.prices.get(model or "")
        if p is None:
            return 0.0
        return ((prompt_tokens or 0) * p.input + (completion_tokens or 0) * p.output) / 1_000_000

    def masked(self) -> dict:
        """The effective configuration with every key masked (for `argus config show`)."""
        out = {
            "source": self.source,
            "backend": self.backend.model_dump(),
            "roles": {r: self.role(r).model_dump(exclude={"role"}) for r in ROLES},
            "prices": {k: v.model_dump() for k, v in self.prices.items()},
        }
        out["backend"]["api_key"] = mask_key(self.backend.api_key)
        for r in out["roles"].values():
            r["api_key"] = mask_key(r["api_key"])
        return out


def mask_key(key: str | None) -> str | None:
    if not key:
        return None
    if len(key) <= 8:
        return "****"
    return f"{key[:3]}…{key[-2:]}"


def _env_role_name(role: str) -> str:
    return role.upper()


def load_config(path: str | Path | None = None, *, env: Mapping[str, str] | None = None,
                cwd: str | Path | None = None) -> BackendConfig:
    """Read `path` (else $ARGUS_CONFIG, else ./argus.toml when present) and overlay the environment."""
    env = os.environ if env is None else env
    data: dict = {}
    source: Path | None = None
    if path is None and env.get("ARGUS_CONFIG"):
        path = env["ARGUS_CONFIG"]
    if path is not None:
        source = Path(path)
        if not source.is_file():
            raise InputError(source, "config file not found")
    else:
        cand = Path(cwd or ".") / DEFAULT_CONFIG_NAME
        if cand.is_file():
            source = cand
    if source is not None:
        try:
            data = tomllib.loads(source.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
            raise InputError(source, f"not valid TOML: {e}") from None
        unknown = set(data) - {"backend", "roles", "prices", "approval"}   # [[approval]]: core/engine/approval.py
        if unknown:
            raise InputError(source, "unknown table", field=sorted(unknown)[0])
        bad_roles = set(data.get("roles") or {}) - set(ROLES)
        if bad_roles:
            raise InputError(source, f"unknown role (roles: {', '.join(ROLES)})",
                             field=f"roles.{sorted(bad_roles)[0]}")
    try:
        cfg = BackendConfig.model_validate({**data, "source": str(source) if source else None})
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        raise InputError(source or "config", err["msg"], field=loc) from None

    # environment overlay
    if env.get("OPENAI_BASE_URL"):
        cfg.backend.base_url = env["OPENAI_BASE_URL"]
    if env.get("OPENAI_API_KEY"):
        cfg.backend.api_key = env["OPENAI_API_KEY"]
    for role in ROLES:
        prefix = f"ARGUS_{_env_role_name(role)}_"
        for field, attr in (("MODEL", "model"), ("BASE_URL", "base_url"), ("API_KEY", "api_key")):
            val = env.get(prefix + field)
            if val:
                rc = cfg.roles.setdefault(role, RoleConfig())
                setattr(rc, attr, val)
    return cfg


def missing_settings(cfg: BackendConfig) -> list[str]:
    """What `--backend openai` still needs, as setting names a user can look up (empty: ready).

    No role with a model is the common case (`--backend openai` alone); a role aimed at the
    OpenAI default endpoint without a key is the other one.
    """
    roles = cfg.model_roles()
    if not roles:
        return ["a model for at least one role: ARGUS_<ROLE>_MODEL (ROLE = "
                + ", ".join(r.upper() for r in ROLES) + ") or [roles.<role>] model in argus.toml"]
    out = []
    for r in roles:
        rc = cfg.role(r)
        if not rc.base_url and not rc.api_key:
            out.append(f"OPENAI_BASE_URL or OPENAI_API_KEY for role {r} (model {rc.model}): "
                       "no server URL and no key for the OpenAI default endpoint")
    return out
