// One kernel launch; the error printed the way many programs do: message and name.
#include <cstdio>
__global__ void k(int *x) { *x = 1; }
int main() {
  int *d;
  cudaError_t e = cudaMalloc(&d, sizeof(int));
  if (e != cudaSuccess) { fprintf(stderr, "cudaMalloc failed: %s\n", cudaGetErrorString(e)); return 2; }
  k<<<1, 1>>>(d);
  e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) { fprintf(stderr, "CUDA error: %s (%s)\n", cudaGetErrorString(e), cudaGetErrorName(e)); return 1; }
  printf("kernel ran\n");
  return 0;
}
