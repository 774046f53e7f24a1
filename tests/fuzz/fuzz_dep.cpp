// Fuzz target: dependency treebanks (dep-sample, CoNLL-X, CoNLL-U) and tagged text, chosen by the
// first byte -> DepSentence -> its tree checks (every sentence read with heads must be a tree).
#include "FuzzTarget.h"

#include "core/dep/DepReader.h"
#include "core/dep/DepTree.h"
#include "core/util/Error.h"

namespace {
void fuzzOne(const std::string& input) {
    using namespace prunescope;
    if (input.empty()) return;
    static const DepFormat kFormats[] = {DepFormat::DepSample, DepFormat::ConllX,
                                         DepFormat::ConllU};
    const unsigned char selector = static_cast<unsigned char>(input[0]) % 4;
    const std::string text = input.substr(1);
    std::vector<DepSentence> sentences;
    try {
        sentences = selector == 3 ? readTaggedText(text, "fuzz.tag")
                                  : readDepTreebankString(text, kFormats[selector], "fuzz.conll");
    } catch (const InputError&) {
        return;
    }
    for (const DepSentence& s : sentences) {
        const std::size_t n1 = s.words.size();
        if (s.tags.size() != n1 || s.upos.size() != n1 || s.heads.size() != n1 || n1 < 2)
            __builtin_trap();
        if (selector != 3) {
            if (!treeProblem(s.heads).empty()) __builtin_trap(); // the reader promised a tree
            (void)isProjective(s.heads);
            (void)rootCount(s.heads);
        }
    }
}
} // namespace

PRUNESCOPE_FUZZ_INPUT(input)
