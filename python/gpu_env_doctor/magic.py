"""IPython magics: ``%gpu_doctor [ARGS]`` checks the machine (``gpu-env-doctor check ARGS``); ``%%gpu_doctor`` runs
the cell and, when it raises, explains the error with this machine's facts (a notebook kernel that still holds GPU
memory from an earlier cell is one of the causes it names), then raises the error again."""

from __future__ import annotations

import traceback
from typing import Any

from . import GpuEnvDoctorError, run


def _print_tool(args: list, input_text: Any = None) -> None:
    try:
        done = run(args, input_text=input_text)
    except GpuEnvDoctorError as e:
        print(f"gpu-env-doctor: {e}")
        return
    if done.stdout:
        print(done.stdout, end="" if done.stdout.endswith("\n") else "\n")
    if done.returncode == 2 and done.stderr:
        print(done.stderr.strip())


def gpu_doctor_line(line: str) -> None:
    import shlex

    _print_tool(["check", *shlex.split(line)])


def gpu_doctor_cell(line: str, cell: str, ipython: Any) -> None:
    import shlex

    extra = shlex.split(line)
    try:
        # the cell as IPython would run it (its own %magics transformed), in the user's namespace
        ipython.ex(ipython.transform_cell(cell))
    except Exception as error:
        text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        print("gpu-env-doctor explain of this cell's error:")
        _print_tool(["explain", "-", *extra], input_text=text)
        raise


def register(ipython: Any) -> None:
    ipython.register_magic_function(gpu_doctor_line, magic_kind="line", magic_name="gpu_doctor")
    ipython.register_magic_function(lambda line, cell: gpu_doctor_cell(line, cell, ipython), magic_kind="cell", magic_name="gpu_doctor")
