// Unlabeled attachment scoring.
#include "core/dep/DepEval.h"

#include <stdexcept>

namespace prunescope {

bool isPunctuationTag(const std::string& tag) {
    return tag == "``" || tag == "''" || tag == "," || tag == "." || tag == ":" || tag == "PUNCT";
}

bool isPunctuationToken(const DepSentence& s, int m) {
    const auto i = static_cast<std::size_t>(m);
    const bool upunct = i < s.upos.size() && s.upos[i] == "PUNCT";
    if (s.universalTags) return upunct; // CoNLL-U: exactly UPOS PUNCT (issue 41)
    return isPunctuationTag(s.tags[i]) || upunct;
}

void AttachmentScore::add(const AttachmentScore& o) {
    tokens += o.tokens;
    correct += o.correct;
    scoredTokens += o.scoredTokens;
    scoredCorrect += o.scoredCorrect;
    roots += o.roots;
    rootsCorrect += o.rootsCorrect;
    sentences += o.sentences;
    complete += o.complete;
    completeWithPunct += o.completeWithPunct;
}

nlohmann::json AttachmentScore::toJson() const {
    return {{"uas", uas()},
            {"uasWithPunct", uasWithPunct()},
            {"rootAccuracy", rootAccuracy()},
            {"completeMatch", completeMatch()},
            {"completeMatchWithPunct", completeMatchWithPunct()},
            {"tokens", tokens},
            {"scoredTokens", scoredTokens},
            {"sentences", sentences}};
}

AttachmentScore scoreAttachment(const DepSentence& gold, const std::vector<int>& predicted) {
    if (!gold.hasTree())
        throw std::invalid_argument("scoreAttachment: the gold sentence has no tree");
    if (predicted.size() != gold.heads.size())
        throw std::invalid_argument("scoreAttachment: " + std::to_string(predicted.size() - 1) +
                                    " predicted heads for " + std::to_string(gold.size()) +
                                    " tokens");
    AttachmentScore a;
    a.sentences = 1;
    bool all = true, allScored = true;
    for (int m = 1; m <= gold.size(); ++m) {
        const bool right =
            predicted[static_cast<std::size_t>(m)] == gold.heads[static_cast<std::size_t>(m)];
        ++a.tokens;
        a.correct += right;
        all = all && right;
        if (!isPunctuationToken(gold, m)) {
            ++a.scoredTokens;
            a.scoredCorrect += right;
            allScored = allScored && right;
        }
        if (gold.heads[static_cast<std::size_t>(m)] == 0) {
            ++a.roots;
            a.rootsCorrect += right;
        }
    }
    a.complete = allScored;
    a.completeWithPunct = all;
    return a;
}

} // namespace prunescope
