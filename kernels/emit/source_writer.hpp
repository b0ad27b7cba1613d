// A small structured writer for generated source: lines, indentation and blocks, no formatting into buffers.
#pragma once

#include <string>
#include <string_view>

namespace fft3d::emit {

class SourceWriter {
 public:
  // One line at the current indentation.
  void line(std::string_view text);
  // "text {" and one level deeper.
  void open(std::string_view text);
  // One level shallower and "}" + suffix.
  void close(std::string_view suffix = "");
  // Text taken verbatim (a device header).
  void raw(std::string_view text);
  void blank() { out_ += '\n'; }
  const std::string& text() const { return out_; }

 private:
  std::string out_;
  int depth_ = 0;
};

}  // namespace fft3d::emit
