#pragma once
// Treebank normalization of Vieira & Eisner (2017), footnote 8: remove function tags, traces,
// spurious unary edges (X -> X) and empty subtrees; relabel ADVP and PRT|ADVP to PRT.
#include "core/treebank/Tree.h"
#include "core/treebank/TreebankReader.h"
#include "core/util/Progress.h"

#include <string>
#include <vector>

namespace prunescope {

// Normalizes one phrasal or POS label:
//  - labels starting with '-' (-NONE-, -LRB-, -RRB-) are returned unchanged;
//  - function tags and co-indexes are cut at the first '-' or '=' (NP-SBJ-1 -> NP, NP=2 -> NP,
//    PP-LOC-CLR -> PP);
//  - of an alternative label X|Y only X is kept (PRT|ADVP -> PRT, ADVP|PRT -> ADVP -> PRT);
//  - ADVP becomes PRT (footnote 8).
std::string normalizeLabel(const std::string& label);

// Returns a tree rooted at "ROOT": an unlabeled outer bracket is relabeled ROOT, a labeled root is
// wrapped in a new ROOT node. Labels are normalized with normalizeLabel, -NONE- preterminals and
// subtrees left empty by their removal are deleted, and X -> X unary edges keep only one X.
// Throws InputError if nothing is left (the tree held only traces) or if a label holds one of the
// binarization markers (@ + ^, Binarize.h).
Tree normalizeTree(const Tree& t);

// Reads a treebank file or directory (readTreebank) and normalizes every tree, in order: the one
// way every command, window and test gets gold trees. firstTrees > 0 keeps only the first that
// many trees (the rest are read but not normalized). A tree that cannot be normalized is an
// InputError at the file:line:column where it starts. Progress: phase "normalizing", one item per
// tree; a cancel throws Cancelled. sources (optional) receives where each kept tree starts.
std::vector<Tree> readNormalizedTreebank(const std::string& path, std::size_t firstTrees = 0,
                                         const Progress& progress = {},
                                         std::vector<TreeSource>* sources = nullptr);

} // namespace prunescope
