"""The arrays fft3d takes, seen one way: NumPy arrays (the CPU backend), CuPy arrays and PyTorch CUDA tensors (the
GPU backend, no copy, the caller's current stream). PyTorch CPU tensors run on the CPU backend through a NumPy view.
Other objects with __cuda_array_interface__ or __dlpack__ are viewed (without a copy) as a CuPy array, or a PyTorch
tensor where CuPy is absent; anything else goes through numpy.asarray.

CuPy and PyTorch are never imported here: an array of theirs means its module is loaded already (sys.modules).
"""

import sys

import numpy

from . import errors

# The dtypes the transforms run on: complex ones for C2C and C2R input, real ones for R2C input.
COMPLEX_OF_REAL = {numpy.dtype(numpy.float32): numpy.dtype(numpy.complex64),
                   numpy.dtype(numpy.float64): numpy.dtype(numpy.complex128)}
REAL_OF_COMPLEX = {complex_: real for real, complex_ in COMPLEX_OF_REAL.items()}
SUPPORTED = "float32, float64, complex64 or complex128 (booleans and integers are taken as float64)"


def _numpy_dtype(name):
    try:
        return numpy.dtype(name)
    except TypeError as error:
        raise errors.DtypeError(f"fft3d: dtype {name} is not supported: use {SUPPORTED}") from error


def _module_of(x):
    return type(x).__module__.split(".", 1)[0]


def loaded(name):
    """The module `name` if the caller imported it, else None."""
    return sys.modules.get(name)


# PyTorch dtypes as NumPy dtypes, filled as they are met: a dict lookup per call instead of parsing the dtype's name.
_TORCH_DTYPES = {}


def _torch_dtype(dtype):
    known = _TORCH_DTYPES.get(dtype)
    if known is None:
        known = _TORCH_DTYPES[dtype] = _numpy_dtype(str(dtype).rsplit(".", 1)[-1])
    return known


def _torch_stream(device):
    """The current PyTorch stream of CUDA device `device` as an int: the raw getter where this PyTorch has it (a
    C call, where torch.cuda.current_stream builds a Stream object per call), else the public one."""
    torch = loaded("torch")
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return raw(device)
    return torch.cuda.current_stream(device).cuda_stream


class Array:
    """One array: its library ("numpy", "cupy" or "torch"), shape, NumPy dtype, data address, contiguity and device
    (None for host memory, the CUDA ordinal otherwise)."""

    __slots__ = ("obj", "lib", "shape", "dtype", "device")

    def __init__(self, obj, lib):
        self.obj = obj
        self.lib = lib
        self.shape = tuple(obj.shape)
        if lib == "torch":
            self.dtype = _torch_dtype(obj.dtype)
            self.device = obj.get_device() if obj.is_cuda else None
        else:
            self.dtype = numpy.dtype(obj.dtype)
            self.device = obj.device.id if lib == "cupy" else None

    @property
    def on_gpu(self):
        return self.device is not None

    @property
    def pointer(self):
        if self.lib == "numpy":
            return self.obj.ctypes.data
        if self.lib == "cupy":
            return self.obj.data.ptr
        return self.obj.data_ptr()

    @property
    def contiguous(self):
        if self.lib == "torch":
            return self.obj.is_contiguous()
        return self.obj.flags.c_contiguous

    def stream(self):
        """The caller's current stream on the array's device (a cudaStream_t as an int); None on the host."""
        if self.lib == "cupy":
            cupy = loaded("cupy")
            if cupy.cuda.runtime.getDevice() == self.device:
                return cupy.cuda.get_current_stream().ptr
            with cupy.cuda.Device(self.device):
                return cupy.cuda.get_current_stream().ptr
        if self.lib == "torch" and self.on_gpu:
            return _torch_stream(self.device)
        return None

    def like(self, obj):
        """`obj`, an array of this one's library, as an Array."""
        return Array(obj, self.lib)

    def empty(self, shape, dtype):
        """A new C-contiguous array of this library, on this device, for the transform to write."""
        if self.lib == "numpy":
            return self.like(numpy.empty(shape, dtype))
        if self.lib == "cupy":
            cupy = loaded("cupy")
            with cupy.cuda.Device(self.device):
                return self.like(cupy.empty(shape, dtype))
        torch = loaded("torch")
        return self.like(torch.empty(shape, dtype=getattr(torch, dtype.name), device=self.obj.device))

    def zeros(self, shape, dtype):
        out = self.empty(shape, dtype)
        out.obj[...] = 0
        return out

    def as_contiguous(self, dtype):
        """This array as a C-contiguous array of `dtype`: itself when it is one, else a copy."""
        if self.dtype == dtype and self.contiguous:
            return self
        if self.lib == "numpy":
            return self.like(numpy.ascontiguousarray(self.obj, dtype))
        if self.lib == "cupy":
            cupy = loaded("cupy")
            with cupy.cuda.Device(self.device):
                return self.like(cupy.ascontiguousarray(self.obj, dtype))
        torch = loaded("torch")
        return self.like(self.obj.to(getattr(torch, dtype.name)).contiguous())


# The library of each array type met ("numpy", "cupy" or "torch"), so that a call classifies its arrays by one dict
# lookup; types of none of them are not kept (they go through the general path below each time).
_LIB_OF_TYPE = {}


def _lib_of(x):
    kind = type(x)
    lib = _LIB_OF_TYPE.get(kind)
    if lib is not None:
        return lib
    cupy, torch = loaded("cupy"), loaded("torch")
    if kind is numpy.ndarray:
        lib = "numpy"
    elif cupy is not None and _module_of(x) == "cupy" and issubclass(kind, cupy.ndarray):
        lib = "cupy"
    elif torch is not None and issubclass(kind, torch.Tensor):
        lib = "torch"
    else:
        return None
    _LIB_OF_TYPE[kind] = lib
    return lib


def as_array(x):
    """`x` as an Array, without a copy where fft3d can run on it in place (see the module's docstring)."""
    lib = _lib_of(x)
    if lib == "numpy" or lib == "cupy":
        return Array(x, lib)
    if lib == "torch":
        if x.requires_grad:
            x = x.detach()
        if x.is_conj() or x.is_neg():  # lazy views whose memory is not their values: resolved into a copy
            x = x.resolve_conj().resolve_neg()
        if x.is_cuda:
            return Array(x, "torch")
        return Array(x.numpy(), "numpy")
    if hasattr(x, "__cuda_array_interface__") or (hasattr(x, "__dlpack__") and not hasattr(x, "__array__")):
        return _foreign_gpu_array(x)
    try:
        return Array(numpy.asarray(x), "numpy")
    except Exception as error:  # numpy's own message says why
        raise errors.DtypeError(f"fft3d: cannot view {type(x).__name__} as an array: {error}") from error


def _foreign_gpu_array(x):
    cupy, torch = loaded("cupy"), loaded("torch")
    if cupy is not None:
        return Array(cupy.asarray(x) if hasattr(x, "__cuda_array_interface__") else cupy.from_dlpack(x), "cupy")
    if torch is not None and hasattr(x, "__dlpack__"):
        tensor = torch.from_dlpack(x)
        return Array(tensor, "torch") if tensor.is_cuda else Array(tensor.numpy(), "numpy")
    raise errors.UsageError(f"fft3d: a {type(x).__name__} on the GPU is taken through CuPy or PyTorch: import one")


def wrap(array, original):
    """The result for the caller: a PyTorch CPU tensor back as a tensor (sharing the NumPy result's memory)."""
    torch = loaded("torch")
    if array.lib == "numpy" and torch is not None and isinstance(original, torch.Tensor):
        return torch.from_numpy(array.obj)
    return array.obj
