#pragma once
// The grammar file format (docs/file-formats.md): a versioned, line-oriented text file.
#include "core/grammar/Grammar.h"

#include <string>

namespace prunescope {

constexpr int kGrammarFormatVersion = 1;

// Rules and lexical entries of probability 0 (log -inf) are not written, nor words left with no tag
// (the parser then treats them as unknown words): the file holds finite log probabilities only.
std::string grammarToString(const Grammar& g);
// How many rules and lexical entries grammarToString leaves out for having probability 0.
std::size_t zeroProbabilityEntries(const Grammar& g);
// Throws InputError naming fileName and the line of the problem.
Grammar grammarFromString(const std::string& text, const std::string& fileName = "<string>");
void saveGrammar(const Grammar& g, const std::string& path); // atomic write
Grammar loadGrammar(const std::string& path);

} // namespace prunescope
