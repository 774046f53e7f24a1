#pragma once
// One chart cell looked at without changing anything (the explorer's Inspect action and
// `prunescope-cli inspect-cell`): every built label with its post- and pre-layer inside scores
// (Alg. 1's β), which of them the best derivation uses, and the best subtree over the span.
#include "core/grammar/Grammar.h"
#include "core/parse/DenseChart.h"
#include "core/treebank/Tree.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope {

struct CellLabel {
    std::uint32_t symbol = 0;
    std::string name;     // the grammar's symbol ("@NP|DT_NN", "NP^3")
    std::string label;    // what a tree shows: base symbol, binarization undone ("NP")
    float post = kNegInf; // log inside score after the unary layer (the cell's value)
    float pre = kNegInf;  // before it (-inf: reached only through a unary rule)
    bool onBest = false;  // the topmost symbol of the best derivation over this span
};

struct CellInspection {
    int i = 0, k = 0;
    std::vector<CellLabel> labels; // every built symbol, best post score first (ties: symbol id)
    // The n-ary (debinarized) best subtree of the cell's best label; empty if nothing is built.
    Tree bestSubtree;
    bool onBestParse() const; // some label is on the best derivation
    nlohmann::json toJson(std::span<const std::string> words) const;
};

// Throws std::invalid_argument for a span outside the sentence.
CellInspection inspectCell(const Grammar& g, const DenseChart& chart,
                           std::span<const std::string> words, int i, int k);
// The symbol of the best derivation's topmost vertex over (i,k), if the best parse has that span.
std::optional<std::uint32_t> bestDerivationSymbol(const Grammar& g, const DenseChart& chart, int i,
                                                  int k);

} // namespace prunescope
