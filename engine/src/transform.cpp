#include "fft3d/transform.hpp"

namespace fft3d {

std::string to_string(Direction direction) { return direction == Direction::forward ? "forward" : "inverse"; }
std::string to_string(Order order) { return order == Order::natural ? "natural" : "digit-reversed"; }
std::string to_string(Scaling scaling) { return scaling == Scaling::none ? "none" : "full"; }
std::string to_string(Precision precision) { return precision == Precision::fp64 ? "fp64" : "fp32"; }

}  // namespace fft3d
