"""What the Python test files share: error measures, bounds and the marker of tests that need batched transforms."""

import functools
import unittest

import numpy

import fft3d

# Relative L2 error bounds: fp32 the engine's bound against an fp64 oracle (validate/oracle.hpp), fp64 near
# rounding for the small sizes tested here.
FP32_BOUND = 2e-6
FP64_BOUND = 1e-12
# What the engine says while a transform runs one volume (the batch work lifts it).
ONE_VOLUME_REFUSAL = "one volume per transform so far"


def relative_l2(got, want):
    got = numpy.asarray(got, dtype=numpy.complex128)
    want = numpy.asarray(want, dtype=numpy.complex128)
    return float(numpy.linalg.norm((got - want).ravel()) / numpy.linalg.norm(want.ravel()))


def bound_of(dtype):
    return FP32_BOUND if numpy.dtype(dtype) in (numpy.float32, numpy.complex64) else FP64_BOUND


def needs_engine_batch(test):
    """Marks a test of batches (leading axes): skipped, saying so, while the engine refuses batch != 1; run and
    checked as soon as it does not."""

    @functools.wraps(test)
    def run(self, *args, **kwargs):
        try:
            return test(self, *args, **kwargs)
        except fft3d.UsageError as error:
            if ONE_VOLUME_REFUSAL in str(error):
                raise unittest.SkipTest(f"NEEDS-BATCH: the engine runs one volume so far ({error})")
            raise

    return run
