#!/usr/bin/env bash
# Installs the python component under a temporary DESTDIR and runs the installed package on its own: the library
# and the tables are found beside it.
#   install_test.sh BUILD_DIR PYTHON INSTALL_DIR
set -euo pipefail
build="$1"; python="$2"; install_dir="$3"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
DESTDIR="$work" cmake --install "$build" --component python >/dev/null
package="$work$install_dir"
test -f "$package/fft3d/__init__.py" && test -f "$package/fft3d/libfft3d_c.so"
test -f "$package/fft3d/plans/hopper/256x256x256.yaml"
cd "$work"
env -u FFT3D_LIBRARY -u FFT3D_PLANS_DIR PYTHONPATH="$package" PYTHONDONTWRITEBYTECODE=1 "$python" - <<'PY'
import os
import numpy
import fft3d
x = numpy.random.default_rng(0).standard_normal((4, 8, 16)).astype(numpy.complex64)
error = numpy.abs(fft3d.fftn(x) - numpy.fft.fftn(x)).max() / numpy.abs(numpy.fft.fftn(x)).max()
assert error < 1e-5, error
assert os.environ["FFT3D_PLANS_DIR"].endswith(os.path.join("fft3d", "plans")), os.environ["FFT3D_PLANS_DIR"]
print("python install_test: ok", fft3d.__file__)
PY
