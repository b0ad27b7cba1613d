"""The exceptions of fft3d: one per error class of the library (fft3d/errors.hpp), all derived from fft3d.Error.

Errors the library reports carry its message (what is wrong, with the numbers); errors found in Python before any
call (a dtype, a shape, an axis, a norm) are UsageError or DtypeError with a message of the same kind.
"""


class Error(Exception):
    """The base of every error fft3d raises."""


class UsageError(Error, ValueError):
    """Bad arguments: an unsupported size, a wrong shape or axis, a device mismatch, a kind the call cannot run."""


class DtypeError(UsageError, TypeError):
    """An array of a dtype the transform cannot take."""


class PlanError(Error, ValueError):
    """A plan file that does not parse or pass its checks (file:line:col in the message)."""


class LoweringError(Error):
    """A plan's kernel that cannot be lowered onto its architecture profile."""


class CompileError(Error):
    """NVRTC rejected a generated kernel (the message names the kept source and log)."""


class CudaError(Error):
    """A CUDA runtime call failed."""


class GpuUnavailable(Error):
    """No usable GPU or driver, or a library built without the CUDA toolkit."""


class OutOfMemory(Error, MemoryError):
    """A device or host allocation failed."""


class InternalError(Error):
    """Any other failure inside the library."""


class LibraryNotFound(Error, OSError):
    """libfft3d_c.so could not be loaded (the message says where it was looked for)."""


# fft3d_status (fft3d/fft3d_c.h) -> the exception raised for it.
STATUS_ERRORS = {
    1: UsageError,
    2: PlanError,
    3: LoweringError,
    4: CompileError,
    5: CudaError,
    6: GpuUnavailable,
    7: OutOfMemory,
    8: InternalError,
}
