"""fftn, ifftn, rfftn and irfftn with numpy.fft's semantics, on the plans of an internal cache."""

import collections
import functools
import math
import threading

import numpy

from . import errors
from ._arrays import COMPLEX_OF_REAL, REAL_OF_COMPLEX, SUPPORTED, as_array, wrap
from .plan import MAX_AXES, Plan, norm_scaling

# How many plans the cache keeps (least recently used dropped first); each GPU plan holds its compiled kernels and,
# after a run that needs one, a workspace of one volume.
PLAN_CACHE_SIZE = 16

# How many distinct calls (input shape and dtype, s, axes, norm) keep their checked arguments.
CALL_CACHE_SIZE = 256

_cache = collections.OrderedDict()
_cache_lock = threading.Lock()


def clear_plan_cache():
    """Drops every cached plan (their device memory is freed once no run uses them)."""
    with _cache_lock:
        _cache.clear()


def cached_plan(shape, dtype, kind, batch, device):
    """The plan for (shape, dtype, kind, batch, device), made at its first use and kept in an LRU cache."""
    key = (tuple(shape), numpy.dtype(dtype).str, kind, batch, device)
    with _cache_lock:
        plan = _cache.get(key)
        if plan is not None:
            _cache.move_to_end(key)
            return plan
    plan = Plan(shape, dtype, kind, batch=batch, device="cpu" if device is None else device)
    with _cache_lock:
        _cache[key] = plan
        while len(_cache) > PLAN_CACHE_SIZE:
            _cache.popitem(last=False)
    return plan


def _complex_dtype(dtype):
    """numpy.fft's input conversion, keeping single precision: complex64 for float32 and complex64 data, complex128
    for float64, complex128, booleans and integers; byte-swapped data are converted to native order."""
    dtype = dtype.newbyteorder("=")
    if dtype in REAL_OF_COMPLEX:
        return dtype
    if dtype in COMPLEX_OF_REAL:
        return COMPLEX_OF_REAL[dtype]
    if dtype.kind in "biu":
        return numpy.dtype(numpy.complex128)
    raise errors.DtypeError(f"fft3d: dtype {dtype} is not supported: use {SUPPORTED}")


def _real_dtype(dtype, function):
    dtype = dtype.newbyteorder("=")
    if dtype in COMPLEX_OF_REAL:
        return dtype
    if dtype.kind in "biu":
        return numpy.dtype(numpy.float64)
    if dtype in REAL_OF_COMPLEX:
        raise errors.DtypeError(f"fft3d: {function} takes real input, not {dtype} (use fftn for complex data)")
    raise errors.DtypeError(f"fft3d: dtype {dtype} is not supported: use {SUPPORTED}")


def _axes(ndim, s, axes, real):
    """The transformed axes (numpy's rule: the last len(s) axes, else the last min(ndim, 3)), checked to be the
    trailing axes of the array, the layout the engine runs (X contiguous, leading axes a batch)."""
    if ndim == 0:
        raise errors.UsageError("fft3d: a 0-d array has no axis to transform")
    if axes is None:
        count = min(ndim, MAX_AXES) if s is None else len(s)
        axes = tuple(range(ndim - count, ndim))
    else:
        axes = tuple(int(a) for a in (axes if hasattr(axes, "__len__") else (axes,)))
        for a in axes:
            if not -ndim <= a < ndim:
                raise errors.UsageError(f"fft3d: axis {a} is out of bounds for an array of dimension {ndim}")
        axes = tuple(a % ndim for a in axes)
        if len(set(axes)) != len(axes):
            raise errors.UsageError(f"fft3d: repeated axes {axes}")
    if not 1 <= len(axes) <= MAX_AXES:
        raise errors.UsageError(f"fft3d: {len(axes)} axes: fft3d transforms 1 to {MAX_AXES} axes")
    trailing = tuple(range(ndim - len(axes), ndim))
    if sorted(axes) != list(trailing) or (real and axes[-1] != ndim - 1):
        raise errors.UsageError(
            f"fft3d: axes {axes}: fft3d transforms the trailing axes {trailing} of an array (the last one "
            f"contiguous{', and last for a real transform' if real else ''}); move the axes first (numpy.moveaxis)")
    if s is not None and len(s) != len(axes):
        raise errors.UsageError(f"fft3d: s {tuple(s)} and axes {axes} differ in length")
    return axes


def _resized(array, shape, dtype):
    """`array` cropped or zero-padded to `shape` on its trailing axes (numpy.fft's `s`), as a C-contiguous `dtype`
    array: itself when nothing changes and it is one."""
    if tuple(shape) == array.shape:
        return array.as_contiguous(dtype)
    result = array.zeros(shape, dtype)
    common = tuple(slice(0, min(a, b)) for a, b in zip(shape, array.shape))
    result.obj[common] = array.obj[common]
    return result


def _lengths(s, axes):
    lengths = tuple(int(n) for n in s)
    for n in lengths:
        if n < 1:
            raise errors.UsageError(f"fft3d: invalid number of data points ({n}) in s {tuple(s)}")
    return lengths


class _Call(collections.namedtuple("_Call", "input_shape dtype plan_shape batch output_shape output_dtype "
                                             "scaling")):
    """What one call does, from the input's shape and dtype and the arguments: the input it runs on (shape, dtype),
    the plan's shape and batch, the output (shape, dtype) and the scaling."""


def _hashable(value):
    return tuple(value) if isinstance(value, (list, numpy.ndarray)) else value


@functools.lru_cache(maxsize=CALL_CACHE_SIZE)
def _call(kind, direction, shape, dtype, s, axes, norm):
    """The _Call of a function's arguments (memoised: repeated calls skip the checks below)."""
    real = kind != "c2c"
    axes = _axes(len(shape), s, axes, real)
    count = len(axes)
    leading, trailing = shape[:-count], shape[-count:]
    dtype = _real_dtype(dtype, "rfftn") if kind == "r2c" else _complex_dtype(dtype)
    # The transform's shape (the real one for real kinds) and the input's trailing shape.
    if kind == "c2r":
        plan_shape = trailing[:-1] + (2 * (trailing[-1] - 1),) if s is None else _lengths(s, axes)
        if plan_shape[-1] < 1:
            raise errors.UsageError(f"fft3d: invalid number of data points ({plan_shape[-1]}) for irfftn's last axis")
        input_trailing = plan_shape[:-1] + (plan_shape[-1] // 2 + 1,)
    else:
        plan_shape = trailing if s is None else _lengths(s, axes)
        input_trailing = plan_shape
    if kind == "r2c":
        output_trailing, output_dtype = plan_shape[:-1] + (plan_shape[-1] // 2 + 1,), COMPLEX_OF_REAL[dtype]
    elif kind == "c2r":
        output_trailing, output_dtype = plan_shape, REAL_OF_COMPLEX[dtype]
    else:
        output_trailing, output_dtype = plan_shape, dtype
    scaling = norm_scaling(norm, direction)
    return _Call(leading + tuple(input_trailing), dtype, tuple(plan_shape), math.prod(leading),
                 leading + tuple(output_trailing), output_dtype, scaling)


def _transform(x, s, axes, norm, out, kind, direction):
    array = as_array(x)
    arguments = (kind, direction, array.shape, array.dtype, _hashable(s), _hashable(axes), norm)
    try:
        hash(arguments)
    except TypeError as error:
        raise errors.UsageError(f"fft3d: s, axes or norm of an unexpected type: {error}") from None
    call = _call(*arguments)
    source = _resized(array, call.input_shape, call.dtype)
    if call.batch == 0:  # no volume: numpy's empty result, no plan
        return out if out is not None else wrap(source.empty(call.output_shape, call.output_dtype), x)
    plan = cached_plan(call.plan_shape, call.dtype, kind, call.batch, source.device)
    result = plan._output_for(source, out, call.input_shape[:len(call.input_shape) - len(call.plan_shape)])
    plan.run(source, result, direction, call.scaling)
    return out if out is not None else wrap(result, x)


def fftn(x, s=None, axes=None, norm=None, out=None):
    """numpy.fft.fftn on the last axes of `x` (all of them when x has three or fewer, else the last three; leading
    axes are a batch of volumes). NumPy arrays run on the CPU backend; CuPy arrays and PyTorch CUDA tensors on their
    GPU, on the caller's current stream, without a copy when x is C-contiguous complex64 or complex128.
    complex64 and float32 data give complex64 (single precision throughout), other data complex128. A
    non-contiguous x, a real x or an `s` other than x's shape is copied first. `out`: a C-contiguous array of the
    result's shape and dtype, of x's library and device."""
    return _transform(x, s, axes, norm, out, "c2c", "forward")


def ifftn(x, s=None, axes=None, norm=None, out=None):
    """numpy.fft.ifftn (1/N with the default "backward" norm); arrays, axes and dtypes as fftn."""
    return _transform(x, s, axes, norm, out, "c2c", "inverse")


def rfftn(x, s=None, axes=None, norm=None, out=None):
    """numpy.fft.rfftn: the half spectrum along the last axis ((n//2 + 1) values) of real `x` (float32 gives
    complex64, float64 complex128). The last axis may be odd, as in numpy."""
    return _transform(x, s, axes, norm, out, "r2c", "forward")


def irfftn(x, s=None, axes=None, norm=None, out=None):
    """numpy.fft.irfftn: real data of shape `s` (default: the last axis 2*(m-1)) from a half spectrum (complex64
    gives float32, complex128 float64). The input is never written."""
    return _transform(x, s, axes, norm, out, "c2r", "inverse")
