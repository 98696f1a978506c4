# A convolution in FRAMEWORK (argv[1]: torch or jax), so cuDNN loads its sub-libraries, then the cuDNN files this
# process has mapped (/proc/self/maps, the loader's truth) written to argv[2], also when the framework raised.
import sys
fw, out = sys.argv[1], sys.argv[2]
def dump():
    seen = []
    with open("/proc/self/maps") as f:
        for l in f:
            p = l.split()[-1] if len(l.split()) >= 6 else ""
            if "libcudnn" in p and p not in seen:
                seen.append(p)
    with open(out, "w") as o:
        o.write("".join(p + "\n" for p in seen))
try:
    if fw == "torch":
        import torch
        x = torch.randn(2, 3, 32, 32, device="cuda"); w = torch.randn(8, 3, 3, 3, device="cuda")
        y = torch.nn.functional.conv2d(x, w); torch.cuda.synchronize()
        print("JOB-OK torch conv", tuple(y.shape), "cudnn", torch.backends.cudnn.version())
    else:
        import jax, jax.numpy as jnp
        x = jnp.ones((2, 3, 32, 32)); w = jnp.ones((8, 3, 3, 3))
        y = jax.lax.conv_general_dilated(x, w, (1, 1), "VALID"); y.block_until_ready()
        print("JOB-OK jax conv", y.shape, "platform", jax.devices()[0].platform)
finally:
    dump()
