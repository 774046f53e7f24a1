#pragma once
// A binarized PCFG in log space: symbols, binary/unary/root rules and a lexicon with
// unknown-word signatures. Rules are kept sorted so CKY, change propagation and the
// inside-outside pass can all walk them in one canonical order (ties break by index).
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope {

using SymbolId = std::uint32_t;
using WordId = std::uint32_t;

struct BinaryRule {
    SymbolId parent, left, right;
    float logProb;
};
struct UnaryRule {
    SymbolId parent, child;
    float logProb;
};
struct LexicalEntry {
    SymbolId tag;
    float logProb;
};

// Rules x -> y z that share (y, z): a contiguous run of `binary` (sorted by left, right, parent).
struct RuleGroup {
    SymbolId right;
    std::uint32_t begin, end;
};

struct Grammar {
    // --- what the file stores ---
    std::vector<std::string> symbols;
    SymbolId root = 0;                // the ROOT symbol (only ever at the whole-sentence span)
    std::vector<BinaryRule> binary;   // sorted by (left, right, parent)
    std::vector<UnaryRule> unary;     // X -> Y below ROOT; sorted by (child, parent)
    std::vector<UnaryRule> rootRules; // ROOT -> X; sorted by child
    std::vector<std::string> words;   // known words and unknown-word signatures
    std::vector<std::vector<LexicalEntry>> lexicon; // per word id, sorted by tag
    std::vector<LexicalEntry> unknownFallback;      // for a word whose signature is unseen too
    nlohmann::json options; // binarization and unknown-word settings used in training
    // A fine grammar (SplitMerge.h): per symbol, the base symbol it refines ("NP^3" -> "NP");
    // empty for an unrefined grammar. Trees the parser outputs carry the base symbols.
    std::vector<std::string> baseLabel;

    // --- derived indices (built by finalize()) ---
    std::unordered_map<std::string, SymbolId> symbolIndex;
    std::unordered_map<std::string, WordId> wordIndex;
    std::vector<std::uint32_t> groupsByLeftBegin; // per left symbol: [begin, end) into groups
    std::vector<RuleGroup> groups;
    std::vector<std::uint32_t> unaryByChildBegin; // per child symbol: [begin, end) into unary
    std::vector<std::uint32_t> binaryByParent;    // indices into binary, sorted by (parent, index)
    std::vector<std::uint32_t> binaryByParentBegin;
    std::vector<std::uint32_t> binaryByRight; // indices into binary, sorted by (right, index)
    std::vector<std::uint32_t> binaryByRightBegin;
    std::vector<std::uint32_t> unaryByParent; // indices into unary, sorted by (parent, index)
    std::vector<std::uint32_t> unaryByParentBegin;
    std::vector<float> rootLogProb; // per symbol: log P(ROOT -> X), -inf if none

    int numSymbols() const { return static_cast<int>(symbols.size()); }
    // The label of symbol x in an output tree: its base symbol in a fine grammar, else its name.
    const std::string& outputLabel(SymbolId x) const {
        return baseLabel.empty() ? symbols[x] : baseLabel[x];
    }
    // Sorts rules, checks ids and builds the indices above. Throws std::invalid_argument.
    void finalize();
    SymbolId symbolId(const std::string& name) const; // throws std::out_of_range
    bool hasSymbol(const std::string& name) const { return symbolIndex.count(name) != 0; }

    // Lexical entries for word w at sentence position pos: the word itself if known,
    // else its unknown-word signature, else the generic fallback. `how` (optional)
    // receives "known", "signature" or "fallback".
    // The span points into the grammar, so it is not offered on a temporary Grammar.
    std::span<const LexicalEntry> lexicalEntries(const std::string& word, int pos,
                                                 std::string* how = nullptr) const&;
    std::span<const LexicalEntry> lexicalEntries(const std::string& word, int pos,
                                                 std::string* how = nullptr) const&& = delete;
};

struct GrammarStats {
    int symbols, binaryRules, unaryRules, rootRules, words, lexicalEntries;
};
GrammarStats grammarStats(const Grammar& g);

} // namespace prunescope
