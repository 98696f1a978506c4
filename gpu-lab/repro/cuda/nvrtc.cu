// Compiles a kernel at run time with NVRTC.
#include <cstdio>
#include <nvrtc.h>
int main() {
  nvrtcProgram p; const char *src = "extern \"C\" __global__ void k(int *x) { *x = 1; }";
  nvrtcResult r = nvrtcCreateProgram(&p, src, "k.cu", 0, NULL, NULL);
  if (r == NVRTC_SUCCESS) r = nvrtcCompileProgram(p, 0, NULL);
  if (r != NVRTC_SUCCESS) { fprintf(stderr, "nvrtc failed: %s\n", nvrtcGetErrorString(r)); return 1; }
  printf("nvrtc compiled\n");
  return 0;
}
