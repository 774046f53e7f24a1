#include "core/treebank/TreebankReader.h"

#include "core/util/Error.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string_view>

namespace prunescope {
namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool isTokenChar(char c) {
    return c != '(' && c != ')' && !isSpace(c);
}

std::string quoteTok(std::string_view s) {
    return "'" + std::string(s) + "'";
}

// One open bracket on the parser stack.
struct Frame {
    Tree node;
    int line = 0;
    int column = 0;
    bool hasWord = false; // the node already holds its single word
};

// Single-pass parser with an explicit stack (no recursion, so deep trees are safe).
class Parser {
  public:
    Parser(std::string_view text, const std::string& fileName, std::vector<TreeSource>* sources)
        : text_(text), file_(fileName), sources_(sources) {}

    std::vector<Tree> run() {
        std::vector<Tree> trees;
        std::vector<Frame> stack;
        while (true) {
            skipSpace();
            if (pos_ >= text_.size()) break;
            const char c = text_[pos_];
            if (c == '(') {
                openBracket(stack);
            } else if (c == ')') {
                closeBracket(stack, trees);
            } else {
                const int line = line_, col = col_;
                std::string_view tok = readToken();
                if (stack.empty()) fail(line, col, "text outside brackets: " + quoteTok(tok));
                Frame& top = stack.back();
                if (top.hasWord)
                    fail(line, col,
                         "expected ')' after word " + quoteTok(top.node.children[0].label) +
                             ", found " + quoteTok(tok));
                if (!top.node.children.empty())
                    fail(line, col,
                         "word " + quoteTok(tok) + " next to a subtree in " +
                             quoteTok(top.node.label) + "; a word must be alone under its tag");
                top.node.children.push_back(Tree{std::string(tok), {}});
                top.hasWord = true;
            }
        }
        if (!stack.empty()) {
            const Frame& f = stack.back();
            fail(f.line, f.column,
                 "unexpected end of input: this '(' is never closed (" +
                     std::to_string(stack.size()) + " unclosed bracket" +
                     (stack.size() > 1 ? "s" : "") + ")");
        }
        return trees;
    }

  private:
    void openBracket(std::vector<Frame>& stack) {
        if (!stack.empty() && stack.back().hasWord)
            fail(line_, col_,
                 "expected ')' after word " + quoteTok(stack.back().node.children[0].label) +
                     ", found '('");
        if (stack.size() >= static_cast<std::size_t>(kMaxTreeDepth))
            fail(line_, col_,
                 "brackets nested deeper than " + std::to_string(kMaxTreeDepth) +
                     " levels (the limit for one tree)");
        Frame f;
        f.line = line_;
        f.column = col_;
        advance(); // '('
        skipSpace();
        if (pos_ < text_.size() && isTokenChar(text_[pos_]))
            f.node.label = std::string(readToken());
        if (f.node.label.empty() && !stack.empty() && pos_ < text_.size() && text_[pos_] == '(')
            fail(f.line, f.column,
                 "unlabeled bracket inside a tree (only the outermost bracket may be unlabeled; "
                 "is a ')' missing before this tree?)");
        stack.push_back(std::move(f));
    }

    void closeBracket(std::vector<Frame>& stack, std::vector<Tree>& trees) {
        if (stack.empty()) fail(line_, col_, "unbalanced ')' with no matching '('");
        Frame& top = stack.back();
        if (top.node.children.empty()) {
            if (top.node.label.empty()) fail(line_, col_, "empty brackets '()'");
            fail(line_, col_, "missing word or subtree after label " + quoteTok(top.node.label));
        }
        advance(); // ')'
        Tree done = std::move(top.node);
        const TreeSource where{file_, top.line, top.column};
        stack.pop_back();
        if (stack.empty()) {
            trees.push_back(std::move(done));
            if (sources_) sources_->push_back(where);
        } else
            stack.back().node.children.push_back(std::move(done));
    }

    void advance() {
        if (text_[pos_] == '\n') {
            ++line_;
            col_ = 1;
        } else {
            ++col_;
        }
        ++pos_;
    }
    void skipSpace() {
        while (pos_ < text_.size() && isSpace(text_[pos_]))
            advance();
    }
    // Tokens never contain '\n', so only the column moves.
    std::string_view readToken() {
        const std::size_t start = pos_;
        while (pos_ < text_.size() && isTokenChar(text_[pos_]))
            ++pos_;
        col_ += static_cast<int>(pos_ - start);
        return text_.substr(start, pos_ - start);
    }
    [[noreturn]] void fail(int line, int col, const std::string& msg) const {
        throw InputError(file_, line, col, msg);
    }

    std::string_view text_;
    const std::string& file_;
    std::vector<TreeSource>* sources_ = nullptr;
    std::size_t pos_ = 0;
    int line_ = 1;
    int col_ = 1;
};

std::string readWholeFile(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError(path, 0, 0, "is a directory, expected a file");
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw InputError(path, 0, 0, "cannot open file (missing or unreadable)");
    std::string data;
    char buf[1 << 16];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        data.append(buf, n);
    const bool bad = std::ferror(f) != 0;
    std::fclose(f);
    if (bad) throw InputError(path, 0, 0, "error while reading file");
    return data;
}

} // namespace

std::vector<Tree> readTreebankString(const std::string& text, const std::string& fileName,
                                     std::vector<TreeSource>* sources) {
    return Parser(text, fileName, sources).run();
}

std::vector<Tree> readTreebankFile(const std::string& path, std::vector<TreeSource>* sources) {
    return readTreebankString(readWholeFile(path), path, sources);
}

std::vector<std::string> treebankFiles(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(path, ec)) throw InputError(path, 0, 0, "no such file or directory");
    if (!fs::is_directory(path, ec)) return {path};
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(path, ec))
        if (entry.path().extension() == ".mrg" && !entry.is_directory())
            files.push_back(entry.path());
    if (ec) throw InputError(path, 0, 0, "cannot list directory: " + ec.message());
    if (files.empty()) throw InputError(path, 0, 0, "directory contains no *.mrg files");
    std::sort(files.begin(), files.end(),
              [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
    std::vector<std::string> out;
    for (const auto& f : files)
        out.push_back(f.string());
    return out;
}

std::vector<Tree> readTreebank(const std::string& path, std::vector<TreeSource>* sources) {
    std::vector<Tree> all;
    for (const auto& f : treebankFiles(path)) {
        auto trees = readTreebankFile(f, sources);
        all.insert(all.end(), std::make_move_iterator(trees.begin()),
                   std::make_move_iterator(trees.end()));
    }
    return all;
}

std::vector<std::vector<std::string>> readSentencesFile(const std::string& path) {
    return readSentencesString(readWholeFile(path));
}

std::vector<std::vector<std::string>> readSentencesString(const std::string& data) {
    std::vector<std::vector<std::string>> sentences;
    std::vector<std::string> current;
    std::size_t i = 0;
    while (i < data.size()) {
        const char c = data[i];
        if (c == '\n') {
            if (!current.empty()) sentences.push_back(std::move(current));
            current.clear();
            ++i;
        } else if (isSpace(c)) {
            ++i;
        } else {
            std::size_t j = i;
            while (j < data.size() && !isSpace(data[j]))
                ++j;
            current.emplace_back(data, i, j - i);
            i = j;
        }
    }
    if (!current.empty()) sentences.push_back(std::move(current));
    return sentences;
}

} // namespace prunescope
