#include "validate/cuda/forward_check.hpp"

#include <stdexcept>

namespace fft3d::validate {

ForwardCheck::ForwardCheck(const Extents& size, std::uint64_t seed, Precision precision, std::int64_t batch)
    : precision_(precision),
      volume_(size.elements()),
      reference_(static_cast<std::size_t>(size.elements() * batch)),
      result_(reference_.size()),
      got_(precision == Precision::fp32 ? reference_.size() : 0),
      in_(reference_.size() * complex_value_bytes(precision)),
      out_(in_.bytes()) {
  std::vector<std::complex<double>> input(reference_.size());
  fill_random(input, seed);
  if (precision == Precision::fp64) {
    cufft_reference(size, input, reference_, Direction::forward);
    in_.upload(input.data());
    return;
  }
  const std::vector<std::complex<float>> input32(input.begin(), input.end());
  input.assign(input32.begin(), input32.end());
  cufft_reference(size, input, reference_, Direction::forward);
  in_.upload(input32.data());
}

ErrorReport ForwardCheck::check(const std::function<void()>& transform, const Plan* digit_reversed_plan) {
  return check(out_, transform, digit_reversed_plan);
}

ErrorReport ForwardCheck::check(DeviceBuffer& output, const std::function<void()>& transform,
                                const Plan* digit_reversed_plan) {
  if (output.bytes() != out_.bytes()) throw std::invalid_argument("ForwardCheck::check: output of the wrong size");
  output.poison_nan();
  transform();
  if (precision_ == Precision::fp64) {
    output.download(result_.data());
  } else {
    output.download(got_.data());
    result_.assign(got_.begin(), got_.end());
  }
  if (digit_reversed_plan)
    for (std::size_t at = 0; at < result_.size(); at += static_cast<std::size_t>(volume_))
      to_natural_order(*digit_reversed_plan, std::span(result_).subspan(at, static_cast<std::size_t>(volume_)));
  return compare(result_, reference_);
}

DeviceBuffer ForwardCheck::input_copy() const {
  DeviceBuffer copy(in_.bytes());
  copy.copy_from(in_);
  return copy;
}

}  // namespace fft3d::validate
