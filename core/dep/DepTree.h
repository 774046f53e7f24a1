#pragma once
// A sentence with (gold or predicted) dependency heads: the unit every dependency component
// reads (readers, features, parsers, evaluation, pruners).
//
// Positions: 0 is the artificial root, tokens are 1..n. Every per-position array has n + 1
// entries and entry 0 stands for the root (words[0] = tags[0] = kRootSymbol, heads[0] = -1), so
// an arc (h, m) indexes all arrays directly: h in [0, n], m in [1, n].
#include <string>
#include <vector>

namespace prunescope {

inline constexpr const char* kRootSymbol = "<root>";

struct DepSentence {
    std::vector<std::string> words{kRootSymbol}; // [0] = root
    std::vector<std::string> tags{kRootSymbol};  // POS (PTB tag; XPOS, else UPOS, for CoNLL-U)
    std::vector<std::string> upos{kRootSymbol};  // universal/coarse tag ("" when the file has none)
    std::vector<int> heads{-1};                  // head of each token, -1 = unknown; [0] = -1
    // Read from CoNLL-U: punctuation is exactly the UPOS PUNCT tokens (the UD convention, what the
    // official evaluation's conventions use), not the PTB punctuation tags of XPOS.
    bool universalTags = false;
    // Read from CoNLL-U: the sentence's lines as read (its comments, multiword-token and empty-node
    // lines included, joined by '\n'), so a parse can be written back as the input's lines with
    // HEAD filled in (core/dep/DepWriter.h). Empty for every other source.
    std::string conllu;
    std::string file; // where it was read ("" for typed input)
    int line = 0;     // 1-based line of its first token

    int size() const { return static_cast<int>(words.size()) - 1; } // n
    // Every token has a head (a gold tree, or a parse).
    bool hasTree() const;
    void addToken(std::string word, std::string tag, int head = -1, std::string coarse = "");
};

// A sentence without a tree from tokens and tags (same length; throws std::invalid_argument).
DepSentence makeDepSentence(const std::vector<std::string>& words,
                            const std::vector<std::string>& tags);

// Whether heads (size n + 1, heads[0] = -1, each head in [0, n], no self loops) forms a tree
// rooted at 0: every token reaches 0. Returns "" if so, else a reason ("cycle through 3 4",
// "head of 5 out of range").
std::string treeProblem(const std::vector<int>& heads);
// Number of tokens attached to the root.
int rootCount(const std::vector<int>& heads);
// Whether no two arcs cross (arcs drawn above the sentence, root at position 0).
bool isProjective(const std::vector<int>& heads);

} // namespace prunescope
