/* fft3d_c.h is C: this file compiles it as C and runs a forward and inverse C2C on the CPU backend. */
#include <math.h>

#include "fft3d/fft3d_c.h"

/* The extents of the round trip and its tolerance on fp32 data of magnitude about one. */
enum { check_nx = 8, check_ny = 4, check_nz = 2, check_values = check_nx * check_ny * check_nz };
static const double check_tolerance = 1e-5;

/* 0 when the round trip reproduces its input; otherwise the failing call's status (or -1 for a wrong value). */
int fft3d_c_round_trip_from_c(void) {
  float data[2 * check_values], spectrum[2 * check_values], back[2 * check_values];
  for (int i = 0; i < 2 * check_values; ++i) data[i] = (float)((i * 7) % 11) / 11.0f;
  fft3d_desc desc = fft3d_default_desc();
  desc.nx = check_nx;
  desc.ny = check_ny;
  desc.nz = check_nz;
  fft3d_handle handle = NULL;
  fft3d_status status = fft3d_create_cpu(&handle, &desc, 1);
  if (status != FFT3D_SUCCESS) return (int)status;
  status = fft3d_execute(handle, data, spectrum, FFT3D_FORWARD, FFT3D_SCALING_NONE, NULL);
  if (status == FFT3D_SUCCESS) status = fft3d_execute(handle, spectrum, back, FFT3D_INVERSE, FFT3D_SCALING_FULL, NULL);
  fft3d_destroy(handle);
  if (status != FFT3D_SUCCESS) return (int)status;
  for (int i = 0; i < 2 * check_values; ++i)
    if (fabs((double)back[i] - (double)data[i]) > check_tolerance) return -1;
  return 0;
}
