#include "source_writer.hpp"

#include <stdexcept>

namespace fft3d::emit {

void SourceWriter::line(std::string_view text) {
  out_.append(static_cast<std::size_t>(depth_) * 2, ' ');
  out_.append(text);
  out_ += '\n';
}

void SourceWriter::open(std::string_view text) {
  line(std::string(text) + " {");
  ++depth_;
}

void SourceWriter::close(std::string_view suffix) {
  if (depth_ == 0) throw std::logic_error("SourceWriter::close without open");
  --depth_;
  line("}" + std::string(suffix));
}

void SourceWriter::raw(std::string_view text) {
  out_.append(text);
  if (!text.empty() && text.back() != '\n') out_ += '\n';
}

}  // namespace fft3d::emit
