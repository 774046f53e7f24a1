#pragma once
// Unlabeled attachment scoring (the CoNLL / PTB convention, docs/dependency.md "Evaluation"):
// UAS over tokens whose gold POS is not punctuation, UAS over all tokens, root accuracy and
// complete match. Punctuation = gold PTB tag in {`` '' , . :} or gold universal tag PUNCT; for a
// CoNLL-U sentence exactly the UPOS PUNCT tokens (the UD convention).
#include "core/dep/DepTree.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace prunescope {

// The PTB punctuation tags `` '' , . : (and UPOS PUNCT): tokens excluded from `uas`.
bool isPunctuationTag(const std::string& tag);
// Whether token m of s is punctuation by its gold tags (tag or upos).
bool isPunctuationToken(const DepSentence& s, int m);

// Counts for one sentence or a corpus (sums).
struct AttachmentScore {
    long tokens = 0, correct = 0;             // all tokens
    long scoredTokens = 0, scoredCorrect = 0; // tokens that are not punctuation
    long roots = 0, rootsCorrect = 0;         // gold root attachments (tokens with gold head 0)
    long sentences = 0;
    long complete = 0;          // sentences with every non-punctuation head right
    long completeWithPunct = 0; // sentences with every head right

    void add(const AttachmentScore& o);
    double uas() const { return scoredTokens ? 100.0 * scoredCorrect / scoredTokens : 0.0; }
    double uasWithPunct() const { return tokens ? 100.0 * correct / tokens : 0.0; }
    double rootAccuracy() const { return roots ? 100.0 * rootsCorrect / roots : 0.0; }
    double completeMatch() const { return sentences ? 100.0 * complete / sentences : 0.0; }
    double completeMatchWithPunct() const {
        return sentences ? 100.0 * completeWithPunct / sentences : 0.0;
    }
    // {"uas", "uasWithPunct", "rootAccuracy", "completeMatch", "completeMatchWithPunct", counts...}
    nlohmann::json toJson() const;
};

// Scores predicted heads (size n + 1, [0] ignored) against gold's heads.
// Throws std::invalid_argument if the sizes differ or gold has no tree.
AttachmentScore scoreAttachment(const DepSentence& gold, const std::vector<int>& predicted);

} // namespace prunescope
