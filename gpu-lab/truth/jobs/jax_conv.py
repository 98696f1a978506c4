# JAX's convolution. Says which device it ran on (JAX falls back to the CPU when its CUDA plugin cannot start)
# and JAX's own memory figures, to tell preallocation (a pool near the limit) from memory taken as needed.
import json, jax, jax.numpy as jnp
x = jnp.ones((8, 16, 64, 64)); w = jnp.ones((32, 16, 3, 3))
y = jax.lax.conv(x, w, (1, 1), "SAME"); y.block_until_ready()
d = jax.devices()[0]
stats = {}
try:
    stats = {k: v for k, v in (d.memory_stats() or {}).items() if k in ("bytes_limit", "bytes_reserved", "pool_bytes", "peak_pool_bytes", "bytes_in_use")}
except Exception:
    pass
print("JOB-OK jax conv", y.shape, "platform", d.platform, "memory", json.dumps(stats))
