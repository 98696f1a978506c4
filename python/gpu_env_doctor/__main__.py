"""``python -m gpu_env_doctor ARGS``: the same as the ``gpu-env-doctor`` command."""

from __future__ import annotations

import os
import sys

from . import GpuEnvDoctorError, executable


def main() -> None:
    try:
        exe = executable()
    except GpuEnvDoctorError as e:
        sys.stderr.write(f"gpu-env-doctor: {e}\n")
        sys.exit(2)
    os.execv(exe, [exe, *sys.argv[1:]])


if __name__ == "__main__":
    main()
