#pragma once
// Writing dependency parses back as treebank files (docs/file-formats.md, "dep-parse output"), so
// predictions can be scored by other tools, the official UD evaluation script among them.
//   - CoNLL-U: a sentence read from CoNLL-U is written as its input lines (comments, multiword
//     tokens, empty nodes and every other column kept) with HEAD set to the parse and DEPREL and
//     DEPS set to `_` (PruneScope predicts no labels, so the gold ones must not pass for a
//     prediction); any other sentence gets a minimal token line per word (ID FORM _ UPOS XPOS _
//     HEAD _ _ _). A blank line ends each sentence.
//   - dep-sample (`.dp`): `word TAB POS TAB head`, a blank line after each sentence.
// Reading either file back gives the same words, tags and heads (tests/dep/test_dep_writer.cpp).
#include "core/dep/DepTree.h"

#include <string>
#include <vector>

namespace prunescope {

enum class DepOutputFormat { ConllU, DepSample };

// From a file name: .conllu -> ConllU, .dp -> DepSample; anything else -> InputError(path, ...).
DepOutputFormat depOutputFormatOf(const std::string& path);

// heads: n + 1 entries, heads[0] = -1, each head in [0, n] (a tree is not required, a head of -1
// is not allowed: throws std::invalid_argument).
std::string conlluText(const DepSentence& s, const std::vector<int>& heads);
std::string depSampleText(const DepSentence& s, const std::vector<int>& heads);

// Every sentence with its heads, in the format of path's extension, written atomically.
void writeDepParses(const std::string& path, const std::vector<DepSentence>& sentences,
                    const std::vector<std::vector<int>>& heads);

} // namespace prunescope
