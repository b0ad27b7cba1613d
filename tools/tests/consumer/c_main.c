/* Builds a C program against the installed C API (fft3d/fft3d_c.h, libfft3d_c.so) and runs it on the CPU backend:
 * an impulse at the origin must transform to all ones. */
#include <fft3d/fft3d_c.h>

#include <math.h>
#include <stdio.h>

enum { values = 8 * 4 * 2 };

int main(void) {
  double data[2 * values] = {1.0};
  fft3d_desc desc = fft3d_default_desc();
  desc.nx = 8;
  desc.ny = 4;
  desc.nz = 2;
  desc.precision = FFT3D_FP64;
  fft3d_handle fft = NULL;
  if (fft3d_create_cpu(&fft, &desc, 0) != FFT3D_SUCCESS ||
      fft3d_execute(fft, data, data, FFT3D_FORWARD, FFT3D_SCALING_NONE, NULL) != FFT3D_SUCCESS) {
    fprintf(stderr, "consumer_c: %s\n", fft3d_last_error());
    return 1;
  }
  fft3d_destroy(fft);
  double worst = 0;
  for (int i = 0; i < values; ++i) worst = fmax(worst, hypot(data[2 * i] - 1.0, data[2 * i + 1]));
  printf("consumer_c: impulse error %g\n", worst);
  return worst < 1e-12 ? 0 : 1;
}
