#pragma once
// Max-rule-product decoding (Petrov & Klein 2007, "Improved Inference for Unlexicalized Parsing",
// sec. 3) of a fine (split-merge) grammar: the tree over base symbols that maximizes the product of
// its anchored rules' posteriors r(e), where r(e) sums the posterior of every refinement of e
// (A_x -> B_y C_z over i, j, k for every x, y, z) under the span mask. The posteriors come from
// PrunedInsideOutside (inside, posterior-normalised outside, then cellPosteriors per cell); a
// bottom-up pass over base symbols then picks, per cell, the best pre-layer rule (binary or
// lexical) and the best unary or identity on top, as the Viterbi parser's layers do. On an
// unrefined grammar every symbol is its own base.
//
// Contract (tests/parse/test_max_rule.cpp): on a refined grammar and short sentences, every mask,
// the decoded tree and its score Σ log r(e) equal the best over all base trees by brute force
// (r(e) from enumerating every derivation). The inside pass visits exactly Parser::parse's pushes.
#include "core/grammar/Grammar.h"
#include "core/parse/Expectations.h"
#include "core/parse/Parser.h"
#include "core/parse/PrunedInsideOutside.h"
#include "core/parse/PruningMask.h"
#include "core/treebank/Tree.h"
#include "core/util/Progress.h"

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace prunescope {

// Which tree a fine grammar's parse returns: the best derivation projected to base symbols
// (Viterbi) or max-rule-product. `eval`, `parse` and the explorer take `--decoder
// viterbi|max-rule`.
enum class ParseDecoder { Viterbi = 0, MaxRule = 1 };
const char* parseDecoderName(ParseDecoder d);
bool parseDecoderFromName(const std::string& name, ParseDecoder& out); // false if unknown

struct MaxRuleResult {
    bool success = false; // a derivation exists under the mask
    double logScore = -std::numeric_limits<double>::infinity(); // Σ log r(e) of the tree
    Tree binarized;           // base labels, binarized as the grammar is (empty label if !success)
    PrunedInsideStats inside; // pushes of the inside pass (Parser's unit), log Z
    // The counters eval and parse report: the inside pass's pushes and spans kept, success, and
    // logProb = logScore (Σ log r(e)); constituents are not counted (0).
    ParseStats parseStats() const;
};

class MaxRuleDecoder {
  public:
    explicit MaxRuleDecoder(const Grammar& g);
    // Throws as PrunedInsideOutside::inside does (empty or too long sentence, wrong mask, memory);
    // polls progress once per chart width (Cancelled). mask == nullptr keeps every span.
    MaxRuleResult decode(std::span<const std::string> words, const PruningMask* mask = nullptr,
                         const Progress& progress = {});
    int numBaseSymbols() const { return static_cast<int>(baseNames_.size()); }

  private:
    struct BaseBinary {
        std::uint32_t parent, left, right;
    };
    struct BaseUnary {
        std::uint32_t parent, child;
    };
    std::size_t at(int c, std::uint32_t a) const {
        return static_cast<std::size_t>(c) * baseNames_.size() + a;
    }
    int cellIndex(int i, int k) const; // the same triangular layout for the base chart
    void decodeCell(int i, int k);
    Tree buildPost(int i, int k, std::uint32_t a) const;
    Tree buildPre(int i, int k, std::uint32_t a) const;

    const Grammar* g_;
    PrunedInsideOutside io_;
    std::vector<std::string> baseNames_;
    std::vector<std::uint32_t> baseOf_;       // refined symbol -> base id
    std::vector<std::uint32_t> binaryToBase_; // refined binary rule -> base binary rule id
    std::vector<std::uint32_t> unaryToBase_;  // refined unary rule -> base unary rule id
    std::vector<BaseBinary> baseBinary_;
    std::vector<BaseUnary> baseUnary_;
    // per sentence
    int n_ = 0;
    std::span<const std::string> words_;
    std::vector<double> pre_, post_;           // [cell * B + a] best Σ log r, -inf if none
    std::vector<std::int64_t> preBack_;        // split * 2^32 + base binary rule; -1 lexical
    std::vector<std::int32_t> postBack_;       // base unary rule, -1 identity
    std::vector<double> accBinary_, accUnary_; // posterior sums of one split / one cell
    std::vector<double> accLexical_;           // per base tag
    std::vector<std::uint32_t> touched_, touchedUnary_, touchedTags_;
    Expectations expectations_; // outside()'s rule counts (reused; only the ω it leaves is read)
};

} // namespace prunescope
