# Two frameworks in one process: the first takes GPU memory its own way, the second then asks for GIB GiB.
# argv: MODE GIB. MODE: jax-torch, jax-torch-conv, jax-torch-matmul, jax-torch-embedding, jax-cupy, torch-jax,
# cupy-torch.
import sys
mode, gib = sys.argv[1], float(sys.argv[2])
GIB = 2**30
first, second = mode.split("-")[:2]
if first == "jax":
    import jax, jax.numpy as jnp
    x = jnp.ones((1024, 1024)); x.block_until_ready()
    print(f"[job] jax {jax.__version__} on {jax.devices()[0]}: preprocessing done", flush=True)
elif first == "torch":
    import torch
    t = torch.empty(int(100 * GIB), dtype=torch.uint8, device="cuda"); del t  # freed, kept by the caching allocator
    print(f"[job] torch {torch.__version__}: data loaded, reserved {torch.cuda.memory_reserved() / GIB:.1f} GiB", flush=True)
elif first == "cupy":
    import cupy as cp
    t = cp.empty((int(100 * GIB),), cp.uint8); del t  # freed, kept by CuPy's memory pool
    print(f"[job] cupy {cp.__version__}: pool holds {cp.get_default_memory_pool().total_bytes() / GIB:.1f} GiB", flush=True)
if second == "torch":
    import torch
    if mode.endswith("conv"):
        x = torch.randn(int(gib * GIB / (3 * 224 * 224 * 4 * 6)), 3, 224, 224, device="cuda")
        y = torch.nn.functional.conv2d(x, torch.randn(64, 3, 7, 7, device="cuda"), stride=2, padding=3)
    elif mode.endswith("matmul"):
        n = int((gib * GIB / 3 / 4) ** 0.5)  # a, b and the product in float32
        y = torch.randn(n, n, device="cuda") @ torch.randn(n, n, device="cuda")
    elif mode.endswith("embedding"):
        y = torch.nn.Embedding(int(gib * GIB / (1024 * 4)), 1024, device="cuda")
    else:
        y = torch.empty(int(gib * GIB), dtype=torch.uint8, device="cuda")
    torch.cuda.synchronize()
elif second == "jax":
    import jax, jax.numpy as jnp
    y = jnp.ones((int(gib * GIB) // 4,), jnp.float32); y.block_until_ready()
elif second == "cupy":
    import cupy as cp
    y = cp.empty((int(gib * GIB),), cp.uint8); cp.cuda.Device().synchronize()
print("JOB-OK", flush=True)
