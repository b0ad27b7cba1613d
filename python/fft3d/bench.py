"""fft3d against cupy.fft and torch.fft from Python, on the bench's twelve sizes, and the per-call overhead.

    python -m fft3d.bench [--sizes 256x256x256,...] [--repeat 20] [--libraries cupy,torch] [--csv out.csv]

For each size (NXxNYxNZ: an array of shape (NZ, NY, NX), complex64 on the current GPU): fft3d.fftn, fft3d's
Plan.forward into a given output, and each library's own fftn (cuFFT behind both), forward, out of place. Each
result is checked against the library's fftn first (relative L2 within fp32's bound) and times are printed only
when the check passed. GPU time: CUDA events around `repeat` back-to-back calls on the current stream, the median
of several such rounds, per call. The overhead rows time the host side of one call on a small volume (the GPU
keeps up): fft3d.fftn, Plan.forward, the bare ctypes call of fft3d_execute, and each library's fftn.
"""

import argparse
import csv
import statistics
import sys
import time

import numpy

import fft3d
from fft3d import _arrays, _library

# The bench's sizes (the paper's Figures 3-8 and 1024^3), as `fft3d bench` runs them.
SIZES = ("128x128x128,256x128x128,256x256x256,512x256x256,1024x256x256,512x512x512,128x512x512,256x512x512,"
         "128x512x1024,256x512x1024,128x1024x1024,1024x1024x1024")
ROUNDS = 5             # timed rounds per measurement; the median is reported
WARMUP_CALLS = 3
OVERHEAD_SHAPE = (16, 16, 16)
OVERHEAD_CALLS = 2000
CHECK_BOUND = 1e-5     # relative L2 between fft3d's and the library's fp32 results


def parse_size(text):
    nx, ny, nz = (int(n) for n in text.lower().split("x"))
    return (nz, ny, nx)


class CupyLibrary:
    name = "cupy"

    def __init__(self):
        import cupy
        self.cupy = cupy

    def array(self, shape):
        rng = self.cupy.random.default_rng(0)
        return (rng.standard_normal(shape, dtype=self.cupy.float32) +
                1j * rng.standard_normal(shape, dtype=self.cupy.float32)).astype(self.cupy.complex64)

    def empty_like(self, x):
        return self.cupy.empty_like(x)

    def fftn(self, x):
        return self.cupy.fft.fftn(x)

    def relative_l2(self, got, want):
        return float(self.cupy.linalg.norm(got - want) / self.cupy.linalg.norm(want))

    def gpu_ms(self, call, repeat):
        stream = self.cupy.cuda.get_current_stream()
        start, stop = self.cupy.cuda.Event(), self.cupy.cuda.Event()
        start.record(stream)
        for _ in range(repeat):
            call()
        stop.record(stream)
        stop.synchronize()
        return self.cupy.cuda.get_elapsed_time(start, stop) / repeat

    def synchronize(self):
        self.cupy.cuda.get_current_stream().synchronize()

    def release_memory(self):
        """Returns the pool's free blocks to the device, so the next size (or library) finds the memory."""
        self.synchronize()
        self.cupy.get_default_memory_pool().free_all_blocks()


class TorchLibrary:
    name = "torch"

    def __init__(self):
        import torch
        self.torch = torch

    def array(self, shape):
        generator = self.torch.Generator(device="cuda").manual_seed(0)
        return self.torch.randn(shape, dtype=self.torch.complex64, device="cuda", generator=generator)

    def empty_like(self, x):
        return self.torch.empty_like(x)

    def fftn(self, x):
        return self.torch.fft.fftn(x)

    def relative_l2(self, got, want):
        return float(self.torch.linalg.vector_norm(got - want) / self.torch.linalg.vector_norm(want))

    def gpu_ms(self, call, repeat):
        start = self.torch.cuda.Event(enable_timing=True)
        stop = self.torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(repeat):
            call()
        stop.record()
        stop.synchronize()
        return start.elapsed_time(stop) / repeat

    def synchronize(self):
        self.torch.cuda.current_stream().synchronize()

    def release_memory(self):
        """Returns the caching allocator's free blocks to the device, as CupyLibrary.release_memory does."""
        self.synchronize()
        self.torch.cuda.empty_cache()


LIBRARIES = {"cupy": CupyLibrary, "torch": TorchLibrary}


def median_ms(library, call, repeat):
    for _ in range(WARMUP_CALLS):
        call()
    return statistics.median(library.gpu_ms(call, repeat) for _ in range(ROUNDS))


def host_us(library, call):
    """Host microseconds per call of `call`, back to back (the GPU work excluded by synchronizing outside)."""
    for _ in range(WARMUP_CALLS):
        call()
    library.synchronize()
    rounds = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(OVERHEAD_CALLS):
            call()
        rounds.append((time.perf_counter() - start) / OVERHEAD_CALLS * 1e6)
        library.synchronize()
    return statistics.median(rounds)


def bench_size(library, shape, repeat):
    """{what: ms} for one size, or None with the check's error when fft3d's result is off."""
    x = library.array(shape)
    y = library.empty_like(x)
    plan = fft3d.Plan(shape, numpy.complex64, device="cuda")
    error = library.relative_l2(plan.forward(x, out=y), library.fftn(x))
    if not error <= CHECK_BOUND:
        return None, error
    times = {
        "fft3d.fftn": median_ms(library, lambda: fft3d.fftn(x), repeat),
        "fft3d.Plan.forward": median_ms(library, lambda: plan.forward(x, out=y), repeat),
        f"{library.name}.fft.fftn": median_ms(library, lambda: library.fftn(x), repeat),
    }
    plan.close()
    return times, error


def bare_call(library, plan, x, y):
    """The ctypes call of fft3d_execute alone: the floor of any Python call into the library."""
    lib = _library.library()
    handle = plan._handle
    array = _arrays.as_array(x)
    in_pointer, out_pointer, stream = array.pointer, _arrays.as_array(y).pointer, array.stream()
    return lambda: lib.fft3d_execute(handle, in_pointer, out_pointer, _library.FORWARD, _library.SCALING_NONE, stream)


def bench_overhead(library):
    x = library.array(OVERHEAD_SHAPE)
    y = library.empty_like(x)
    plan = fft3d.Plan(OVERHEAD_SHAPE, numpy.complex64, device="cuda")
    return {
        "fft3d.fftn": host_us(library, lambda: fft3d.fftn(x)),
        "fft3d.Plan.forward": host_us(library, lambda: plan.forward(x, out=y)),
        "fft3d_execute (ctypes)": host_us(library, bare_call(library, plan, x, y)),
        f"{library.name}.fft.fftn": host_us(library, lambda: library.fftn(x)),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=SIZES, help="comma-separated NXxNYxNZ list")
    parser.add_argument("--repeat", type=int, default=20, help="calls per timed round")
    parser.add_argument("--libraries", default="cupy,torch", help="comma-separated: cupy, torch")
    parser.add_argument("--csv", help="also write the rows to this CSV file")
    args = parser.parse_args(argv)
    rows = []
    for name in args.libraries.split(","):
        try:
            library = LIBRARIES[name]()
        except ImportError as error:
            print(f"{name}: skipped ({error})")
            continue
        for size in args.sizes.split(","):
            times, error = bench_size(library, parse_size(size), args.repeat)
            fft3d.clear_plan_cache()  # fftn's plans and their workspaces, then the library's pool: 1024^3 needs both
            library.release_memory()
            if times is None:
                print(f"{name} {size}: check FAILED (relative L2 {error:.2e} against {name}.fft.fftn); no times")
                continue
            reference = times[f"{name}.fft.fftn"]
            for what, ms in times.items():
                rows.append({"library": name, "size": size, "what": what, "ms": f"{ms:.4f}",
                             "speedup": f"{reference / ms:.3f}", "relative_l2": f"{error:.2e}"})
                print(f"{name:6} {size:16} {what:22} {ms:9.4f} ms  {reference / ms:6.3f}x {name}  (L2 {error:.1e})")
        for what, us in bench_overhead(library).items():
            rows.append({"library": name, "size": "x".join(map(str, OVERHEAD_SHAPE[::-1])), "what": what + " host",
                         "ms": f"{us / 1000:.6f}", "speedup": "", "relative_l2": ""})
            print(f"{name:6} per call {what:30} {us:8.2f} us host")
    if args.csv and rows:
        with open(args.csv, "w", newline="") as file:
            writer = csv.DictWriter(file, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
