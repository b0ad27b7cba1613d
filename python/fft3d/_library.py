"""Loading libfft3d_c.so and declaring its C API (fft3d/fft3d_c.h) to ctypes.

Where the library is looked for, first match wins:
  1. $FFT3D_LIBRARY, the path of libfft3d_c.so (e.g. build/libfft3d_c.so in a build tree);
  2. beside this package (what `cmake --install build --component python` installs);
  3. the dynamic loader's path (LD_LIBRARY_PATH, or a `cmake --install` prefix's lib/ that the loader knows).
Where the package holds a plans/ folder (the component install copies the tuning tables there) and
$FFT3D_PLANS_DIR is not set, it is set to that folder so that the library finds its tables.
The library is loaded at the first transform, so `import fft3d` works without it.
"""

import ctypes
import os
import threading

from . import errors

LIBRARY_NAME = "libfft3d_c.so"
LIBRARY_ENV = "FFT3D_LIBRARY"
PLANS_ENV = "FFT3D_PLANS_DIR"
API_VERSION = 2  # FFT3D_C_API_VERSION of the header this module declares

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class Desc(ctypes.Structure):
    """fft3d_desc."""

    _fields_ = [
        ("nx", ctypes.c_int64),
        ("ny", ctypes.c_int64),
        ("nz", ctypes.c_int64),
        ("kind", ctypes.c_int),
        ("precision", ctypes.c_int),
        ("batch", ctypes.c_int64),
        ("batch_stride", ctypes.c_int64),
        ("placement", ctypes.c_int),
        ("output_batch_stride", ctypes.c_int64),  # 0: as batch_stride (Plan keeps 0)
    ]


# The enumerators of fft3d_c.h.
KINDS = {"c2c": 0, "r2c": 1, "c2r": 2}
PRECISIONS = {"fp32": 0, "fp64": 1}
FORWARD, INVERSE = 0, 1
SCALING_NONE, SCALING_FULL, SCALING_ORTHO = 0, 1, 2
BACKEND_GPU, BACKEND_CPU = 0, 1
OUT_OF_PLACE = 0
CURRENT_DEVICE = -1

_handle = ctypes.c_void_p
_status = ctypes.c_int
_PROTOTYPES = {
    "fft3d_api_version": (ctypes.c_int, []),
    "fft3d_create_gpu": (_status, [ctypes.POINTER(_handle), ctypes.POINTER(Desc), ctypes.c_int]),
    "fft3d_create_cpu": (_status, [ctypes.POINTER(_handle), ctypes.POINTER(Desc), ctypes.c_int]),
    "fft3d_create_gpu_from_file": (_status, [ctypes.POINTER(_handle), ctypes.c_char_p, ctypes.c_int]),
    "fft3d_create_cpu_from_file": (_status, [ctypes.POINTER(_handle), ctypes.c_char_p, ctypes.c_int]),
    "fft3d_destroy": (_status, [_handle]),
    "fft3d_get_desc": (_status, [_handle, ctypes.POINTER(Desc)]),
    "fft3d_get_backend": (_status, [_handle, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]),
    "fft3d_get_plan_text": (_status, [_handle, ctypes.POINTER(ctypes.c_char_p)]),
    "fft3d_get_workspace_size": (_status, [_handle, ctypes.c_int, ctypes.POINTER(ctypes.c_size_t)]),
    "fft3d_execute": (_status, [_handle, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p]),
    "fft3d_last_error": (ctypes.c_char_p, []),
    "fft3d_status_name": (ctypes.c_char_p, [ctypes.c_int]),
}

_lock = threading.Lock()
_library = None


def _candidates():
    explicit = os.environ.get(LIBRARY_ENV)
    if explicit:
        return [explicit]
    return [os.path.join(_PACKAGE_DIR, LIBRARY_NAME), LIBRARY_NAME]


def _load():
    tried = []
    for candidate in _candidates():
        if os.sep in candidate and not os.path.exists(candidate):
            tried.append(candidate + " (no such file)")
            continue
        try:
            return ctypes.CDLL(candidate)
        except OSError as error:
            tried.append(f"{candidate} ({error})")
    raise errors.LibraryNotFound(
        "fft3d: cannot load the C library; tried " + "; ".join(tried) +
        f". Build it (cmake --build build --target fft3d_c) and set {LIBRARY_ENV} to build/{LIBRARY_NAME}, or install"
        " the package with `cmake --install build --component python`")


def _declare(library):
    for name, (result, arguments) in _PROTOTYPES.items():
        function = getattr(library, name)
        function.restype = result
        function.argtypes = arguments
    version = library.fft3d_api_version()
    if version != API_VERSION:
        raise errors.LibraryNotFound(
            f"fft3d: {library._name} has C API version {version}; this package speaks version {API_VERSION}")


def library():
    """The loaded and declared libfft3d_c.so (loaded once)."""
    global _library
    if _library is None:
        with _lock:
            if _library is None:
                plans = os.path.join(_PACKAGE_DIR, "plans")
                if os.path.isdir(plans):
                    os.environ.setdefault(PLANS_ENV, plans)
                loaded = _load()
                _declare(loaded)
                _library = loaded
    return _library


def check(status):
    """Raises the exception of a failed call's status, with the library's message for this thread."""
    if status == 0:
        return
    lib = library()
    message = (lib.fft3d_last_error() or b"").decode("utf-8", "replace")
    name = lib.fft3d_status_name(status).decode()
    raise errors.STATUS_ERRORS.get(status, errors.InternalError)(message or name)
