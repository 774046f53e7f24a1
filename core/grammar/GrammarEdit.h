#pragma once
// A small grammar as editable rule lines (the explorer's Edit Grammar window, issue 42: "a grammar
// a class can read ... editable in the app (edit rule weights or add a rule, reparse live)"):
// every binary, unary, root and lexical rule as "X -> Y Z", "X -> Y", "ROOT -> X", "TAG -> 'word'"
// with its probability, and the grammar rebuilt from edited lines. Contract
// (tests/grammar/test_grammar_edit.cpp): grammarFromRuleLines(g, grammarRuleLines(g)) parses every
// sentence exactly as g does.
#include "core/grammar/Grammar.h"

#include <span>
#include <string>
#include <vector>

namespace prunescope {

enum class RuleKind { Binary, Unary, Root, Lexical };

struct RuleLine {
    RuleKind kind = RuleKind::Binary;
    std::string parent;
    std::vector<std::string> children; // 2 (binary), 1 (unary, root) symbols, or the word
    double probability = 1;            // in (0, 1]
    std::string text() const;          // "NP -> DT NN", "DT -> 'the'"
};

// Every rule of g: binary, unary, root rules in the grammar's order, then the lexicon by word
// (unknown-word signatures included, as words), then the fallback entries as TAG -> '<unk>'.
std::vector<RuleLine> grammarRuleLines(const Grammar& g);
// Parses "X -> Y Z", "X -> Y" (ROOT -> X is a root rule) or "TAG -> 'word'" (a quoted word,
// '<unk>' for the unknown-word fallback). Throws std::invalid_argument saying what is wrong.
RuleLine parseRuleLine(const std::string& text, double probability);
// The grammar of the lines: base's options, root symbol and symbol order, new symbols and words
// appended in the order the lines name them. Probabilities are used as given (not renormalized:
// a class sees the effect of exactly the number it typed). Throws std::invalid_argument naming
// the line (1-based) for a probability outside (0, 1], a duplicate rule, or ROOT inside a rule.
Grammar grammarFromRuleLines(const Grammar& base, std::span<const RuleLine> lines);

} // namespace prunescope
