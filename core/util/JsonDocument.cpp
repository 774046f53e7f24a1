// JSON documents with file:line:column errors for syntax and for values.
#include "core/util/JsonDocument.h"

#include "core/util/BinarySection.h"

#include "core/util/Error.h"

#include <cmath>
#include <vector>

namespace prunescope {

using nlohmann::json;

std::pair<int, int> lineColumn(const std::string& text, std::size_t pos) {
    int line = 1, col = 1;
    for (std::size_t i = 0; i < pos && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return {line, col};
}

namespace {

bool isWs(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Offset of the first bracket nested deeper than kMaxJsonDepth (outside strings), or npos.
std::size_t tooDeep(const std::string& text) {
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth) return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return std::string::npos;
}

// A forward scanner over valid JSON text (it never needs to report errors: nlohmann parsed it).
class Scanner {
  public:
    explicit Scanner(const std::string& t) : t_(t) {}
    std::size_t pos = 0;
    void ws() {
        while (pos < t_.size() && isWs(t_[pos]))
            ++pos;
    }
    char peek() const { return pos < t_.size() ? t_[pos] : '\0'; }
    // The raw string token at pos ("…" with escapes), pos moved past it.
    std::string rawString() {
        const std::size_t b = pos++;
        while (pos < t_.size() && t_[pos] != '"')
            pos += t_[pos] == '\\' ? 2 : 1;
        ++pos;
        return t_.substr(b, std::min(pos, t_.size()) - b);
    }
    // Skips one value iteratively (strings may hold brackets).
    void skipValue() {
        ws();
        int depth = 0;
        do {
            const char c = peek();
            if (c == '"') {
                rawString();
            } else if (c == '[' || c == '{') {
                ++depth;
                ++pos;
            } else if (c == ']' || c == '}') {
                --depth;
                ++pos;
            } else if (c == ',' || c == ':' || isWs(c)) {
                ++pos;
            } else {
                while (pos < t_.size() && !isWs(t_[pos]) && t_[pos] != ',' && t_[pos] != ']' &&
                       t_[pos] != '}')
                    ++pos;
            }
            if (pos >= t_.size()) return;
        } while (depth > 0);
    }

  private:
    const std::string& t_;
};

std::string decodeKey(const std::string& raw) {
    try {
        return json::parse(raw).get<std::string>();
    } catch (const std::exception&) {
        return raw;
    }
}

// Depth-first search for the value at address `target`; path receives the pointer tokens.
bool findPath(const json& node, const json* target, std::vector<std::string>& path, int depth) {
    if (&node == target) return true;
    if (depth > kMaxJsonDepth) return false;
    if (node.is_object()) {
        for (auto it = node.begin(); it != node.end(); ++it) {
            path.push_back(it.key());
            if (findPath(it.value(), target, path, depth + 1)) return true;
            path.pop_back();
        }
    } else if (node.is_array()) {
        for (std::size_t i = 0; i < node.size(); ++i) {
            path.push_back(std::to_string(i));
            if (findPath(node[i], target, path, depth + 1)) return true;
            path.pop_back();
        }
    }
    return false;
}

std::string typeName(const json& v) {
    if (v.is_number_integer()) return "an integer";
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_boolean()) return "a boolean";
    if (v.is_null()) return "null";
    if (v.is_array()) return "an array";
    return "an object";
}

} // namespace

nlohmann::json parseJsonDocument(const std::string& text, const std::string& file,
                                 const std::string& prefix) {
    // nlohmann's parser takes a NUL byte for the end of the input and would ignore what follows.
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {
        const auto [line, col] = lineColumn(text, nul);
        throw InputError(file, line, col,
                         prefix + "invalid JSON: a NUL byte (binary data where JSON text belongs)");
    }
    if (const std::size_t deep = tooDeep(text); deep != std::string::npos) {
        const auto [line, col] = lineColumn(text, deep);
        throw InputError(file, line, col,
                         prefix + "invalid JSON: nested deeper than " +
                             std::to_string(kMaxJsonDepth) + " levels");
    }
    try {
        return json::parse(text);
    } catch (const json::exception& e) {
        std::string msg = e.what();
        std::size_t at = 0;
        if (const auto* pe = dynamic_cast<const json::parse_error*>(&e)) {
            at = pe->byte > 0 ? pe->byte - 1 : 0;
            if (auto c = msg.find(": "); c != std::string::npos) msg = msg.substr(c + 2);
        } else {
            // "number overflow parsing '1e999'" carries no position: find the number's text.
            if (auto b = msg.find("] "); b != std::string::npos) msg = msg.substr(b + 2);
            const auto q = msg.find('\'');
            const auto q2 = q == std::string::npos ? q : msg.find('\'', q + 1);
            if (q2 != std::string::npos) {
                const auto found = text.find(msg.substr(q + 1, q2 - q - 1));
                if (found != std::string::npos) at = found;
            }
        }
        const auto [line, col] = lineColumn(text, at);
        throw InputError(file, line, col, prefix + "invalid JSON: " + msg);
    }
}

std::size_t jsonValueOffset(const std::string& text, const json::json_pointer& ptr) {
    std::vector<std::string> tokens;
    for (json::json_pointer p = ptr; !p.empty(); p = p.parent_pointer())
        tokens.insert(tokens.begin(), p.back());
    Scanner s(text);
    s.ws();
    for (const std::string& tok : tokens) {
        const char c = s.peek();
        if (c == '{') {
            ++s.pos;
            std::size_t found = std::string::npos;
            while (true) {
                s.ws();
                if (s.peek() != '"') break; // '}'
                const std::string key = decodeKey(s.rawString());
                s.ws();
                ++s.pos; // ':'
                s.ws();
                if (key == tok) found = s.pos; // the last duplicate wins, as in nlohmann
                s.skipValue();
                s.ws();
                if (s.peek() != ',') break;
                ++s.pos;
            }
            if (found == std::string::npos) return std::string::npos;
            s.pos = found;
        } else if (c == '[') {
            ++s.pos;
            std::size_t idx = 0;
            try {
                idx = std::stoul(tok);
            } catch (const std::exception&) {
                return std::string::npos;
            }
            for (std::size_t i = 0; i < idx; ++i) {
                s.skipValue();
                s.ws();
                if (s.peek() != ',') return std::string::npos;
                ++s.pos;
            }
            s.ws();
            if (s.peek() == ']') return std::string::npos;
        } else {
            return std::string::npos;
        }
    }
    return s.pos;
}

JsonDocument::JsonDocument(std::string text, std::string file, std::string prefix, int firstLine,
                           Binary binary)
    : text_(std::move(text)), file_(std::move(file)), prefix_(std::move(prefix)),
      firstLine_(firstLine) {
    const std::size_t nul = binary == Binary::Allowed ? text_.find('\0') : std::string::npos;
    const bool hasBinary = nul != std::string::npos;
    if (hasBinary) {
        whole_ = std::move(text_);
        text_ = whole_.substr(0, nul);
        binary_ = std::string_view(whole_).substr(nul + 1);
    }
    try {
        root_ = parseJsonDocument(text_, file_, prefix_);
    } catch (const InputError& e) {
        if (firstLine_ == 1) throw;
        std::string what = e.what();
        const std::string head = (file_.empty() ? std::string("<input>") : file_) + ":" +
                                 std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": ";
        if (what.rfind(head, 0) == 0) what = what.substr(head.size());
        throw InputError(file_, e.line() + firstLine_ - 1, e.column(), what);
    }
    if (binary == Binary::Allowed) checkBinarySection(*this, hasBinary);
}

json::json_pointer JsonDocument::pointer(const json& value) const {
    std::vector<std::string> path;
    json::json_pointer p;
    if (!findPath(root_, &value, path, 0)) return p;
    for (const auto& t : path)
        p /= t;
    return p;
}

std::pair<int, int> JsonDocument::location(const json& value) const {
    const std::size_t off = jsonValueOffset(text_, pointer(value));
    auto [line, col] = lineColumn(text_, off == std::string::npos ? 0 : off);
    return {line + firstLine_ - 1, col};
}

void JsonDocument::fail(const json& value, const std::string& message) const {
    const auto [line, col] = location(value);
    throw InputError(file_, line, col, prefix_ + message);
}

namespace {
std::string where(const JsonDocument& d, const json& v) {
    const std::string p = d.pointer(v).to_string();
    return p.empty() ? "the document" : "'" + p + "'";
}
} // namespace

const json& JsonDocument::member(const json& obj, const std::string& key) const {
    if (!obj.is_object()) fail(obj, where(*this, obj) + " must be an object");
    auto it = obj.find(key);
    if (it == obj.end()) {
        const std::string p = pointer(obj).to_string();
        fail(obj, "missing field '" + p + "/" + key + "'");
    }
    return *it;
}

const json* JsonDocument::optionalMember(const json& obj, const std::string& key) const {
    if (!obj.is_object()) fail(obj, where(*this, obj) + " must be an object");
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

std::string JsonDocument::string(const json& v) const {
    if (!v.is_string()) fail(v, where(*this, v) + " must be a string, not " + typeName(v));
    return v.get<std::string>();
}

bool JsonDocument::boolean(const json& v) const {
    if (!v.is_boolean()) fail(v, where(*this, v) + " must be true or false, not " + typeName(v));
    return v.get<bool>();
}

double JsonDocument::number(const json& v, double lo, double hi) const {
    if (!v.is_number()) fail(v, where(*this, v) + " must be a number, not " + typeName(v));
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail(v, where(*this, v) + " must be a finite number");
    if (x < lo || x > hi) {
        std::string range = "[" + json(lo).dump() + ", " + json(hi).dump() + "]";
        fail(v, where(*this, v) + " = " + v.dump() + " is outside " + range);
    }
    return x;
}

std::int64_t JsonDocument::integer(const json& v, std::int64_t lo, std::int64_t hi) const {
    if (!v.is_number_integer())
        fail(v, where(*this, v) + " must be an integer, not " + typeName(v));
    const bool tooBig = v.is_number_unsigned() &&
                        v.get<std::uint64_t>() >
                            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    const std::int64_t x = tooBig ? 0 : v.get<std::int64_t>();
    if (tooBig || x < lo || x > hi)
        fail(v, where(*this, v) + " = " + v.dump() + " is outside [" + std::to_string(lo) + ", " +
                    std::to_string(hi) + "]");
    return x;
}

int JsonDocument::int32(const json& v, int lo, int hi) const {
    return static_cast<int>(integer(v, lo, hi));
}

std::uint64_t JsonDocument::uint64(const json& v) const {
    if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() < 0))
        fail(v, where(*this, v) + " must be a non-negative integer");
    return v.get<std::uint64_t>();
}

} // namespace prunescope
