// Fuzz target: PTB bracketed text -> trees -> normalization -> binarization and back.
#include "FuzzTarget.h"

#include "core/treebank/Binarize.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/TreebankReader.h"
#include "core/util/Error.h"

namespace {
void fuzzOne(const std::string& text) {
    using namespace prunescope;
    std::vector<TreeSource> sources;
    std::vector<Tree> trees;
    try {
        trees = readTreebankString(text, "fuzz.mrg", &sources);
    } catch (const InputError&) {
        return;
    }
    if (sources.size() != trees.size()) __builtin_trap();
    for (const Tree& t : trees) {
        Tree n;
        try {
            n = normalizeTree(t);
        } catch (const InputError&) {
            continue;
        }
        for (const BinarizeOptions opt :
             {BinarizeOptions{2, false}, BinarizeOptions{-1, true}, BinarizeOptions{0, false}}) {
            const Tree b = binarize(n, opt);
            if (debinarize(b) != n) __builtin_trap(); // the documented exact inverse
        }
        (void)labeledSpans(n);
        (void)n.toString();
    }
}
} // namespace

PRUNESCOPE_FUZZ_INPUT(text)
