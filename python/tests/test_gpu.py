"""fft3d on the GPU, for CuPy arrays and PyTorch CUDA tensors: results within the bound against the library's own
FFT in fp64 (cupy.fft, torch.fft), no copy (the pointers the library ran on are the arrays'), and stream order
(work queued on a non-default stream before and after the call sees the right data). Every test skips, saying
why, where CuPy or PyTorch is missing or no GPU answers. PyTorch CPU tensors run on the CPU backend.

Run: FFT3D_LIBRARY=build/libfft3d_c.so FFT3D_PLANS_DIR=plans PYTHONPATH=python:python/tests python3 -m unittest -v
test_gpu (ctest: python_gpu).
"""

import importlib
import unittest

import numpy

import fft3d
import fft3d._functions
from common import FP32_BOUND, bound_of, relative_l2

SHAPES = ((64, 64, 64), (4, 8, 16), (32, 128))
# Long enough (GPU clock cycles, about 50 ms) that work racing ahead of it would read stale data.
SPIN_CYCLES = 100_000_000
# What the GPU transform says while it runs fp32 only (the fp64 work lifts it).


def _import(name):
    try:
        return importlib.import_module(name)
    except Exception:  # an absent or broken install: the tests of that library skip
        return None


cupy = _import("cupy")
torch = _import("torch")


def _cupy_gpu():
    try:
        return cupy is not None and cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def _torch_gpu():
    return torch is not None and torch.cuda.is_available()


def host_data(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    if numpy.dtype(dtype).kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


class ExecuteSpy:
    """Stands for a plan's library: records each fft3d_execute's (in, out, stream), then runs it."""

    def __init__(self, library):
        self.library = library
        self.calls = []

    def __getattr__(self, name):
        return getattr(self.library, name)

    def fft3d_execute(self, handle, in_pointer, out_pointer, direction, scaling, stream):
        self.calls.append((in_pointer, out_pointer, stream))
        return self.library.fft3d_execute(handle, in_pointer, out_pointer, direction, scaling, stream)



class GpuLibraryTests:
    """The same checks for each array library; subclasses say how to make, read and time arrays."""

    def to_device(self, host):
        raise NotImplementedError

    def to_host(self, array):
        raise NotImplementedError

    def oracle(self, function, array, **kwargs):
        """The library's own FFT of `array` in fp64, on the host."""
        raise NotImplementedError

    def pointer(self, array):
        raise NotImplementedError

    def check_function(self, name, host, **kwargs):
        x = self.to_device(host)
        got = getattr(fft3d, name)(x, **kwargs)
        self.assertEqual(type(got), type(x))
        # fft3d transforms the last three axes and batches the leading ones; the libraries' fftn, all axes.
        oracle_kwargs = dict(kwargs)
        if host.ndim > 3 and "axes" not in kwargs:
            oracle_kwargs["axes"] = (-3, -2, -1)
        want = self.oracle(name, x, **oracle_kwargs)
        self.assertLess(relative_l2(self.to_host(got), want), bound_of(host.dtype), f"{name} {host.shape}")

    def test_functions_against_the_library_fft(self):
        for shape in SHAPES:
            for norm in ("backward", "ortho", "forward"):
                with self.subTest(shape=shape, norm=norm):
                    self.check_function("fftn", host_data(shape, numpy.complex64), norm=norm)
                    self.check_function("ifftn", host_data(shape, numpy.complex64), norm=norm)
                    self.check_function("rfftn", host_data(shape, numpy.float32), norm=norm)
                    spectrum = host_data(shape[:-1] + (shape[-1] // 2 + 1,), numpy.complex64)
                    self.check_function("irfftn", spectrum, norm=norm)

    def test_fp64(self):
        self.check_function("fftn", host_data((64, 64, 64), numpy.complex128))
        self.check_function("rfftn", host_data((64, 64, 64), numpy.float64))

    def test_batch(self):
        self.check_function("fftn", host_data((3, 4, 8, 16), numpy.complex64))
        self.check_function("fftn", host_data((5, 32, 64), numpy.complex64), axes=(-2, -1))

    def test_no_copy(self):
        shape = (64, 64, 64)
        x = self.to_device(host_data(shape, numpy.complex64))
        out = self.to_device(host_data(shape, numpy.complex64))
        fft3d.fftn(x)  # makes and caches the plan
        plan = fft3d._functions.cached_plan(shape, numpy.complex64, "c2c", 1, self.device_of(x))
        spy = ExecuteSpy(plan._library)
        plan._library = spy
        try:
            self.assertIs(fft3d.fftn(x, out=out), out)
        finally:
            plan._library = spy.library
        self.assertEqual(len(spy.calls), 1)
        in_pointer, out_pointer, stream = spy.calls[0]
        self.assertEqual((in_pointer, out_pointer), (self.pointer(x), self.pointer(out)))
        self.assertEqual(stream or 0, self.current_stream())

    def test_plan_runs_repeatedly_on_the_device(self):
        shape = (64, 64, 64)
        x = self.to_device(host_data(shape, numpy.complex64))
        plan = fft3d.Plan(shape, numpy.complex64, device=self.device_of(x))
        for seed in range(3):
            x = self.to_device(host_data(shape, numpy.complex64, seed))
            self.assertLess(relative_l2(self.to_host(plan.forward(x)), self.oracle("fftn", x)), FP32_BOUND)
        with self.assertRaisesRegex(fft3d.UsageError, "host memory"):
            plan.forward(host_data(shape, numpy.complex64))

    def test_mixed_devices_are_refused(self):
        x = self.to_device(host_data((4, 8, 16), numpy.complex64))
        with self.assertRaisesRegex(fft3d.UsageError, "out is a numpy array"):
            fft3d.fftn(x, out=numpy.empty((4, 8, 16), numpy.complex64))

    def test_stream_order(self):
        shape = (64, 64, 64)
        source = self.to_device(host_data(shape, numpy.complex64))
        x = self.to_device(numpy.zeros(shape, numpy.complex64))
        fft3d.fftn(x)  # the plan made before the timed part
        self.synchronize()
        got = self.run_on_side_stream(source, x)
        self.assertLess(relative_l2(got, self.oracle("fftn", source)), FP32_BOUND)


@unittest.skipUnless(_cupy_gpu(), "CuPy with a GPU is needed")
class CupyTests(GpuLibraryTests, unittest.TestCase):
    def to_device(self, host):
        return cupy.asarray(host)

    def to_host(self, array):
        return cupy.asnumpy(array)

    def oracle(self, function, array, **kwargs):
        wide = array.astype(cupy.complex128 if array.dtype.kind == "c" else cupy.float64)
        return cupy.asnumpy(getattr(cupy.fft, function)(wide, **kwargs))

    def pointer(self, array):
        return array.data.ptr

    def device_of(self, array):
        return array.device.id

    def current_stream(self):
        return cupy.cuda.get_current_stream().ptr

    def synchronize(self):
        cupy.cuda.Device().synchronize()

    def run_on_side_stream(self, source, x):
        spin = cupy.RawKernel(r"""
            extern "C" __global__ void spin(long long cycles) {
              long long start = clock64();
              while (clock64() - start < cycles) {}
            }""", "spin")
        stream = cupy.cuda.Stream(non_blocking=True)
        with stream:
            spin((1,), (1,), (numpy.int64(SPIN_CYCLES),))
            x[...] = source  # queued after the spin: a call on another stream would read zeros
            y = fft3d.fftn(x)
            after = y.copy()  # queued after the call: reads its result only if the call is on this stream
        stream.synchronize()
        return cupy.asnumpy(after)


@unittest.skipUnless(_torch_gpu(), "PyTorch with a GPU is needed")
class TorchTests(GpuLibraryTests, unittest.TestCase):
    def to_device(self, host):
        return torch.from_numpy(numpy.ascontiguousarray(host)).cuda()

    def to_host(self, array):
        return array.cpu().numpy()

    def oracle(self, function, array, **kwargs):
        wide = array.to(torch.complex128 if array.is_complex() else torch.float64)
        if "axes" in kwargs:
            kwargs["dim"] = kwargs.pop("axes")
        return getattr(torch.fft, function)(wide, **kwargs).cpu().numpy()

    def pointer(self, array):
        return array.data_ptr()

    def device_of(self, array):
        return array.device.index

    def current_stream(self):
        return torch.cuda.current_stream().cuda_stream

    def synchronize(self):
        torch.cuda.synchronize()

    def run_on_side_stream(self, source, x):
        stream = torch.cuda.Stream()
        with torch.cuda.stream(stream):
            torch.cuda._sleep(SPIN_CYCLES)
            x.copy_(source)
            y = fft3d.fftn(x)
            after = y.clone()
        stream.synchronize()
        return after.cpu().numpy()


@unittest.skipUnless(torch is not None, "PyTorch is needed")
class TorchCpuTests(unittest.TestCase):
    def test_cpu_tensors_run_on_the_cpu_backend(self):
        x = torch.from_numpy(host_data((4, 8, 16), numpy.complex128))
        got = fft3d.fftn(x)
        self.assertIsInstance(got, torch.Tensor)
        self.assertLess(relative_l2(got.numpy(), numpy.fft.fftn(x.numpy())), 1e-12)


if __name__ == "__main__":
    unittest.main()
