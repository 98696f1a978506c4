"""gpu-env-doctor from Python: why a GPU deep-learning job failed, and how to fix it.

The command-line tool is a single executable installed beside this package (``gpu-env-doctor`` on PATH). This
module runs it and returns its JSON, so notebooks and scripts can ask the same questions::

    import gpu_env_doctor
    report = gpu_env_doctor.check()              # the machine: findings, as `gpu-env-doctor check --json`
    diagnosis = gpu_env_doctor.explain(log_text)  # a log: ranked causes, as `gpu-env-doctor explain --json`

In IPython or Jupyter, ``%load_ext gpu_env_doctor`` adds ``%gpu_doctor`` (a check) and ``%%gpu_doctor`` (runs the
cell and explains its failure).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from typing import Any, Optional, Sequence

__all__ = ["GpuEnvDoctorError", "executable", "run", "check", "explain", "load_ipython_extension"]

_NAME = "gpu-env-doctor"


class GpuEnvDoctorError(RuntimeError):
    """The tool could not answer: a usage error, unreadable input, or no executable (exit code 2)."""


def executable() -> str:
    """The path of the gpu-env-doctor executable this package installed (or, failing that, the one on PATH)."""
    dirs = []
    for scheme in (sysconfig.get_default_scheme(), "posix_user" if os.name == "posix" else "nt_user"):
        try:
            dirs.append(sysconfig.get_path("scripts", scheme))
        except KeyError:
            pass
    dirs.append(os.path.dirname(sys.executable))
    for d in dirs:
        if not d:
            continue
        candidate = os.path.join(d, _NAME)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which(_NAME)
    if found:
        return found
    raise GpuEnvDoctorError(f"the {_NAME} executable was not found beside this Python ({', '.join(d for d in dirs if d)}) or on PATH")


def run(args: Sequence[str], input_text: Optional[str] = None, timeout: Optional[float] = None) -> subprocess.CompletedProcess:
    """Run the tool with ``args`` (a list, never a shell string) and return the finished process (text output)."""
    return subprocess.run(
        [executable(), *args],
        input=input_text,
        stdin=None if input_text is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _json(args: Sequence[str], input_text: Optional[str] = None, timeout: Optional[float] = None) -> Any:
    done = run([*args, "--json"], input_text=input_text, timeout=timeout)
    # exit 0 and 1 both carry a report (1: findings at or above --fail-on); 2 is an error with one line on stderr
    if done.returncode not in (0, 1):
        raise GpuEnvDoctorError(done.stderr.strip() or f"{_NAME} exited with {done.returncode}")
    try:
        return json.loads(done.stdout)
    except ValueError as e:
        raise GpuEnvDoctorError(f"{_NAME} printed no JSON ({e})") from None


def check(*args: str, timeout: Optional[float] = 120) -> Any:
    """This machine's findings, as ``gpu-env-doctor check --json ARGS`` prints them (a dict)."""
    return _json(["check", *args], timeout=timeout)


def explain(text: str, *args: str, timeout: Optional[float] = 120) -> Any:
    """The ranked causes of an error text, as ``gpu-env-doctor explain - --json ARGS`` prints them (a dict)."""
    if not isinstance(text, str):
        raise TypeError("explain() takes the log as a str")
    return _json(["explain", "-", *args], input_text=text, timeout=timeout)


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext gpu_env_doctor``: registers %gpu_doctor and %%gpu_doctor."""
    from .magic import register

    register(ipython)
