#include "core/util/JsonDocument.h"

#include "core/util/Error.h"

namespace prunescope {

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

nlohmann::json parseJsonDocument(const std::string& text, const std::string& file, const std::string& prefix) {
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        const auto [line, col] = lineColumn(text, e.byte > 0 ? e.byte - 1 : 0);
        std::string msg = e.what();
        if (auto c = msg.find(": "); c != std::string::npos) msg = msg.substr(c + 2);
        throw InputError(file, line, col, prefix + "invalid JSON: " + msg);
    }
}

} // namespace prunescope
