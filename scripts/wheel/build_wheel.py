#!/usr/bin/env python3
"""Builds the Python wheel that carries the single executable (the way ruff and uv ship theirs): a platform-tagged
manylinux wheel with the executable in the wheel's scripts (so `gpu-env-doctor` is on the venv's PATH with no
Python in between), the small package `gpu_env_doctor` (python -m gpu_env_doctor, check()/explain(), the IPython
magic) and the metadata. Standard library only.

    python3 scripts/wheel/build_wheel.py --exe dist/sea/gpu-env-doctor-linux-x64 --arch x64 [--out dist/wheels]
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import io
import json
import os
import sys
import zipfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Node 22's official Linux builds need glibc 2.28 (their release notes): the manylinux tag that promises it
PLATFORM = {"x64": "manylinux_2_28_x86_64", "arm64": "manylinux_2_28_aarch64"}
NAME = "gpu_env_doctor"
DIST = "gpu-env-doctor"
# zip entries get one fixed time, so that the same inputs give the same wheel
FIXED_TIME = (2026, 1, 1, 0, 0, 0)


def record_line(path: str, data: bytes) -> list:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return [path, f"sha256={digest}", str(len(data))]


def metadata(version: str, description: str, readme: str) -> str:
    return "\n".join([
        "Metadata-Version: 2.1",
        f"Name: {DIST}",
        f"Version: {version}",
        f"Summary: {description}",
        "License: MIT",
        "Requires-Python: >=3.8",
        "Classifier: Environment :: Console",
        "Classifier: Environment :: GPU :: NVIDIA CUDA",
        "Classifier: Operating System :: POSIX :: Linux",
        "Classifier: Topic :: Scientific/Engineering :: Artificial Intelligence",
        "Description-Content-Type: text/markdown",
        "",
        readme,
    ])


def build(exe: str, arch: str, out_dir: str) -> str:
    with open(os.path.join(REPO, "package.json"), encoding="utf-8") as f:
        pkg = json.load(f)
    version = pkg["version"]
    tag = f"py3-none-{PLATFORM[arch]}"
    dist_info = f"{NAME}-{version}.dist-info"
    data = f"{NAME}-{version}.data"
    files = []  # (path in the wheel, bytes, unix mode)
    src = os.path.join(REPO, "python", NAME)
    for name in sorted(os.listdir(src)):
        if name.endswith(".py"):
            with open(os.path.join(src, name), "rb") as f:
                files.append((f"{NAME}/{name}", f.read(), 0o644))
    with open(exe, "rb") as f:
        files.append((f"{data}/scripts/{DIST}", f.read(), 0o755))
    with open(os.path.join(REPO, "python", "README.md"), encoding="utf-8") as f:
        readme = f.read()
    files.append((f"{dist_info}/METADATA", metadata(version, pkg["description"], readme).encode(), 0o644))
    files.append((f"{dist_info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: {DIST} scripts/wheel/build_wheel.py\nRoot-Is-Purelib: false\nTag: {tag}\n".encode(), 0o644))
    with open(os.path.join(REPO, "LICENSE"), "rb") as f:
        files.append((f"{dist_info}/LICENSE", f.read(), 0o644))
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for path, body, _ in files:
        writer.writerow(record_line(path, body))
    writer.writerow([f"{dist_info}/RECORD", "", ""])
    files.append((f"{dist_info}/RECORD", record.getvalue().encode(), 0o644))

    os.makedirs(out_dir, exist_ok=True)
    wheel = os.path.join(out_dir, f"{NAME}-{version}-{tag}.whl")
    tmp = wheel + ".part"
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for path, body, mode in files:
            info = zipfile.ZipInfo(path, date_time=FIXED_TIME)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, body)
    os.replace(tmp, wheel)
    return wheel


def main() -> int:
    ap = argparse.ArgumentParser(description="Build the gpu-env-doctor wheel around a built single executable.")
    ap.add_argument("--exe", required=True, help="the single executable (scripts/sea/build.mjs)")
    ap.add_argument("--arch", choices=sorted(PLATFORM), required=True)
    ap.add_argument("--out", default=os.path.join(REPO, "dist", "wheels"))
    a = ap.parse_args()
    if not os.path.isfile(a.exe):
        print(f"wheel: {a.exe}: no such file (build it with node scripts/sea/build.mjs)", file=sys.stderr)
        return 2
    wheel = build(a.exe, a.arch, a.out)
    print(f"{os.path.relpath(wheel)}: {os.path.getsize(wheel) / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
