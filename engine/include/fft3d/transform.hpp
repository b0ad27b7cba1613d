// What a transform is asked to do, shared by every backend.
#pragma once

#include <string>

namespace fft3d {

// Forward: sign e^(-2 pi i / n) (cuFFT and FFTW convention). Inverse: the conjugate.
enum class Direction { forward, inverse };
// Natural: frequency k at index k on every axis. DigitReversed: what the in-place DIF stages leave
// (docs/plan-language.md): frequency k1 + r1*k2 + r1*r2*k3 + ... at k1*(N/r1) + k2*(N/(r1*r2)) + ... + km. The
// order names the output's order in both directions; the input is always in natural order.
enum class Order { natural, digit_reversed };
// None: the plain sums. Full: multiply by 1/N (N = NX*NY*NZ), usually on the inverse.
enum class Scaling { none, full };
enum class Precision { fp64, fp32 };

struct TransformOptions {
  Direction direction = Direction::forward;
  Order order = Order::natural;
  Scaling scaling = Scaling::none;
};

std::string to_string(Direction direction);
std::string to_string(Order order);
std::string to_string(Scaling scaling);
std::string to_string(Precision precision);

}  // namespace fft3d
