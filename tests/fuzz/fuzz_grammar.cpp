// Fuzz target: a grammar file -> Grammar -> a short parse with it (the parser must cope with any
// grammar the reader accepts).
#include "FuzzTarget.h"

#include "core/grammar/GrammarFile.h"
#include "core/parse/Parser.h"
#include "core/util/Error.h"

namespace {
void fuzzOne(const std::string& text) {
    using namespace prunescope;
    Grammar g;
    try {
        g = grammarFromString(text, "fuzz.gram");
    } catch (const InputError&) {
        return;
    }
    // Written back, the grammar reads again to the same text (the format's round trip).
    const std::string again = grammarToString(g);
    if (grammarToString(grammarFromString(again, "again.gram")) != again) __builtin_trap();
    if (g.numSymbols() > 4096 || g.binary.size() > 20000) return; // keep executions fast
    Parser parser(g);
    const std::vector<std::string> words = {"The", "cat", "sat", "."};
    parser.parse(words);
    (void)bestTree(g, parser.chart(), words);
}
} // namespace

PRUNESCOPE_FUZZ_INPUT(text)
