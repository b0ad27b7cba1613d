// The paper's notation, "X(64, 4, 64, 256, tw), Y(16, 16, 1, 16, no-tw)" and "{...} {...}", parsed with the
// offset of every term so that errors can be located in the file the text came from.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

#include "fft3d/diagnostics.hpp"
#include "fft3d/plan_text.hpp"

namespace fft3d::detail {

// Maps an offset in the parsed text to a location in its file.
using Locator = std::function<SourceLocation(std::size_t offset)>;

ParsedKernel parse_kernel(std::string_view text, std::size_t begin, std::size_t end, const Locator& locate,
                          std::vector<Diagnostic>& errors);
std::vector<ParsedKernel> parse_braces(std::string_view text, const Locator& locate,
                                       std::vector<Diagnostic>& errors);

}  // namespace fft3d::detail
