#pragma once
// The grammar file format (docs/file-formats.md): a versioned, line-oriented text file.
#include "core/grammar/Grammar.h"

#include <string>

namespace prunescope {

constexpr int kGrammarFormatVersion = 1;

std::string grammarToString(const Grammar& g);
// Throws InputError naming fileName and the line of the problem.
Grammar grammarFromString(const std::string& text, const std::string& fileName = "<string>");
void saveGrammar(const Grammar& g, const std::string& path);   // atomic write
Grammar loadGrammar(const std::string& path);

} // namespace prunescope
