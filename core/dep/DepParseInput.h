#pragma once
// The text `prunescope-cli dep-parse` reads from standard input (docs/file-formats.md, "Tokens to
// parse"), in one of two layouts chosen by the first line that is not blank or a '#' comment:
//   - one sentence per line, tokens `word/POS` separated by spaces (readTaggedText's rules);
//   - one token per line, `word<TAB>POS`, a blank line ends a sentence; a third column (the head)
//     makes it the dep-sample format, read with its gold tree (heads kept for scoring).
// Malformed input throws InputError naming file:line (a line with a different column count than
// the first one, an empty word or tag, CR line endings, invalid UTF-8).
#include "core/dep/DepTree.h"

#include <string>
#include <vector>

namespace prunescope {

std::vector<DepSentence> readDepParseText(const std::string& text,
                                          const std::string& fileName = "<stdin>");

} // namespace prunescope
