"""fft3d on NumPy arrays (the CPU backend) against numpy.fft: every function, each norm, complex64 and complex128
(float32 and float64 for the real transforms), batches of leading axes, s, axes and out, plans and plan files,
and clean exceptions for bad input.

Run from a build: FFT3D_LIBRARY=build/libfft3d_c.so FFT3D_PLANS_DIR=plans PYTHONPATH=python python3 -m unittest
discover -s python/tests -p 'test_cpu.py' (ctest does this: python_cpu).
"""

import os
import subprocess
import sys
import tempfile
import unittest

import numpy

import fft3d
from common import bound_of, relative_l2

SHAPE = (4, 8, 16)  # NZ, NY, NX: three radices, NX even for the real transforms
NORMS = ("backward", "ortho", "forward")
COMPLEX_DTYPES = (numpy.complex64, numpy.complex128)
REAL_DTYPES = (numpy.float32, numpy.float64)


def complex_data(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def real_data(shape, dtype, seed=0):
    return numpy.random.default_rng(seed).standard_normal(shape).astype(dtype)


class Functions(unittest.TestCase):
    def check(self, got, want, dtype, expected_dtype):
        self.assertEqual(got.dtype, numpy.dtype(expected_dtype))
        self.assertEqual(got.shape, want.shape)
        self.assertLess(relative_l2(got, want), bound_of(dtype))

    def test_fftn_and_ifftn_every_norm_and_precision(self):
        for dtype in COMPLEX_DTYPES:
            for norm in NORMS:
                with self.subTest(dtype=dtype, norm=norm):
                    x = complex_data(SHAPE, dtype)
                    before = x.copy()
                    self.check(fft3d.fftn(x, norm=norm), numpy.fft.fftn(x, norm=norm), dtype, dtype)
                    self.check(fft3d.ifftn(x, norm=norm), numpy.fft.ifftn(x, norm=norm), dtype, dtype)
                    numpy.testing.assert_array_equal(x, before)  # the input is never written

    def test_rfftn_and_irfftn_every_norm_and_precision(self):
        for dtype in REAL_DTYPES:
            complex_ = numpy.complex64 if dtype == numpy.float32 else numpy.complex128
            for norm in NORMS:
                with self.subTest(dtype=dtype, norm=norm):
                    x = real_data(SHAPE, dtype)
                    self.check(fft3d.rfftn(x, norm=norm), numpy.fft.rfftn(x, norm=norm), dtype, complex_)
                    spectrum = complex_data(SHAPE[:-1] + (SHAPE[-1] // 2 + 1,), complex_)
                    before = spectrum.copy()
                    self.check(fft3d.irfftn(spectrum, norm=norm), numpy.fft.irfftn(spectrum, norm=norm), dtype, dtype)
                    numpy.testing.assert_array_equal(spectrum, before)

    def test_odd_last_axis(self):
        for dtype in REAL_DTYPES:
            complex_ = numpy.complex64 if dtype == numpy.float32 else numpy.complex128
            with self.subTest(dtype=dtype):
                x = real_data((4, 8, 15), dtype)
                self.check(fft3d.rfftn(x), numpy.fft.rfftn(x), dtype, complex_)
                spectrum = complex_data((4, 6, 11), complex_)
                for s in ((4, 6, 21), (4, 6, 15)):
                    self.check(fft3d.irfftn(spectrum, s=s), numpy.fft.irfftn(spectrum, s=s), dtype, dtype)

    def test_round_trips(self):
        x = complex_data(SHAPE, numpy.complex128)
        self.assertLess(relative_l2(fft3d.ifftn(fft3d.fftn(x)), x), 1e-13)
        r = real_data(SHAPE, numpy.float64)
        self.assertLess(relative_l2(fft3d.irfftn(fft3d.rfftn(r), s=r.shape), r), 1e-13)

    def test_one_and_two_dimensional_arrays(self):
        for shape in ((32,), (8, 12)):
            with self.subTest(shape=shape):
                x = complex_data(shape, numpy.complex128)
                self.check(fft3d.fftn(x), numpy.fft.fftn(x), numpy.complex128, numpy.complex128)
                r = real_data(shape, numpy.float64)
                self.check(fft3d.rfftn(r), numpy.fft.rfftn(r), numpy.float64, numpy.complex128)

    def test_real_and_integer_input_to_fftn(self):
        r32 = real_data(SHAPE, numpy.float32)
        self.check(fft3d.fftn(r32), numpy.fft.fftn(r32), numpy.float32, numpy.complex64)
        ints = numpy.arange(numpy.prod(SHAPE)).reshape(SHAPE) % 7
        self.check(fft3d.fftn(ints), numpy.fft.fftn(ints), numpy.float64, numpy.complex128)
        self.check(fft3d.rfftn(ints), numpy.fft.rfftn(ints), numpy.float64, numpy.complex128)

    def test_s_crops_and_pads(self):
        x = complex_data(SHAPE, numpy.complex128)
        for s in ((4, 8, 8), (5, 8, 20), (2, 12, 16)):
            with self.subTest(s=s):
                self.check(fft3d.fftn(x, s=s), numpy.fft.fftn(x, s=s), numpy.complex128, numpy.complex128)
        spectrum = complex_data((4, 8, 9), numpy.complex128)
        for s in ((4, 8, 16), (4, 8, 10), (4, 6, 20)):
            with self.subTest(irfftn_s=s):
                self.check(fft3d.irfftn(spectrum, s=s), numpy.fft.irfftn(spectrum, s=s), numpy.float64,
                           numpy.float64)

    def test_axes_naming_the_trailing_axes(self):
        x = complex_data(SHAPE, numpy.complex128)
        for axes in ((0, 1, 2), (-3, -2, -1), (2, 0, 1)):
            with self.subTest(axes=axes):
                self.check(fft3d.fftn(x, axes=axes), numpy.fft.fftn(x, axes=axes), numpy.complex128,
                           numpy.complex128)
        r = real_data(SHAPE, numpy.float64)
        self.check(fft3d.rfftn(r, axes=(1, 0, 2)), numpy.fft.rfftn(r, axes=(1, 0, 2)), numpy.float64,
                   numpy.complex128)

    def test_out(self):
        x = complex_data(SHAPE, numpy.complex64)
        out = numpy.empty(SHAPE, numpy.complex64)
        self.assertIs(fft3d.fftn(x, out=out), out)
        self.assertLess(relative_l2(out, numpy.fft.fftn(x)), bound_of(numpy.complex64))
        self.assertIs(fft3d.ifftn(out, out=out), out)  # in place
        self.assertLess(relative_l2(out, x), bound_of(numpy.complex64))

    def test_non_contiguous_input_is_copied(self):
        x = complex_data((4, 8, 32), numpy.complex128)
        strided = x[:, :, ::2]
        self.check(fft3d.fftn(strided), numpy.fft.fftn(strided), numpy.complex128, numpy.complex128)
        fortran = numpy.asfortranarray(complex_data(SHAPE, numpy.complex128))
        self.check(fft3d.fftn(fortran), numpy.fft.fftn(fortran), numpy.complex128, numpy.complex128)

    def test_byte_swapped_input_is_converted(self):
        x = complex_data(SHAPE, numpy.complex128).astype(">c16")
        self.check(fft3d.fftn(x), numpy.fft.fftn(x), numpy.complex128, numpy.complex128)

    def test_empty_batch(self):
        self.assertEqual(fft3d.fftn(numpy.zeros((0,) + SHAPE, numpy.complex64)).shape, (0,) + SHAPE)
        self.assertEqual(fft3d.rfftn(numpy.zeros((0,) + SHAPE)).shape, (0, 4, 8, 9))


class Batches(unittest.TestCase):
    """Leading axes are a batch of volumes: each must equal numpy.fft over the trailing axes."""

    def test_fftn_over_leading_axes(self):
        x = complex_data((2, 3) + SHAPE, numpy.complex64)
        got = fft3d.fftn(x)
        self.assertLess(relative_l2(got, numpy.fft.fftn(x, axes=(-3, -2, -1))), bound_of(numpy.complex64))
        self.assertLess(relative_l2(fft3d.ifftn(got), x), bound_of(numpy.complex64))

    def test_two_dimensional_transforms_of_a_volume(self):
        x = complex_data(SHAPE, numpy.complex128)
        self.assertLess(relative_l2(fft3d.fftn(x, axes=(-2, -1)), numpy.fft.fftn(x, axes=(-2, -1))), 1e-12)

    def test_real_transforms_over_leading_axes(self):
        x = real_data((3,) + SHAPE, numpy.float64)
        spectrum = fft3d.rfftn(x, axes=(1, 2, 3))
        self.assertLess(relative_l2(spectrum, numpy.fft.rfftn(x, axes=(1, 2, 3))), 1e-12)
        self.assertLess(relative_l2(fft3d.irfftn(spectrum, axes=(1, 2, 3)), x), 1e-12)

    def test_batched_plan(self):
        plan = fft3d.Plan(SHAPE, numpy.complex128, batch=3)
        x = complex_data((3,) + SHAPE, numpy.complex128)
        self.assertLess(relative_l2(plan.forward(x), numpy.fft.fftn(x, axes=(1, 2, 3))), 1e-12)


class Plans(unittest.TestCase):
    def test_plan_runs_repeatedly(self):
        plan = fft3d.Plan(SHAPE, numpy.complex64)
        self.assertEqual((plan.shape, plan.kind, plan.precision, plan.batch, plan.device),
                         (SHAPE, "c2c", "fp32", 1, "cpu"))
        self.assertEqual(plan.workspace_bytes, 0)
        for seed in range(3):
            x = complex_data(SHAPE, numpy.complex64, seed)
            self.assertLess(relative_l2(plan.forward(x), numpy.fft.fftn(x)), bound_of(numpy.complex64))
            self.assertLess(relative_l2(plan.inverse(plan.forward(x)), x), bound_of(numpy.complex64))
        self.assertLess(relative_l2(plan.forward(x, norm="ortho"), numpy.fft.fftn(x, norm="ortho")),
                        bound_of(numpy.complex64))

    def test_real_plans(self):
        r2c = fft3d.Plan(SHAPE, numpy.float64, "r2c")
        c2r = fft3d.Plan(SHAPE, numpy.float64, "c2r")
        x = real_data(SHAPE, numpy.float64)
        spectrum = r2c.forward(x)
        self.assertEqual(spectrum.shape, (4, 8, 9))
        self.assertLess(relative_l2(c2r.inverse(spectrum), x), 1e-13)
        with self.assertRaisesRegex(fft3d.UsageError, "r2c plan runs forward"):
            r2c.inverse(x)

    def test_plan_file(self):
        text = fft3d.Plan(SHAPE, numpy.complex128).plan_text
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "plan.yaml")
            with open(path, "w") as file:
                # The plan text names its precision where the engine keeps it in the plan; otherwise it is added.
                file.write(text if "precision: fp64" in text else text + "precision: fp64\n")
            plan = fft3d.Plan.from_file(path)
        self.assertEqual((plan.shape, plan.kind, plan.precision), (SHAPE, "c2c", "fp64"))
        x = complex_data(SHAPE, numpy.complex128)
        self.assertLess(relative_l2(plan.forward(x), numpy.fft.fftn(x)), 1e-12)

    def test_bad_plan_file_is_a_located_plan_error(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "bad.yaml")
            with open(path, "w") as file:
                file.write('size: [256, 256, 256]\narch: tesla\nkernels:\n  - "Z(16, 16, 16, 156, tw)"\n')
            with self.assertRaisesRegex(fft3d.PlanError, r"bad\.yaml:4:"):
                fft3d.Plan.from_file(path)
        with self.assertRaisesRegex(fft3d.UsageError, "nonexistent"):
            fft3d.Plan.from_file("/nonexistent/plan.yaml")

    def test_plan_checks_its_arrays(self):
        plan = fft3d.Plan(SHAPE, numpy.complex64)
        with self.assertRaisesRegex(fft3d.DtypeError, "complex64"):
            plan.forward(complex_data(SHAPE, numpy.complex128))
        with self.assertRaisesRegex(fft3d.UsageError, r"volumes are \(4, 8, 16\)"):
            plan.forward(complex_data((4, 8, 8), numpy.complex64))
        with self.assertRaisesRegex(fft3d.UsageError, "C-contiguous"):
            plan.forward(complex_data((4, 8, 32), numpy.complex64)[:, :, ::2])
        with self.assertRaisesRegex(fft3d.UsageError, "out must be"):
            plan.forward(complex_data(SHAPE, numpy.complex64), out=numpy.empty(SHAPE, numpy.complex128))
        plan.close()
        with self.assertRaisesRegex(fft3d.UsageError, "closed"):
            plan.forward(complex_data(SHAPE, numpy.complex64))

    def test_bad_plan_arguments(self):
        with self.assertRaisesRegex(fft3d.UsageError, "kind"):
            fft3d.Plan(SHAPE, numpy.complex64, "c2x")
        with self.assertRaisesRegex(fft3d.DtypeError, "int32"):
            fft3d.Plan(SHAPE, numpy.int32)
        with self.assertRaisesRegex(fft3d.UsageError, "1 to 3 axes"):
            fft3d.Plan((2, 2, 2, 2), numpy.complex64)
        with self.assertRaisesRegex(fft3d.UsageError, "device"):
            fft3d.Plan(SHAPE, numpy.complex64, device="tpu")

    def test_gpu_plan_without_a_gpu_is_a_clean_error(self):
        try:
            plan = fft3d.Plan(SHAPE, numpy.complex64, device="cuda")
        except (fft3d.GpuUnavailable, fft3d.CudaError) as error:
            self.assertTrue(str(error))
            return
        with self.assertRaisesRegex(fft3d.UsageError, "host memory"):
            plan.forward(complex_data(SHAPE, numpy.complex64))  # a GPU is present: NumPy data are refused


class BadInput(unittest.TestCase):
    def test_dtypes(self):
        for dtype in (numpy.float16, numpy.longdouble, numpy.clongdouble, object):
            with self.subTest(dtype=dtype), self.assertRaisesRegex(fft3d.DtypeError, "not supported"):
                fft3d.fftn(numpy.zeros(SHAPE, dtype))
        with self.assertRaisesRegex(fft3d.DtypeError, "real input"):
            fft3d.rfftn(complex_data(SHAPE, numpy.complex64))
        with self.assertRaises(TypeError):  # a DtypeError is a TypeError, as numpy's own
            fft3d.fftn(numpy.array(["a", "b"]))

    def test_shapes(self):
        with self.assertRaisesRegex(fft3d.UsageError, "11 is not a supported factor"):
            fft3d.fftn(numpy.zeros((4, 11), numpy.complex64))
        with self.assertRaisesRegex(fft3d.UsageError, "0-d"):
            fft3d.fftn(numpy.complex64(1))
        with self.assertRaisesRegex(fft3d.UsageError, "invalid number of data points"):
            fft3d.fftn(numpy.zeros(SHAPE, numpy.complex64), s=(4, 0, 16))
        with self.assertRaisesRegex(fft3d.UsageError, "out must be"):
            fft3d.fftn(numpy.zeros(SHAPE, numpy.complex64), out=numpy.zeros((4, 8, 8), numpy.complex64))
        with self.assertRaises(ValueError):  # a UsageError is a ValueError, as numpy's own
            fft3d.fftn(numpy.zeros((4, 13), numpy.complex64))

    def test_axes(self):
        x = numpy.zeros(SHAPE, numpy.complex64)
        with self.assertRaisesRegex(fft3d.UsageError, "out of bounds"):
            fft3d.fftn(x, axes=(3,))
        with self.assertRaisesRegex(fft3d.UsageError, "repeated"):
            fft3d.fftn(x, axes=(1, 1))
        with self.assertRaisesRegex(fft3d.UsageError, "trailing axes"):
            fft3d.fftn(x, axes=(0, 1))
        with self.assertRaisesRegex(fft3d.UsageError, "last for a real transform"):
            fft3d.rfftn(numpy.zeros(SHAPE), axes=(2, 1))
        with self.assertRaisesRegex(fft3d.UsageError, "1 to 3"):
            fft3d.fftn(numpy.zeros((2,) + SHAPE, numpy.complex64), axes=(0, 1, 2, 3))
        with self.assertRaisesRegex(fft3d.UsageError, "differ in length"):
            fft3d.fftn(x, s=(4, 8), axes=(0, 1, 2))

    def test_norm(self):
        with self.assertRaisesRegex(fft3d.UsageError, "norm 'unit'"):
            fft3d.fftn(numpy.zeros(SHAPE, numpy.complex64), norm="unit")

    def test_missing_library_is_a_clean_error(self):
        script = ("import numpy, fft3d\n"
                  "try:\n    fft3d.fftn(numpy.zeros(4))\nexcept fft3d.LibraryNotFound as error:\n"
                  "    print('LibraryNotFound', error)\n")
        environment = dict(os.environ, FFT3D_LIBRARY="/nonexistent/libfft3d_c.so")
        result = subprocess.run([sys.executable, "-c", script], env=environment, capture_output=True, text=True)
        self.assertIn("LibraryNotFound", result.stdout, result.stderr)
        self.assertIn("/nonexistent/libfft3d_c.so", result.stdout)


if __name__ == "__main__":
    unittest.main()
