#pragma once
// A labeled ordered tree, used for treebank trees, binarized trees and parser output.
// Convention: a leaf (word) is a node with no children; its label is the word.
// A preterminal is a node with exactly one child that is a leaf.
#include <string>
#include <vector>

namespace prunescope {

struct Tree {
    std::string label;
    std::vector<Tree> children;

    bool isLeaf() const { return children.empty(); }
    bool isPreterminal() const { return children.size() == 1 && children[0].isLeaf(); }

    // Words at the leaves, left to right.
    std::vector<std::string> words() const;
    // Preterminal labels, left to right (one per word).
    std::vector<std::string> tags() const;
    // Number of leaves.
    int size() const;
    // One-line Penn Treebank bracketing: (S (NP (DT the) (NN dog)) (VP (VBZ barks))).
    std::string toString() const;
    bool operator==(const Tree& other) const = default;
};

// A constituent occurrence: label over words [begin, end).
struct LabeledSpan {
    std::string label;
    int begin = 0;
    int end = 0;
    bool operator==(const LabeledSpan& o) const = default;
    auto operator<=>(const LabeledSpan& o) const = default;
};

// All non-leaf nodes as labeled spans (preterminals included), in preorder.
std::vector<LabeledSpan> labeledSpans(const Tree& t);

} // namespace prunescope
