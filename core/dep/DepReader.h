#pragma once
// Reading dependency treebanks: the dep-sample format (`word TAB POS TAB head`), CoNLL-X and
// CoNLL-U, plus tagged text for parsing. Rules and error cases: docs/file-formats.md
// ("Dependency treebanks").
//
// Every malformed input throws InputError(file, line, column, reason) naming the offending line:
// a wrong number of columns, a non-numeric or out-of-range head, a token that is its own head, a
// cycle, two roots where the format promises one (dep-sample, CoNLL-U), non-consecutive ids,
// CR line endings, invalid UTF-8. CoNLL-U multiword-token lines ("3-4") and empty nodes ("5.1")
// are skipped, as are '#' comment lines; their ids never count as tokens.
#include "core/dep/DepTree.h"

#include <string>
#include <vector>

namespace prunescope {

enum class DepFormat {
    Auto, // from the file name: .conllu -> ConllU, .conll/.conllx -> ConllX, otherwise DepSample
    DepSample,
    ConllX,
    ConllU,
};

// The format a file name implies (DepSample for .dp and anything unknown).
DepFormat depFormatOf(const std::string& path);
const char* depFormatName(DepFormat f);

// Parses treebank text (every token must have a head).
std::vector<DepSentence> readDepTreebankString(const std::string& text, DepFormat format,
                                               const std::string& fileName = "<string>");
// One file (format from its name unless given).
std::vector<DepSentence> readDepTreebankFile(const std::string& path,
                                             DepFormat format = DepFormat::Auto);
// A file, or a directory: every *.dp, *.conll, *.conllx and *.conllu file in it (not recursive),
// sorted by name. A missing path or a directory without such files -> InputError(path, 0, 0, ...).
std::vector<DepSentence> readDepTreebank(const std::string& path);
// The same, keeping only sentences of at most maxLength tokens (maxLength <= 0: all).
std::vector<DepSentence> readDepTreebank(const std::string& path, int maxLength);

// Tagged text to parse: one sentence per line, tokens separated by spaces, each `word/TAG` split
// at its last '/' (a literal slash inside a word stays: "1\/2/CD"); blank lines and lines starting
// with '#' are skipped. Sentences have no heads.
std::vector<DepSentence> readTaggedText(const std::string& text,
                                        const std::string& fileName = "<stdin>");

// Input to parse: a treebank file/directory (heads kept for scoring) if path names one, else a
// tagged-text file ("-" = standard input is handled by the caller). Chosen by extension: .txt and
// .tag files are tagged text.
std::vector<DepSentence> readDepInput(const std::string& path);

} // namespace prunescope
