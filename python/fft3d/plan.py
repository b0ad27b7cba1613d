"""fft3d.Plan: one transform of the library (a C API handle), made once and run many times."""

import ctypes
import math
import threading

import numpy

from . import _library as lib
from . import errors
from ._arrays import COMPLEX_OF_REAL, REAL_OF_COMPLEX, as_array, wrap

# norm -> the engine's scaling (fft3d_scaling) of a forward and of an inverse run: numpy's norms, each applied by the
# transform's last kernel (no pass of its own, "ortho" included).
NORMS = {
    "backward": {"forward": lib.SCALING_NONE, "inverse": lib.SCALING_FULL},
    "forward": {"forward": lib.SCALING_FULL, "inverse": lib.SCALING_NONE},
    "ortho": {"forward": lib.SCALING_ORTHO, "inverse": lib.SCALING_ORTHO},
}
# Which directions each kind runs.
DIRECTIONS = {"c2c": ("forward", "inverse"), "r2c": ("forward",), "c2r": ("inverse",)}
MAX_AXES = 3


def norm_scaling(norm, direction):
    """The engine's scaling for numpy's `norm` (None: "backward")."""
    try:
        return NORMS["backward" if norm is None else norm][direction]
    except (KeyError, TypeError):
        raise errors.UsageError(f'fft3d: norm {norm!r}: expected "backward", "ortho" or "forward"') from None


def parse_device(device):
    """"cpu" -> None; an int, "cuda" or "cuda:N" -> the CUDA ordinal (-1: the current device)."""
    if device is None or device == "cpu":
        return None
    if isinstance(device, int) and not isinstance(device, bool):
        return device
    text = str(device)
    if text == "cuda":
        return lib.CURRENT_DEVICE
    if text.startswith("cuda:") and text[5:].isdigit():
        return int(text[5:])
    raise errors.UsageError(f'fft3d: device {device!r}: expected "cpu", "cuda", "cuda:N" or a CUDA ordinal')


def precision_of(dtype):
    """fp32 or fp64 for a float or complex NumPy dtype (or its name)."""
    try:
        dtype = numpy.dtype(dtype)
    except TypeError as error:
        raise errors.DtypeError(f"fft3d: dtype {dtype!r}: {error}") from None
    if dtype in COMPLEX_OF_REAL:
        return "fp32" if dtype == numpy.float32 else "fp64"
    if dtype in REAL_OF_COMPLEX:
        return "fp32" if dtype == numpy.complex64 else "fp64"
    raise errors.DtypeError(f"fft3d: dtype {dtype}: a plan's data are float32, float64, complex64 or complex128")


def _trim(shape):
    """A transform shape without its leading ones (a plan file's 1 x 1 x N is the shape (N,))."""
    shape = list(shape)
    while len(shape) > 1 and shape[0] == 1:
        shape.pop(0)
    return tuple(shape)


class Plan:
    """A transform of `shape` (up to three axes, C order: the last one contiguous; for "r2c" and "c2r" the real
    array's shape), data of `dtype`'s precision (complex64 or float32: fp32; complex128 or float64: fp64), `kind`
    "c2c", "r2c" or "c2r", and `batch` volumes one after another, on `device`: "cpu" (NumPy arrays, `threads` host
    threads, 0 for all) or "cuda", "cuda:N" or N (CuPy arrays, PyTorch CUDA tensors, on the caller's current stream).
    `batch_stride`: elements from one volume's start to the next (0: packed; C2C only), as cufftPlanMany's idist.

    A plan is made once (on the GPU: its kernels compiled, or read from the kernel cache) and run many times:
        plan = fft3d.Plan((256, 256, 256), numpy.complex64, device="cuda")
        y = plan.forward(x)              # x: a cupy or torch array of shape (256, 256, 256), complex64
        z = plan.inverse(y, out=x)       # 1/N on the inverse ("backward" norm)
    Runs of one plan from several threads take turns.
    """

    def __init__(self, shape, dtype, kind="c2c", batch=1, device="cpu", threads=0, batch_stride=0):
        shape = tuple(int(n) for n in (shape if hasattr(shape, "__len__") else (shape,)))
        if not 1 <= len(shape) <= MAX_AXES:
            raise errors.UsageError(f"fft3d: shape {shape}: a transform has 1 to {MAX_AXES} axes")
        if kind not in lib.KINDS:
            raise errors.UsageError(f'fft3d: kind {kind!r}: expected "c2c", "r2c" or "c2r"')
        desc = lib.Desc()
        desc.nz, desc.ny, desc.nx = (1,) * (MAX_AXES - len(shape)) + shape
        desc.kind = lib.KINDS[kind]
        desc.precision = lib.PRECISIONS[precision_of(dtype)]
        desc.batch = int(batch)
        desc.batch_stride = int(batch_stride)
        desc.placement = lib.OUT_OF_PLACE
        self._init(lambda handle: self._create(handle, desc, parse_device(device), threads))

    @classmethod
    def from_file(cls, path, device="cpu", threads=0):
        """The transform of a YAML plan file (its size, kind, precision and batch): located PlanError for a bad one."""
        plan = cls.__new__(cls)
        ordinal = parse_device(device)
        encoded = str(path).encode()
        if ordinal is None:
            plan._init(lambda handle: lib.library().fft3d_create_cpu_from_file(handle, encoded, int(threads)))
        else:
            plan._init(lambda handle: lib.library().fft3d_create_gpu_from_file(handle, encoded, ordinal))
        return plan

    @staticmethod
    def _create(handle, desc, device, threads):
        library = lib.library()
        if device is None:
            return library.fft3d_create_cpu(handle, ctypes.byref(desc), int(threads))
        return library.fft3d_create_gpu(handle, ctypes.byref(desc), device)

    def _init(self, create):
        self._handle = None
        self._lock = threading.Lock()
        handle = ctypes.c_void_p()
        lib.check(create(ctypes.byref(handle)))
        self._handle = handle
        library = lib.library()
        self._library = library
        desc = lib.Desc()
        lib.check(library.fft3d_get_desc(handle, ctypes.byref(desc)))
        backend, device = ctypes.c_int(), ctypes.c_int()
        lib.check(library.fft3d_get_backend(handle, ctypes.byref(backend), ctypes.byref(device)))
        self.kind = {code: name for name, code in lib.KINDS.items()}[desc.kind]
        self.precision = "fp64" if desc.precision == lib.PRECISIONS["fp64"] else "fp32"
        self.batch = desc.batch
        self.shape = _trim((desc.nz, desc.ny, desc.nx))
        self.device = "cpu" if backend.value == lib.BACKEND_CPU else device.value
        real = numpy.dtype(numpy.float64 if self.precision == "fp64" else numpy.float32)
        complex_ = COMPLEX_OF_REAL[real]
        spectrum = self.shape[:-1] + (self.shape[-1] // 2 + 1,)
        # The input and output of each kind: (shape, dtype).
        self.input = {"c2c": (self.shape, complex_), "r2c": (self.shape, real), "c2r": (spectrum, complex_)}[self.kind]
        self.output = {"c2c": (self.shape, complex_), "r2c": (spectrum, complex_), "c2r": (self.shape, real)}[self.kind]

    def __del__(self):
        try:
            self.close()
        except Exception:  # at interpreter exit the library or ctypes may be gone already
            pass

    def close(self):
        """Releases the library's transform (and its device memory) now rather than when the plan is collected."""
        handle, self._handle = getattr(self, "_handle", None), None
        if handle is not None and handle.value:
            self._library.fft3d_destroy(handle)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return (f"fft3d.Plan(shape={self.shape}, kind={self.kind!r}, precision={self.precision!r}, "
                f"batch={self.batch}, device={self.device!r})")

    @property
    def plan_text(self):
        """The plan the transform runs, as its YAML file."""
        text = ctypes.c_char_p()
        lib.check(self._library.fft3d_get_plan_text(self._live(), ctypes.byref(text)))
        return text.value.decode()

    @property
    def workspace_bytes(self):
        """Bytes beyond the data a run needs (device bytes on the GPU, allocated at the first run needing them)."""
        size = ctypes.c_size_t()
        lib.check(self._library.fft3d_get_workspace_size(self._live(), lib.OUT_OF_PLACE, ctypes.byref(size)))
        return size.value

    def _live(self):
        if self._handle is None:
            raise errors.UsageError("fft3d: this plan was closed")
        return self._handle

    def forward(self, x, out=None, norm="backward"):
        """The forward transform (c2c, r2c) of `x` into `out` (a new array when None); see execute."""
        return self.execute(x, out, "forward", norm)

    def inverse(self, x, out=None, norm="backward"):
        """The inverse transform (c2c, c2r), 1/N-scaled with the default "backward" norm; see execute."""
        return self.execute(x, out, "inverse", norm)

    def execute(self, x, out=None, direction="forward", norm="backward"):
        """Runs the plan on `x`: a C-contiguous array of the plan's input dtype whose last axes are the plan's input
        shape and whose leading axes hold `batch` volumes. Returns `out` (C-contiguous, of the output's shape and
        dtype, on x's device), or a new array of x's library. On the GPU it is queued on the caller's current stream.
        """
        if direction not in DIRECTIONS[self.kind]:
            raise errors.UsageError(f"fft3d: a {self.kind} plan runs {' and '.join(DIRECTIONS[self.kind])}, "
                                    f"not {direction}")
        scaling = norm_scaling(norm, direction)
        array = as_array(x)
        self._check_input(array)
        leading = array.shape[:len(array.shape) - len(self.input[0])]
        result = self._output_for(array, out, leading)
        self.run(array, result, direction, scaling)
        return out if out is not None else wrap(result, x)

    def _check_input(self, array):
        shape, dtype = self.input
        if (self.device == "cpu") == array.on_gpu:
            where = "on the GPU" if array.on_gpu else "in host memory"
            raise errors.UsageError(f"fft3d: the plan runs on {self.device!r} but the array is {where}")
        if array.on_gpu and self.device not in (array.device,):
            raise errors.UsageError(f"fft3d: the plan runs on device {self.device}, the array is on device "
                                    f"{array.device}")
        if array.dtype != dtype:
            raise errors.DtypeError(f"fft3d: the plan's input is {dtype}, the array is {array.dtype}")
        if array.shape[len(array.shape) - len(shape):] != shape or len(array.shape) < len(shape):
            raise errors.UsageError(f"fft3d: the plan's input volumes are {shape}, the array is {array.shape}")
        volumes = math.prod(array.shape[:len(array.shape) - len(shape)])
        if volumes != self.batch:
            raise errors.UsageError(f"fft3d: the plan runs {self.batch} volumes, the array holds {volumes}")
        if not array.contiguous:
            raise errors.UsageError("fft3d: a plan runs on C-contiguous arrays; copy it first "
                                    "(the fft3d.fftn functions do)")

    def _output_for(self, array, out, leading):
        shape, dtype = self.output
        shape = tuple(leading) + shape
        if out is None:
            return array.empty(shape, dtype)
        if hasattr(out, "is_conj") and (out.is_conj() or out.is_neg()):
            raise errors.UsageError("fft3d: out is a lazily conjugated or negated PyTorch view: pass its base tensor")
        result = as_array(out)
        if result.lib != array.lib or result.device != array.device:
            raise errors.UsageError(f"fft3d: out is a {result.lib} array on device {result.device}, the input a "
                                    f"{array.lib} array on device {array.device}")
        if result.lib == "numpy" and not result.obj.flags.writeable:
            raise errors.UsageError("fft3d: out is read-only")
        if result.shape != shape or result.dtype != dtype or not result.contiguous:
            raise errors.UsageError(f"fft3d: out must be a C-contiguous {dtype} array of shape {shape}; it is "
                                    f"{result.dtype} of shape {result.shape}"
                                    f"{'' if result.contiguous else ', not contiguous'}")
        return result

    def run(self, array, result, direction, scaling):
        """The library's execution on two checked Arrays (no checks here: the fast path of the functions)."""
        stream = array.stream()
        with self._lock:
            status = self._library.fft3d_execute(self._live(), array.pointer, result.pointer,
                                                 lib.FORWARD if direction == "forward" else lib.INVERSE, scaling,
                                                 stream)
        lib.check(status)
