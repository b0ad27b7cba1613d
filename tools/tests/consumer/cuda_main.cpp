// With the installed GPU transform, through the one public header: builds a GpuTransform for a shipped plan, which
// either runs (a GPU here: impulse -> all ones) or says clearly, as a typed error, that no GPU is available.
#include <fft3d/fft3d.hpp>

#include <cuda_runtime_api.h>

#include <cmath>
#include <complex>
#include <iostream>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  try {
    fft3d::GpuTransform fft = fft3d::GpuTransform::from_file(argv[1]);
    const auto elements = static_cast<std::size_t>(fft.plan().size.elements());
    std::vector<std::complex<float>> host(elements);
    host[0] = 1.0f;
    void* memory = nullptr;
    if (cudaMalloc(&memory, elements * sizeof(host[0])) != cudaSuccess) return 1;
    auto* data = static_cast<std::complex<float>*>(memory);
    cudaMemcpy(data, host.data(), elements * sizeof(host[0]), cudaMemcpyHostToDevice);
    fft.forward(data, data);
    cudaMemcpy(host.data(), data, elements * sizeof(host[0]), cudaMemcpyDeviceToHost);
    cudaFree(data);
    float worst = 0;
    for (const auto& v : host) worst = std::max(worst, std::abs(v - 1.0f));
    std::cout << "consumer_cuda: impulse error " << worst << "\n";
    return worst < 1e-5f ? 0 : 1;
  } catch (const fft3d::GpuUnavailable& e) {
    std::cout << "consumer_cuda: " << e.what() << "\n";
  }
  return 0;
}
