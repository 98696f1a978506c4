// Random numbers with cuRAND's host API.
#include <cstdio>
#include <curand.h>
#include <cuda_runtime.h>
int main() {
  curandGenerator_t g; float *d; cudaMalloc(&d, 1 << 20);
  curandStatus_t s = curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT);
  if (s == CURAND_STATUS_SUCCESS) s = curandGenerateUniform(g, d, 1 << 18);
  if (s != CURAND_STATUS_SUCCESS) { fprintf(stderr, "curand failed: %d\n", (int)s); return 1; }
  printf("curand done\n");
  return 0;
}
