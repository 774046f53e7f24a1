// Dependency treebank readers (docs/file-formats.md, "Dependency treebanks").
#include "core/dep/DepReader.h"

#include "core/dep/DepChart.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/Utf8.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <string_view>

namespace prunescope {

namespace {

std::vector<std::string_view> splitTabs(std::string_view line) {
    std::vector<std::string_view> f;
    std::size_t start = 0;
    while (true) {
        const std::size_t t = line.find('\t', start);
        f.push_back(
            line.substr(start, t == std::string_view::npos ? std::string_view::npos : t - start));
        if (t == std::string_view::npos) break;
        start = t + 1;
    }
    return f;
}

// The most tokens one multiword token may span (a word split into more parts is not a word).
constexpr int kMaxRangeTokens = 64;

bool parseInt(std::string_view s, int& out) {
    if (s.empty()) return false;
    const auto* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, out);
    return ec == std::errc() && p == end;
}

bool isBlank(std::string_view line) {
    return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t'; });
}

// Collects one sentence's tokens with their lines, then validates the tree.
class SentenceBuilder {
  public:
    SentenceBuilder(const std::string& file, bool oneRoot, bool universalTags = false)
        : file_(file), oneRoot_(oneRoot), universalTags_(universalTags) {}

    bool empty() const { return lines_.empty(); }
    void add(int line, std::string_view word, std::string_view tag, std::string_view coarse,
             int head) {
        if (lines_.empty()) {
            s_ = DepSentence{};
            s_.universalTags = universalTags_;
            s_.file = file_;
            s_.line = line;
        }
        // Refused while reading, not after a parser was built for it (issue 46): no command parses
        // a sentence longer than the charts hold.
        if (s_.size() >= kMaxDepSentenceLength)
            throw InputError(file_, line, 0,
                             "the sentence that starts on line " + std::to_string(s_.line) +
                                 " has more than " + std::to_string(kMaxDepSentenceLength) +
                                 " tokens, the most a dependency parser handles");
        s_.addToken(std::string(word), std::string(tag), head, std::string(coarse));
        lines_.push_back(line);
    }
    void finish(std::vector<DepSentence>& out) {
        if (lines_.empty()) return;
        const int n = s_.size();
        int firstRootLine = 0;
        for (int m = 1; m <= n; ++m) {
            const int h = s_.heads[static_cast<std::size_t>(m)];
            const int line = lines_[static_cast<std::size_t>(m - 1)];
            if (h > n)
                throw InputError(file_, line, 0,
                                 "head " + std::to_string(h) + " of token " + std::to_string(m) +
                                     " is out of range (the sentence has " + std::to_string(n) +
                                     " tokens)");
            if (h == m)
                throw InputError(file_, line, 0, "token " + std::to_string(m) + " is its own head");
            if (h == 0) {
                if (oneRoot_ && firstRootLine != 0)
                    throw InputError(file_, line, 0,
                                     "second root in the sentence starting at line " +
                                         std::to_string(s_.line) + " (first root at line " +
                                         std::to_string(firstRootLine) +
                                         "); this format has exactly one root per sentence");
                if (firstRootLine == 0) firstRootLine = line;
            }
        }
        if (firstRootLine == 0)
            throw InputError(file_, s_.line, 0, "sentence has no root (no token with head 0)");
        if (const std::string why = treeProblem(s_.heads); !why.empty())
            throw InputError(file_, s_.line, 0, "not a tree: " + why);
        out.push_back(std::move(s_));
        lines_.clear();
    }

  private:
    const std::string& file_;
    bool oneRoot_;
    bool universalTags_;
    DepSentence s_;
    std::vector<int> lines_;
};

std::string fieldName(std::string_view f) {
    return "'" + std::string(f.substr(0, 40)) + "'";
}

// Calls fn(lineNumber, line) for every line after the checks that apply to all formats.
template <typename Fn> void forEachLine(const std::string& text, const std::string& file, Fn fn) {
    int lineNo = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) nl = text.size();
        const std::string_view line(text.data() + pos, nl - pos);
        ++lineNo;
        if (const auto cr = line.find('\r'); cr != std::string_view::npos)
            throw InputError(
                file, lineNo, static_cast<int>(cr) + 1,
                "carriage return (CRLF line ending?); convert the file to LF line endings");
        if (const auto bad = invalidUtf8At(line); bad != std::string_view::npos)
            throw InputError(file, lineNo, static_cast<int>(bad) + 1, "invalid UTF-8");
        fn(lineNo, line);
        pos = nl + 1;
    }
}

std::vector<DepSentence> readDepSample(const std::string& text, const std::string& file) {
    std::vector<DepSentence> out;
    SentenceBuilder b(file, true);
    forEachLine(text, file, [&](int lineNo, std::string_view line) {
        if (isBlank(line)) {
            b.finish(out);
            return;
        }
        const auto f = splitTabs(line);
        if (f.size() != 3)
            throw InputError(file, lineNo, 0,
                             "expected 3 tab-separated columns (word, POS, head), found " +
                                 std::to_string(f.size()));
        if (f[0].empty()) throw InputError(file, lineNo, 1, "empty word");
        if (f[1].empty())
            throw InputError(file, lineNo, static_cast<int>(f[0].size()) + 2, "empty POS tag");
        int head = 0;
        if (!parseInt(f[2], head) || head < 0)
            throw InputError(file, lineNo, static_cast<int>(f[0].size() + f[1].size()) + 3,
                             "head " + fieldName(f[2]) + " is not a non-negative integer");
        b.add(lineNo, f[0], f[1], "", head);
    });
    b.finish(out);
    return out;
}

std::vector<DepSentence> readConll(const std::string& text, const std::string& file, bool conllU) {
    std::vector<DepSentence> out;
    SentenceBuilder b(file, conllU, conllU);
    int expectedId = 1;
    std::string block; // CoNLL-U: this sentence's lines so far, kept for writing a parse back
    const auto finish = [&] {
        const std::size_t before = out.size();
        b.finish(out);
        if (conllU && out.size() > before) out.back().conllu = std::move(block);
        block.clear(); // a block of comments only belongs to no sentence
        expectedId = 1;
    };
    forEachLine(text, file, [&](int lineNo, std::string_view line) {
        if (isBlank(line)) {
            finish();
            return;
        }
        if (conllU) {
            if (!block.empty()) block += '\n';
            block += line;
        }
        if (line[0] == '#') return; // comment (an id never starts with #)
        const auto f = splitTabs(line);
        if (f.size() != 10)
            throw InputError(file, lineNo, 0,
                             std::string("expected 10 tab-separated columns (") +
                                 (conllU ? "CoNLL-U" : "CoNLL-X") + "), found " +
                                 std::to_string(f.size()));
        const std::string_view id = f[0];
        if (conllU && id.find('-') != std::string_view::npos) {
            // A multiword token "a-b": the next token is a and b > a (CoNLL-U); not a tree token.
            const std::size_t dash = id.find('-');
            int a = 0, z = 0;
            if (!parseInt(id.substr(0, dash), a) || !parseInt(id.substr(dash + 1), z))
                throw InputError(file, lineNo, 1,
                                 "multiword token range " + fieldName(id) +
                                     " is not two integers a-b");
            if (a != expectedId || z <= a)
                throw InputError(file, lineNo, 1,
                                 "multiword token range " + fieldName(id) +
                                     " must be a-b with a = the next token id (" +
                                     std::to_string(expectedId) + ") and b > a");
            if (z - a > kMaxRangeTokens)
                throw InputError(file, lineNo, 1,
                                 "multiword token range " + fieldName(id) + " spans more than " +
                                     std::to_string(kMaxRangeTokens) + " tokens");
            return;
        }
        if (conllU && id.find('.') != std::string_view::npos) {
            // An empty node "a.b" after token a (a may be 0): not a token of the tree.
            const std::size_t dot = id.find('.');
            int a = 0, z = 0;
            if (!parseInt(id.substr(0, dot), a) || !parseInt(id.substr(dot + 1), z) ||
                a != expectedId - 1 || z < 1)
                throw InputError(file, lineNo, 1,
                                 "empty node id " + fieldName(id) + " must be " +
                                     std::to_string(expectedId - 1) +
                                     ".N (after the token before it, N >= 1)");
            return;
        }
        int idValue = 0;
        if (!parseInt(id, idValue))
            throw InputError(file, lineNo, 1, "token id " + fieldName(id) + " is not an integer");
        if (idValue != expectedId)
            throw InputError(file, lineNo, 1,
                             "token id " + std::to_string(idValue) + " where " +
                                 std::to_string(expectedId) +
                                 " was expected (ids must count 1, 2, ...)");
        ++expectedId;
        int head = 0;
        if (!parseInt(f[6], head) || head < 0)
            throw InputError(file, lineNo, 0,
                             "HEAD (column 7) " + fieldName(f[6]) +
                                 " is not a non-negative integer");
        if (f[1].empty()) throw InputError(file, lineNo, 0, "empty FORM (column 2)");
        const std::string_view coarse = f[3] == "_" ? std::string_view() : f[3];
        std::string_view tag = f[4] != "_" && !f[4].empty() ? f[4] : f[3];
        if (tag.empty() || tag == "_")
            throw InputError(file, lineNo, 0, "no POS tag (columns 4 and 5 are both empty)");
        b.add(lineNo, f[1], tag, coarse, head);
    });
    finish();
    return out;
}

bool hasExtension(const std::string& path, const char* ext) {
    const std::string e = std::filesystem::path(path).extension().string();
    return e == ext;
}

} // namespace

DepFormat depFormatOf(const std::string& path) {
    if (hasExtension(path, ".conllu")) return DepFormat::ConllU;
    if (hasExtension(path, ".conll") || hasExtension(path, ".conllx")) return DepFormat::ConllX;
    return DepFormat::DepSample;
}

const char* depFormatName(DepFormat f) {
    switch (f) {
    case DepFormat::Auto:
        return "auto";
    case DepFormat::DepSample:
        return "dep-sample";
    case DepFormat::ConllX:
        return "CoNLL-X";
    case DepFormat::ConllU:
        return "CoNLL-U";
    }
    return "?";
}

std::vector<DepSentence> readDepTreebankString(const std::string& text, DepFormat format,
                                               const std::string& fileName) {
    if (format == DepFormat::Auto) format = depFormatOf(fileName);
    switch (format) {
    case DepFormat::ConllU:
        return readConll(text, fileName, true);
    case DepFormat::ConllX:
        return readConll(text, fileName, false);
    default:
        return readDepSample(text, fileName);
    }
}

std::vector<DepSentence> readDepTreebankFile(const std::string& path, DepFormat format) {
    if (format == DepFormat::Auto) format = depFormatOf(path);
    return readDepTreebankString(readFile(path), format, path);
}

std::vector<DepSentence> readDepTreebank(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(path, ec)) throw InputError(path, 0, 0, "no such file or directory");
    if (!fs::is_directory(path, ec)) return readDepTreebankFile(path);
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(path, ec)) {
        if (!e.is_regular_file()) continue;
        const std::string p = e.path().string();
        if (hasExtension(p, ".dp") || hasExtension(p, ".conll") || hasExtension(p, ".conllx") ||
            hasExtension(p, ".conllu"))
            files.push_back(p);
    }
    if (ec) throw InputError(path, 0, 0, "cannot list directory: " + ec.message());
    if (files.empty())
        throw InputError(path, 0, 0, "directory holds no .dp, .conll, .conllx or .conllu files");
    std::sort(files.begin(), files.end());
    std::vector<DepSentence> out;
    for (const auto& f : files) {
        auto part = readDepTreebankFile(f);
        for (auto& s : part)
            out.push_back(std::move(s));
    }
    return out;
}

std::vector<DepSentence> readTaggedText(const std::string& text, const std::string& fileName) {
    std::vector<DepSentence> out;
    forEachLine(text, fileName, [&](int lineNo, std::string_view line) {
        if (isBlank(line) || line[0] == '#') return;
        DepSentence s;
        s.file = fileName;
        s.line = lineNo;
        std::size_t pos = 0;
        while (pos < line.size()) {
            while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t'))
                ++pos;
            if (pos >= line.size()) break;
            std::size_t end = pos;
            while (end < line.size() && line[end] != ' ' && line[end] != '\t')
                ++end;
            const std::string_view tok = line.substr(pos, end - pos);
            const std::size_t slash = tok.rfind('/');
            if (slash == std::string_view::npos || slash == 0 || slash + 1 == tok.size())
                throw InputError(fileName, lineNo, static_cast<int>(pos) + 1,
                                 "token '" + std::string(tok) + "' is not word/TAG");
            s.addToken(std::string(tok.substr(0, slash)), std::string(tok.substr(slash + 1)));
            pos = end;
        }
        out.push_back(std::move(s));
    });
    return out;
}

std::vector<DepSentence> readDepInput(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(path, ec) && (hasExtension(path, ".txt") || hasExtension(path, ".tag")))
        return readTaggedText(readFile(path), path);
    return readDepTreebank(path);
}

std::vector<DepSentence> readDepTreebank(const std::string& path, int maxLength) {
    std::vector<DepSentence> out;
    for (auto& s : readDepTreebank(path))
        if (maxLength <= 0 || s.size() <= maxLength) out.push_back(std::move(s));
    return out;
}

} // namespace prunescope
