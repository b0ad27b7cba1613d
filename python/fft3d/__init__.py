"""fft3d from Python: 3D (and 1D, 2D) FFTs of NumPy arrays on the CPU backend, and of CuPy arrays and PyTorch CUDA
tensors on the GPU, over the C API (libfft3d_c.so, loaded with ctypes: no compiled extension, any CPython >= 3.9).

    import numpy, fft3d
    x = numpy.random.rand(64, 64, 64).astype(numpy.complex64)
    y = fft3d.fftn(x)                          # numpy.fft.fftn's semantics, single precision kept
    plan = fft3d.Plan(x.shape, x.dtype)        # made once, run many times
    z = plan.inverse(plan.forward(x))

See README.md ("Python") for the install and where the library is looked for (fft3d._library).
"""

from ._functions import PLAN_CACHE_SIZE, clear_plan_cache, fftn, ifftn, irfftn, rfftn
from .errors import (CompileError, CudaError, DtypeError, Error, GpuUnavailable, InternalError, LibraryNotFound,
                     LoweringError, OutOfMemory, PlanError, UsageError)
from .plan import Plan

__all__ = [
    "fftn", "ifftn", "rfftn", "irfftn", "Plan", "clear_plan_cache", "PLAN_CACHE_SIZE",
    "Error", "UsageError", "DtypeError", "PlanError", "LoweringError", "CompileError", "CudaError",
    "GpuUnavailable", "OutOfMemory", "InternalError", "LibraryNotFound",
]
