// The kernel "k" as a module image (PTX or cubin) for the driver's loader.
extern "C" __global__ void k(int *x) { *x = 42; }
