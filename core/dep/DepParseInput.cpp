// Tokens to parse from standard input (DepParseInput.h).
#include "core/dep/DepParseInput.h"

#include "core/dep/DepReader.h"
#include "core/util/Error.h"
#include "core/util/Utf8.h"

#include <algorithm>
#include <string_view>

namespace prunescope {

namespace {
bool blank(std::string_view l) {
    return std::all_of(l.begin(), l.end(), [](char c) { return c == ' ' || c == '\t'; });
}
} // namespace

std::vector<DepSentence> readDepParseText(const std::string& text, const std::string& fileName) {
    // The first content line decides the layout.
    std::size_t pos = 0;
    std::string_view first;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) nl = text.size();
        const std::string_view line(text.data() + pos, nl - pos);
        pos = nl + 1;
        if (!blank(line) && line[0] != '#') {
            first = line;
            break;
        }
    }
    if (first.find('\t') == std::string_view::npos) return readTaggedText(text, fileName);
    const auto tabs = std::count(first.begin(), first.end(), '\t');
    if (tabs == 2) return readDepTreebankString(text, DepFormat::DepSample, fileName);
    // word TAB POS lines (the same line checks as the treebank readers).
    std::vector<DepSentence> out;
    DepSentence cur;
    int lineNo = 0;
    pos = 0;
    auto finish = [&] {
        if (cur.size() > 0) out.push_back(std::move(cur));
        cur = DepSentence{};
    };
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) nl = text.size();
        const std::string_view line(text.data() + pos, nl - pos);
        pos = nl + 1;
        ++lineNo;
        if (const auto cr = line.find('\r'); cr != std::string_view::npos)
            throw InputError(fileName, lineNo, static_cast<int>(cr) + 1,
                             "carriage return (CRLF line ending?); convert to LF line endings");
        if (const auto bad = invalidUtf8At(line); bad != std::string_view::npos)
            throw InputError(fileName, lineNo, static_cast<int>(bad) + 1, "invalid UTF-8");
        if (blank(line)) {
            finish();
            continue;
        }
        if (line[0] == '#') continue;
        const std::size_t tab = line.find('\t');
        if (tab == std::string_view::npos || line.find('\t', tab + 1) != std::string_view::npos)
            throw InputError(
                fileName, lineNo, 0,
                "expected 2 tab-separated columns (word, POS) like the first token line");
        const std::string_view word = line.substr(0, tab), tag = line.substr(tab + 1);
        if (word.empty()) throw InputError(fileName, lineNo, 1, "empty word");
        if (tag.empty())
            throw InputError(fileName, lineNo, static_cast<int>(tab) + 2, "empty POS tag");
        if (cur.size() == 0) {
            cur.file = fileName;
            cur.line = lineNo;
        }
        cur.addToken(std::string(word), std::string(tag));
    }
    finish();
    return out;
}

} // namespace prunescope
