// Loads a PTX file (argv[1]) with the driver API, as the ptxjit sample does, printing the JIT's error log.
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *n_ = 0, *s_ = 0; cuGetErrorName(r_, &n_); cuGetErrorString(r_, &s_); \
  fprintf(stderr, "%s failed: %s (%d): %s\n", #x, n_ ? n_ : "?", (int)r_, s_ ? s_ : "?"); if (jitlog[0]) fprintf(stderr, "JIT error log:\n%s\n", jitlog); exit(1); } } while (0)
static char jitlog[8192];
int main(int argc, char **argv) {
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 2; }
  static char ptx[1 << 20];
  size_t n = fread(ptx, 1, sizeof(ptx) - 1, f); ptx[n] = 0; fclose(f);
  printf("> Loading PTX %s (%zu bytes)\n", argv[1], n);
  CUdevice dev; CUcontext ctx; CUmodule mod;
  CK(cuInit(0));
  CK(cuDeviceGet(&dev, 0));
  CK(cuCtxCreate(&ctx, NULL, 0, dev));
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {jitlog, (void *)(size_t)sizeof(jitlog)};
  CK(cuModuleLoadDataEx(&mod, ptx, 2, opts, vals));
  printf("PTX loaded\n");
  return 0;
}
