#!/usr/bin/env bash
# Installs what fft3d needs to build and test, where it is missing (Debian/Ubuntu; run as root or with sudo).
# The CUDA toolkit (NVRTC, cuFFT, cudart) is optional here: without it fft3d builds the CPU backend only.
set -euo pipefail

packages=(cmake g++ make libyaml-cpp-dev libboost-program-options-dev libfftw3-dev libgtest-dev python3-numpy)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install_deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
