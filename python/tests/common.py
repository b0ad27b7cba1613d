"""What the Python test files share: error measures and bounds."""

import unittest

import numpy

import fft3d

# Relative L2 error bounds: fp32 the engine's bound against an fp64 oracle (validate/oracle.hpp), fp64 near
# rounding for the small sizes tested here.
FP32_BOUND = 2e-6
FP64_BOUND = 1e-12


def relative_l2(got, want):
    got = numpy.asarray(got, dtype=numpy.complex128)
    want = numpy.asarray(want, dtype=numpy.complex128)
    return float(numpy.linalg.norm((got - want).ravel()) / numpy.linalg.norm(want.ravel()))


def bound_of(dtype):
    return FP32_BOUND if numpy.dtype(dtype) in (numpy.float32, numpy.complex64) else FP64_BOUND

