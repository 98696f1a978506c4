# A JAX process holding GPU memory the way JAX does (its preallocation at the first operation) for SECONDS (argv[1]).
import sys, time, jax, jax.numpy as jnp
x = jnp.ones((1024, 1024)); x.block_until_ready()
print("HOLDING jax", flush=True)
time.sleep(float(sys.argv[1]))
