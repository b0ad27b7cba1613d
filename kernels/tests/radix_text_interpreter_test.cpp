// The printed dft_rN functions themselves, run on the CPU: a small interpreter of the statements
// write_radix_function prints (float2 declarations, assignments of fft3d_add/sub/mul/mul_minus_i and make_float2 of
// sums of literal products) executes each function's text in double, which must be the DFT to within the
// precision of its 9-digit literals. What the GPU compiles is this text.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <complex>
#include <map>
#include <numbers>
#include <random>
#include <stdexcept>

#include "emit/emit_parts.hpp"
#include "fft3d/lengths.hpp"
#include "tile_interpreter.hpp"

namespace fft3d::testing {
namespace {

using Complex = std::complex<double>;

// 9 significant digits: each constant within 5e-9 relative, a few of them on any output's path.
constexpr double printed_text_error_bound = 1e-7;

class RadixTextInterpreter {
 public:
  explicit RadixTextInterpreter(std::vector<Complex>& v) : v_(v) {}

  // Runs the body of the function in `text` (between its first '{' and last '}').
  void run(const std::string& text) {
    const std::size_t open = text.find('{'), close = text.rfind('}');
    tokenize(text.substr(open + 1, close - open - 1));
    while (at_ < tokens_.size()) statement();
  }

 private:
  void tokenize(const std::string& body) {
    for (std::size_t i = 0; i < body.size();) {
      const char c = body[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        std::size_t j = i;
        while (j < body.size() && (std::isalnum(static_cast<unsigned char>(body[j])) || body[j] == '_')) ++j;
        tokens_.push_back(body.substr(i, j - i));
        i = j;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        std::size_t j = i;
        while (j < body.size() && (std::isdigit(static_cast<unsigned char>(body[j])) || body[j] == '.' ||
                                   body[j] == 'e' || ((body[j] == '-' || body[j] == '+') && body[j - 1] == 'e')))
          ++j;
        if (j < body.size() && body[j] == 'f') ++j;
        tokens_.push_back(body.substr(i, j - i));
        i = j;
      } else {
        tokens_.push_back(std::string(1, c));
        ++i;
      }
    }
  }

  const std::string& peek() const {
    static const std::string end;
    return at_ < tokens_.size() ? tokens_[at_] : end;
  }
  std::string next() {
    if (at_ >= tokens_.size()) throw std::runtime_error("unexpected end of the function");
    return tokens_[at_++];
  }
  void expect(const std::string& token) {
    const std::string got = next();
    if (got != token) throw std::runtime_error("expected '" + token + "', got '" + got + "'");
  }

  void statement() {
    if (peek() == "float2") {  // a declaration
      while (next() != ";") {
      }
      return;
    }
    Complex& target = reference();
    expect("=");
    const Complex value = vector();
    expect(";");
    target = value;
  }

  // v[i] or a named temporary.
  Complex& reference() {
    const std::string name = next();
    if (name != "v") return variables_[name];
    expect("[");
    const std::size_t index = std::stoul(next());
    expect("]");
    return v_.at(index);
  }

  Complex vector() {
    const std::string& head = peek();
    if (head == "fft3d_add" || head == "fft3d_sub" || head == "fft3d_mul") {
      const std::string op = next();
      expect("(");
      const Complex a = vector();
      expect(",");
      const Complex b = vector();
      expect(")");
      return op == "fft3d_add" ? a + b : op == "fft3d_sub" ? a - b : a * b;
    }
    if (head == "fft3d_mul_minus_i") {
      next();
      expect("(");
      const Complex a = vector();
      expect(")");
      return {a.imag(), -a.real()};
    }
    if (head == "make_float2") {
      next();
      expect("(");
      const double x = scalar();
      expect(",");
      const double y = scalar();
      expect(")");
      return {x, y};
    }
    return reference();
  }

  double scalar() {
    double sum = term();
    while (peek() == "+" || peek() == "-") sum += next() == "+" ? term() : -term();
    return sum;
  }
  double term() {
    if (peek() == "-") {
      next();
      return -term();
    }
    double product = factor();
    while (peek() == "*") {
      next();
      product *= factor();
    }
    return product;
  }
  double factor() {
    if (std::isdigit(static_cast<unsigned char>(peek().front()))) return std::stod(next());
    const Complex value = reference();
    expect(".");
    const std::string component = next();
    if (component != "x" && component != "y") throw std::runtime_error("component '" + component + "'");
    return component == "x" ? value.real() : value.imag();
  }

  std::vector<Complex>& v_;
  std::map<std::string, Complex> variables_;
  std::vector<std::string> tokens_;
  std::size_t at_ = 0;
};

// The DFT of x by definition (the tile interpreter's small_dft).
std::vector<Complex> naive_dft(std::vector<Complex> x) {
  small_dft(x);
  return x;
}

double text_error(const std::string& text, std::int64_t radix, std::mt19937_64& generator) {
  std::normal_distribution<double> normal;
  std::vector<Complex> x(radix);
  for (Complex& value : x) value = {normal(generator), normal(generator)};
  std::vector<Complex> v = x;
  RadixTextInterpreter(v).run(text);
  const std::vector<Complex> want = naive_dft(x);
  double error = 0, norm = 0;
  for (std::int64_t m = 0; m < radix; ++m) error += std::norm(v[m] - want[m]), norm += std::norm(want[m]);
  return std::sqrt(error / norm);
}

std::string radix_text(std::int64_t radix) {
  emit::SourceWriter out;
  emit::write_radix_function(out, radix);
  return out.text();
}

TEST(RadixText, EveryPrintedFunctionComputesTheDft) {
  std::mt19937_64 generator(3);
  for (std::int64_t radix = 2; radix <= 64; ++radix) {
    if (!is_supported_length(radix)) continue;
    const std::string text = radix_text(radix);
    double error = 0;
    ASSERT_NO_THROW(error = text_error(text, radix, generator)) << text;
    EXPECT_LT(error, printed_text_error_bound) << "radix " << radix << "\n" << text;
  }
}

// The interpreter sees a wrong function: radix 4 without its final swap, radix 3 with a sign flipped.
// fp64 kernels print the same functions with 17-digit literals: the DFT to within double rounding.
TEST(RadixText, EveryFp64FunctionComputesTheDftToDoublePrecision) {
  constexpr double fp64_text_error_bound = 1e-15;
  std::mt19937_64 generator(4);
  const emit::PrecisionScope fp64(Precision::fp64);
  for (std::int64_t radix = 2; radix <= 64; ++radix) {
    if (!is_supported_length(radix)) continue;
    const std::string text = radix_text(radix);
    double error = 0;
    ASSERT_NO_THROW(error = text_error(text, radix, generator)) << text;
    EXPECT_LT(error, fp64_text_error_bound) << "radix " << radix << "\n" << text;
  }
}

TEST(RadixText, TheInterpreterCatchesAWrongFunction) {
  std::mt19937_64 generator(5);
  std::string four = radix_text(4);
  const std::string swap = "d = v[1]; v[1] = v[2]; v[2] = d;";
  ASSERT_NE(four.find(swap), std::string::npos) << four;
  four.erase(four.find(swap), swap.size());
  EXPECT_GT(text_error(four, 4, generator), 0.1);
  std::string three = radix_text(3);
  const std::string plus = "cs.x + sn.y";
  ASSERT_NE(three.find(plus), std::string::npos) << three;
  three.replace(three.find(plus), plus.size(), "cs.x - sn.y");
  EXPECT_GT(text_error(three, 3, generator), 0.1);
}

}  // namespace
}  // namespace fft3d::testing
