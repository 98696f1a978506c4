# A stand-in for JAX 0.11.2 on the H200. FAKE_JAX_NO_GPU=1 makes jax.devices("gpu") fail as it does
# there under memory pressure (test/fixtures/h200/logs/jax-keep2500.txt).
import os

__version__ = "0.11.2"


class _Device:
    id = 0
    device_kind = "NVIDIA H200"

    def __str__(self):
        return "cuda:0"

    def memory_stats(self):
        return {"bytes_limit": 112_000_000_000, "bytes_in_use": 0}


def devices(kind=None):
    if os.environ.get("FAKE_JAX_NO_GPU") == "1":
        raise RuntimeError("Unknown backend: 'gpu' requested, but no platforms that are instances of gpu are present.\nmore")
    return [_Device()]
