# Two frameworks in one process: JAX's first operation (its preallocation, 75% by default), then PyTorch in the
# SAME process asks for GIB GiB (argv[1]). Prints JAX's pool first, so the log shows what JAX took.
import json, os, sys
import jax, jax.numpy as jnp
x = jnp.ones((1024, 1024)); x.block_until_ready()
try:
    stats = {k: v for k, v in (jax.devices()[0].memory_stats() or {}).items() if k in ("bytes_limit", "bytes_reserved", "pool_bytes")}
except Exception:
    stats = {}
print("JAX ready in PID", os.getpid(), "platform", jax.devices()[0].platform, "memory", json.dumps(stats), flush=True)
import torch
gib = float(sys.argv[1])
y = torch.empty(int(gib * 2**30), dtype=torch.uint8, device="cuda")
torch.cuda.synchronize()
print("JOB-OK jax then torch allocated", gib, "GiB")
