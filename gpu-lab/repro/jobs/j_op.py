# A JAX job: OP (argv[1]) at SIZE (argv[2]) in DTYPE (argv[3]). Extra word require-gpu: ask for the GPU by name
# (jax.devices("gpu")) as scripts that must not fall back to the CPU do.
import sys
op = sys.argv[1]
size = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
dt = sys.argv[3] if len(sys.argv) > 3 else "float32"
flags = set(sys.argv[4:])
import jax
import jax.numpy as jnp
print(f"[job] jax {jax.__version__} op={op} size={size:g} dtype={dt}", flush=True)
if "require-gpu" in flags:
    print("devices:", jax.devices("gpu"), flush=True)
dtype = jnp.dtype(dt)
GIB = 2**30
key = jax.random.PRNGKey(0)


def elems(gib):
    return int(gib * GIB) // dtype.itemsize


if op == "alloc":
    y = jnp.ones((elems(size),), dtype)
elif op == "zeros":
    y = jnp.zeros((elems(size),), dtype)
elif op == "matmul":
    n = int(elems(size) ** 0.5)
    a = jax.random.normal(key, (n, n), dtype)
    y = a @ a
elif op == "conv":  # a batch of SIZE images 3x224x224, NCHW, 64 output channels at full resolution
    x = jax.random.normal(key, (int(size), 3, 224, 224), dtype)
    w = jax.random.normal(key, (64, 3, 7, 7), dtype)
    y = jax.lax.conv(x, w, (1, 1), "SAME")
elif op == "mlp":  # a jitted 4-layer MLP of width SIZE
    n = int(size)
    ws = [jax.random.normal(key, (n, n), dtype) for _ in range(4)]

    @jax.jit
    def f(x):
        for w in ws:
            x = jax.nn.relu(x @ w)
        return x.sum()
    y = jax.grad(f)(jnp.ones((64, n), dtype))
elif op == "init":
    y = jnp.ones((4,), dtype)
else:
    raise SystemExit(f"unknown op {op}")
y.block_until_ready()
print("JOB-OK", y.shape, "on", jax.devices()[0].platform, flush=True)
