// The precision of the kernel being emitted. The emitters print fp32 text; an fp64 kernel is the same text with
// its types and PTX suffixes in double (fp64_kernel_text) and its literals printed with 17 significant digits
// (literal, inside a PrecisionScope), so the fp32 text stays exactly what it was and fp64 follows every emitter.
#include <cctype>
#include <string_view>

#include "emit_parts.hpp"

namespace fft3d::emit {
namespace {

thread_local Precision emitted_precision = Precision::fp32;

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// fp32 words of the emitted text and their fp64 twins, matched as whole identifiers (or whole asm pieces).
struct Rewrite {
  std::string_view from;
  std::string_view to;
  bool whole_identifier;
};
constexpr Rewrite rewrites[] = {
    {"float2", "double2", true},
    {"make_float2", "make_double2", true},
    {"float", "double", true},
    {".f32", ".f64", false},
    {"\"=f\"", "\"=d\"", false},
    {"\"f\"(", "\"d\"(", false},
};

}  // namespace

PrecisionScope::PrecisionScope(Precision precision) : previous_(emitted_precision) {
  emitted_precision = precision;
}
PrecisionScope::~PrecisionScope() { emitted_precision = previous_; }
Precision current_precision() { return emitted_precision; }

std::string fp64_kernel_text(const std::string& text) {
  std::string result;
  result.reserve(text.size() + text.size() / 8);
  for (std::size_t i = 0; i < text.size();) {
    const Rewrite* match = nullptr;
    for (const Rewrite& rewrite : rewrites) {
      if (text.compare(i, rewrite.from.size(), rewrite.from) != 0) continue;
      const std::size_t end = i + rewrite.from.size();
      const bool whole = !rewrite.whole_identifier ||
                         ((i == 0 || !identifier_char(text[i - 1])) && (end == text.size() || !identifier_char(text[end])));
      if (whole) {
        match = &rewrite;
        break;
      }
    }
    if (match) {
      result += match->to;
      i += match->from.size();
    } else {
      result += text[i++];
    }
  }
  return result;
}

}  // namespace fft3d::emit
