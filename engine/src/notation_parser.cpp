#include "notation_parser.hpp"

#include <cctype>
#include <charconv>
#include <string>

namespace fft3d::detail {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t skip_space(std::string_view text, std::size_t pos, std::size_t end) {
  while (pos < end && is_space(text[pos])) ++pos;
  return pos;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// One field of a term, with its offset in the text.
struct Field {
  std::string_view text;
  std::size_t offset;
};

constexpr const char* field_names[] = {"count", "radix", "stride", "span", "twiddle"};

class TermParser {
 public:
  TermParser(std::string_view text, const Locator& locate, std::vector<Diagnostic>& errors)
      : text_(text), locate_(locate), errors_(errors) {}

  // The name before '(' of the term text_[begin, end): "X", "R2C", ...
  std::string_view name_of(std::size_t begin, std::size_t end) const {
    std::size_t pos = begin;
    while (pos < end && (std::isalnum(static_cast<unsigned char>(text_[pos])) || text_[pos] == '_' ||
                         text_[pos] == '-'))
      ++pos;
    return text_.substr(begin, pos - begin);
  }

  // Parses the term text_[begin, end) (already trimmed). Returns false after reporting an error.
  bool parse(std::size_t begin, std::size_t end, SubComputation& sub) {
    const std::string quoted = quote(begin, end);
    const std::string_view name = name_of(begin, end);
    if (name.empty()) return fail(begin, quoted + ": expected a sub-computation such as X(64, 4, 64, 256, tw)");
    if (name != "X" && name != "Y" && name != "Z")
      return fail(begin, quoted + ": unknown axis '" + std::string(name) +
                             "': expected X, Y or Z (or a real step, R2C or C2R)");
    sub.axis = name == "X" ? Axis::x : name == "Y" ? Axis::y : Axis::z;
    std::vector<Field> fields;
    if (!split_fields(begin + name.size(), end, quoted, "sub-computation", fields)) return false;
    if (fields.size() != 5)
      return fail(begin, quoted + ": expected 5 fields (count, radix, stride, span, tw|no-tw), got " +
                             std::to_string(fields.size()));

    bool ok = true;
    std::int64_t* targets[] = {&sub.count, &sub.radix, &sub.stride, &sub.span};
    for (int f = 0; f < 4; ++f) ok = parse_positive(fields[f], field_names[f], quoted, *targets[f]) && ok;
    const std::string_view word = fields[4].text;
    if (word == "tw") {
      sub.twiddle = true;
    } else if (word == "no-tw") {
      sub.twiddle = false;
    } else {
      ok = fail(fields[4].offset, quoted + ": unknown twiddle word '" + std::string(word) + "': expected tw or no-tw");
    }
    return ok;
  }

  // A real step, "R2C(X, 256)" or "C2R(X, 256)". Whether it may stand where it does is for the checks.
  bool parse_real(std::size_t begin, std::size_t end, RealStep& step) {
    const std::string quoted = quote(begin, end);
    const std::string_view name = name_of(begin, end);
    step.kind = name == "C2R" ? TransformKind::c2r : TransformKind::r2c;
    std::vector<Field> fields;
    if (!split_fields(begin + name.size(), end, quoted, "real step", fields)) return false;
    if (fields.size() != 2)
      return fail(begin, quoted + ": expected 2 fields (axis, length), got " + std::to_string(fields.size()));
    const std::string_view axis = fields[0].text;
    if (axis != "X" && axis != "Y" && axis != "Z")
      return fail(fields[0].offset, quoted + ": unknown axis '" + std::string(axis) + "': expected X, Y or Z");
    step.axis = axis == "X" ? Axis::x : axis == "Y" ? Axis::y : Axis::z;
    return parse_positive(fields[1], "length", quoted, step.length);
  }

  static bool is_real_step(std::string_view name) { return name == "R2C" || name == "C2R"; }

 private:
  std::string quote(std::size_t begin, std::size_t end) const {
    return "'" + std::string(text_.substr(begin, end - begin)) + "'";
  }

  // The comma-separated fields inside the parentheses after the name, which ends at `pos`.
  bool split_fields(std::size_t pos, std::size_t end, const std::string& quoted, const char* what,
                    std::vector<Field>& fields) {
    pos = skip_space(text_, pos, end);
    if (pos >= end || text_[pos] != '(') return fail(pos, quoted + ": expected '(' after the name");
    if (text_[end - 1] != ')') return fail(end - 1, quoted + ": expected ')' closing the " + std::string(what));
    std::size_t field_begin = pos + 1;
    for (std::size_t i = pos + 1; i < end; ++i) {
      if (text_[i] == ',' || i == end - 1) {
        const std::string_view field = trim(text_.substr(field_begin, i - field_begin));
        // Located at the field's first character, past the spaces after the comma.
        fields.push_back({field, field.empty() ? field_begin : static_cast<std::size_t>(field.data() - text_.data())});
        field_begin = i + 1;
      } else if (text_[i] == '(' || text_[i] == ')') {
        return fail(i, quoted + ": unexpected '" + std::string(1, text_[i]) + "' inside the field list");
      }
    }
    return true;
  }

  bool parse_positive(const Field& field, const char* what, const std::string& term, std::int64_t& value) {
    const std::string_view s = field.text;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || ec == std::errc::invalid_argument || end != s.data() + s.size())
      return fail(field.offset, term + ": " + what + " '" + std::string(s) + "' is not an integer");
    if (ec == std::errc::result_out_of_range)
      return fail(field.offset, term + ": " + what + " " + std::string(s) + " does not fit in 64 bits");
    if (value <= 0)
      return fail(field.offset, term + ": " + what + " " + std::string(s) + " must be a positive integer");
    return true;
  }

  bool fail(std::size_t offset, std::string message) {
    errors_.push_back({locate_(offset), std::move(message)});
    return false;
  }

  std::string_view text_;
  const Locator& locate_;
  std::vector<Diagnostic>& errors_;
};

}  // namespace

ParsedKernel parse_kernel(std::string_view text, std::size_t begin, std::size_t end, const Locator& locate,
                          std::vector<Diagnostic>& errors) {
  ParsedKernel kernel;
  kernel.where = locate(begin);
  TermParser terms(text, locate, errors);
  std::size_t pos = skip_space(text, begin, end);
  while (pos < end) {
    // A term runs to the comma after its closing parenthesis (or to the end).
    std::size_t close = pos;
    int depth = 0;
    while (close < end && !(depth == 0 && text[close] == ',')) {
      if (text[close] == '(') ++depth;
      if (text[close] == ')') --depth;
      ++close;
    }
    std::size_t term_end = close;
    while (term_end > pos && is_space(text[term_end - 1])) --term_end;
    if (TermParser::is_real_step(terms.name_of(pos, term_end))) {
      RealStep step;
      if (kernel.kernel.real) {
        errors.push_back({locate(pos), "a second real step in one kernel: a plan has one real step"});
      } else if (terms.parse_real(pos, term_end, step)) {
        kernel.kernel.real = step;
        kernel.kernel.real_position = kernel.kernel.subs.size();
        kernel.real_where = locate(pos);
      }
    } else {
      SubComputation sub;
      if (terms.parse(pos, term_end, sub)) {
        kernel.kernel.subs.push_back(sub);
        kernel.locations.push_back(locate(pos));
      }
    }
    if (close < end) {  // skip the comma; a comma must be followed by another term
      pos = skip_space(text, close + 1, end);
      if (pos >= end) errors.push_back({locate(close), "trailing ',': expected another sub-computation after it"});
    } else {
      pos = end;
    }
  }
  return kernel;
}

std::vector<ParsedKernel> parse_braces(std::string_view text, const Locator& locate,
                                       std::vector<Diagnostic>& errors) {
  std::vector<ParsedKernel> kernels;
  std::size_t pos = skip_space(text, 0, text.size());
  while (pos < text.size()) {
    if (text[pos] == ',') {  // kernels may be separated by commas as well as spaces
      pos = skip_space(text, pos + 1, text.size());
      continue;
    }
    if (text[pos] != '{') {
      errors.push_back({locate(pos), "expected '{' opening a kernel, got '" + std::string(1, text[pos]) + "'"});
      return kernels;
    }
    const std::size_t close = text.find_first_of("{}", pos + 1);
    if (close == std::string_view::npos || text[close] == '{') {
      errors.push_back({locate(pos), "'{' opening a kernel is not closed by '}'"});
      return kernels;
    }
    ParsedKernel kernel = parse_kernel(text, pos + 1, close, locate, errors);
    kernel.where = locate(pos);
    kernels.push_back(std::move(kernel));
    pos = skip_space(text, close + 1, text.size());
  }
  return kernels;
}

}  // namespace fft3d::detail
