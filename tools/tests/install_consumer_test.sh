#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds a separate project against it with find_package(fft3d).
#   install_consumer_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$1"; source="$2"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -x "$work/prefix/bin/fft3d" && test -f "$work/prefix/include/fft3d/plan_ir.hpp"
test -f "$work/prefix/share/fft3d/plans/tesla/128x128x128.yaml"
test -f "$work/prefix/include/fft3d/fft3d_c.h" && test -f "$work/prefix/lib/libfft3d_c.so"
# Only the public API is installed: the umbrella header and what it includes, nothing of the layers below.
test -f "$work/prefix/include/fft3d/fft3d.hpp"
for internal in kernel_spec.hpp tile_maps.hpp cuda_tile_maps.hpp cuda_check.hpp cuda_compiler.hpp cuda_source.hpp \
                parallel_for.hpp cache_files.hpp; do
  if find "$work/prefix/include" -name "$internal" | grep -q .; then
    echo "install_consumer_test: internal header $internal was installed" >&2
    exit 1
  fi
done
for header in "$work/prefix/include/fft3d/"*.hpp; do
  name=$(basename "$header")
  grep -q "\"fft3d/$name\"" "$work/prefix/include/fft3d/fft3d.hpp" || [ "$name" = fft3d.hpp ] || {
    echo "install_consumer_test: $name is installed but not in the umbrella header" >&2
    exit 1
  }
done
cmake -S "$source/tools/tests/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer"
"$work/consumer/consumer" "$work/prefix/share/fft3d/plans/tesla/128x128x128.yaml"
"$work/consumer/consumer_c"
# With the CUDA engine installed, a consumer links it too.
if [ -f "$work/prefix/lib/libfft3d_cuda.a" ]; then
  test -x "$work/consumer/consumer_cuda"
  "$work/consumer/consumer_cuda" "$work/prefix/share/fft3d/plans/hopper/256x256x256.yaml"
fi
# The installed CLI finds the installed tables.
"$work/prefix/bin/fft3d" table --arch fermi --size 128x512x512 | grep -q "fermi/128x512x512.yaml$"
echo "install_consumer_test: ok"
