#pragma once
// JSON files whose errors say where: a syntax error names file:line:column, and a value that
// parses but is wrong (a string where a number belongs, a missing key, 1e999, an out-of-range
// integer) names the line:column of that value too. Shared by the policy, frontier.json, mask,
// run config and log readers.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

namespace prunescope {

// Deepest nesting of arrays/objects a JSON document may have. Our files nest a few levels; the
// limit keeps recursive code (nlohmann's dump and comparison, error reporting) on a bounded stack.
constexpr int kMaxJsonDepth = 64;

// Line and column (1-based) of byte offset pos (0-based) in text.
std::pair<int, int> lineColumn(const std::string& text, std::size_t pos);

// Parses text; on a syntax error or nesting deeper than kMaxJsonDepth throws
// InputError(file, line, column, prefix + "invalid JSON: …").
nlohmann::json parseJsonDocument(const std::string& text, const std::string& file,
                                 const std::string& prefix = "");

// Byte offset in text (valid JSON) of the value at ptr; npos if there is no such value.
std::size_t jsonValueOffset(const std::string& text, const nlohmann::json::json_pointer& ptr);

// A parsed document that can locate its values. Values are found by address, so pass references
// into root() (not copies). firstLine shifts line numbers (a log line that is line 7 of its file).
// With Binary::Allowed (model and policy readers), the text may end in a binary section after a
// NUL byte (core/util/BinarySection.h): only the JSON before it is parsed, and the section's
// length and checksum are checked against the header's "binarySection" before anything is read.
class JsonDocument {
  public:
    enum class Binary { Refused, Allowed };
    JsonDocument(std::string text, std::string file, std::string prefix = "", int firstLine = 1,
                 Binary binary = Binary::Refused);
    JsonDocument(const JsonDocument&) = delete;
    JsonDocument& operator=(const JsonDocument&) = delete;

    const nlohmann::json& root() const { return root_; }
    const std::string& file() const { return file_; }
    // The bytes after the NUL (empty without a binary section); checked against the header. A view
    // into the file's text, which the document keeps: the section is never copied.
    std::string_view binary() const { return binary_; }
    const std::string& prefix() const { return prefix_; }

    // JSON pointer of a value of root() ("" for the root; the root if not found).
    nlohmann::json::json_pointer pointer(const nlohmann::json& value) const;
    // Line and column of the value in the text.
    std::pair<int, int> location(const nlohmann::json& value) const;
    // InputError(file, line, column, prefix + message) at the value.
    [[noreturn]] void fail(const nlohmann::json& value, const std::string& message) const;

    // Typed access; every failure names the value's place and pointer. `member` fails if obj is
    // not an object or lacks key.
    const nlohmann::json& member(const nlohmann::json& obj, const std::string& key) const;
    const nlohmann::json* optionalMember(const nlohmann::json& obj,
                                         const std::string& key) const; // null if absent
    std::string string(const nlohmann::json& v) const;
    bool boolean(const nlohmann::json& v) const;
    // A finite number in [lo, hi].
    double number(const nlohmann::json& v, double lo = -std::numeric_limits<double>::max(),
                  double hi = std::numeric_limits<double>::max()) const;
    // An integer in [lo, hi] (a JSON number without fraction; 1e3 is not an integer).
    std::int64_t integer(const nlohmann::json& v,
                         std::int64_t lo = std::numeric_limits<std::int64_t>::min(),
                         std::int64_t hi = std::numeric_limits<std::int64_t>::max()) const;
    int int32(const nlohmann::json& v, int lo = std::numeric_limits<int>::min(),
              int hi = std::numeric_limits<int>::max()) const;
    std::uint64_t uint64(const nlohmann::json& v) const;

  private:
    std::string text_, file_, prefix_; // text_: the JSON (before the NUL)
    std::string whole_;                // the whole file when it has a binary section
    std::string_view binary_;          // into whole_
    int firstLine_ = 1;
    nlohmann::json root_;
};

} // namespace prunescope
