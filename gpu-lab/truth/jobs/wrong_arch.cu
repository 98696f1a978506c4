// A kernel built only for sm_100 (nvcc -gencode arch=compute_100,code=sm_100): no code the H200 (sm_90) can run.
#include <cstdio>
__global__ void k(int *x) { *x = 1; }
int main() {
  int *d;
  cudaError_t e = cudaMalloc(&d, sizeof(int));
  if (e != cudaSuccess) { printf("cudaMalloc: %s\n", cudaGetErrorString(e)); return 2; }
  k<<<1, 1>>>(d);
  e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) { fprintf(stderr, "CUDA error: %s (%s)\n", cudaGetErrorString(e), cudaGetErrorName(e)); return 1; }
  printf("JOB-OK kernel ran\n");
  return 0;
}
