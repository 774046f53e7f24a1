#pragma once
// Reading Penn Treebank bracketed files (.mrg) and plain tokenized sentence files.
// Format and error conventions are described in docs/treebank.md.
#include "core/treebank/Tree.h"

#include <string>
#include <vector>

namespace prunescope {

// Deepest bracket nesting a tree may have. Real treebank trees nest a few dozen levels (the PTB
// sample: at most 30); the recursive tree algorithms (normalization, binarization, EVALB) then run
// on a bounded stack. Deeper input is an InputError at the offending '('.
constexpr int kMaxTreeDepth = 1000;

// Where a tree starts in its file (the line and column of its outermost '(').
struct TreeSource {
    std::string file;
    int line = 0;
    int column = 0;
};

// Parse PTB bracketed text holding zero or more trees (multi-line, several per file).
// The outer unlabeled bracket "( (S ...) )" becomes a node with empty label "".
// Only the outermost bracket of a tree may be unlabeled. A node holds either exactly one word
// (a preterminal) or one or more bracketed subtrees. Tokens are any run of non-space, non-paren
// characters (-LRB-, -RRB-, `` etc. are ordinary tokens).
// Malformed input throws InputError(fileName, line, column, ...) with the 1-based position of
// the offending character (for a missing ')' at end of input: the innermost unclosed '(').
// sources (optional) receives one TreeSource per tree.
std::vector<Tree> readTreebankString(const std::string& text,
                                     const std::string& fileName = "<string>",
                                     std::vector<TreeSource>* sources = nullptr);

// Reads one file. Missing/unreadable file -> InputError(path, 0, 0, ...).
std::vector<Tree> readTreebankFile(const std::string& path,
                                   std::vector<TreeSource>* sources = nullptr);

// The files readTreebank reads for path: path itself, or a directory's *.mrg files sorted by name.
// A missing path or a directory without *.mrg files -> InputError(path, 0, 0, ...).
std::vector<std::string> treebankFiles(const std::string& path);

// path may be a file or a directory; a directory reads all *.mrg files in it, sorted by file name.
// A missing path or a directory without *.mrg files -> InputError(path, 0, 0, ...).
std::vector<Tree> readTreebank(const std::string& path, std::vector<TreeSource>* sources = nullptr);

// Plain text: one tokenized sentence per line (whitespace-separated tokens), blank lines skipped.
// Missing/unreadable file -> InputError(path, 0, 0, ...).
std::vector<std::vector<std::string>> readSentencesFile(const std::string& path);
// The same from text already in memory.
std::vector<std::vector<std::string>> readSentencesString(const std::string& text);

} // namespace prunescope
