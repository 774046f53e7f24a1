#pragma once
// Binarization (left-branching, horizontally Markovized), unary-chain collapsing and parent
// annotation of normalized treebank trees, and the exact inverse. Scheme: docs/treebank.md.
#include "core/treebank/Tree.h"

#include <nlohmann/json.hpp>

namespace prunescope {

struct BinarizeOptions {
    int horizontalMarkov = 2; // -1 = infinite (full sibling history); 0 = only the parent label
    bool parentAnnotation =
        false; // vertical order 2: annotate phrasal (not preterminal) labels "X^PARENT"
    bool operator==(const BinarizeOptions&) const = default;
};

// Label markers. Normalized PTB labels never contain them.
inline constexpr char kIntermediateMark = '@'; // "@NP|DT_JJ": intermediate node of an n-ary NP
inline constexpr char kSiblingMark = '|';      // separates the parent from the sibling history
inline constexpr char kSiblingSep = '_';       // separates siblings in the history
inline constexpr char kChainMark = '+';        // "S+VP": collapsed unary chain S -> VP
inline constexpr char kParentMark = '^';       // "NP^S": NP whose parent is S

// Input: a normalized tree (root "ROOT"). Output: a binarized tree in which
//  - the root keeps its label and has exactly one child (an n-ary root gets an "@ROOT..." child);
//  - every other internal node is binary, unary over a binary node or a preterminal, or a
//  preterminal;
//  - nodes with k > 2 children are left-binarized: X(c1..ck) -> X(@X|..(..@X|..(c1,c2)..,c(k-1)),
//  ck),
//    where each '@' label records X (annotated, if parent annotation is on) and the base labels of
//    the last h children it covers ('_'-separated; h = -1: all of them; h = 0: none, "@X");
//  - unary chains X -> Y -> Z below the root become one node "X+Y" over Z (Z binary or a
//    preterminal; preterminals are never part of a chain label);
//  - with parent annotation, each phrasal node gets "^P" (P = the original parent's base label);
//    a collapsed chain is annotated once, with the parent of its top: "X+Y^P".
// Throws std::invalid_argument if a label of the input contains a marker character.
Tree binarize(const Tree& normalized, const BinarizeOptions& opt);

// Inverse: splices out '@' nodes, expands "X+Y" chains into nested unaries, strips "^..."
// annotations. debinarize(binarize(t, opt)) == t for every normalized tree t and all options. Also
// works on parser output built from a grammar over binarized trees.
Tree debinarize(const Tree& binarized);

// Strips annotations from one (non-'@') label: "S+VP^ROOT" -> "S+VP"; "NP^S" -> "NP".
std::string stripAnnotation(const std::string& label);

// The label a reader of the n-ary tree sees for a grammar symbol: binarization intermediates
// "@NP^S|DT_NN" -> "NP", annotations stripped "NP^S" -> "NP", a collapsed chain "S+VP^ROOT" -> "S"
// (its top, the outermost node debinarize() gives that span). Tags and plain labels are unchanged.
std::string unbinarizedLabel(const std::string& label);

nlohmann::json toJson(const BinarizeOptions& opt);
// Missing keys take the defaults; wrong types or horizontalMarkov < -1 throw InputError.
BinarizeOptions binarizeOptionsFromJson(const nlohmann::json& j);

} // namespace prunescope
