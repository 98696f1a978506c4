// A 1-D FFT plan with cuFFT.
#include <cstdio>
#include <cufft.h>
int main() {
  cufftHandle p;
  cufftResult r = cufftPlan1d(&p, 1 << 16, CUFFT_C2C, 1);
  if (r != CUFFT_SUCCESS) { fprintf(stderr, "cufftPlan1d failed: %d\n", (int)r); return 1; }
  printf("cufft plan ready\n");
  return 0;
}
