#include "core/eval/CorpusEvaluator.h"

#include <chrono>

namespace prunescope {

double CorpusResult::meanPushes() const {
    double s = 0;
    for (const auto& r : sentences) s += static_cast<double>(r.stats.pushes);
    return sentences.empty() ? 0 : s / sentences.size();
}
double CorpusResult::meanConstituents() const {
    double s = 0;
    for (const auto& r : sentences) s += static_cast<double>(r.stats.constituents);
    return sentences.empty() ? 0 : s / sentences.size();
}
double CorpusResult::meanSpansKept() const {
    double s = 0;
    for (const auto& r : sentences) s += r.stats.spansKept;
    return sentences.empty() ? 0 : s / sentences.size();
}

nlohmann::json CorpusResult::summaryJson() const {
    nlohmann::json j = {{"sentences", static_cast<int>(sentences.size())},
            {"words", words},
            {"f1", f1()},
            {"precision", evalb.total.precision()},
            {"recall", evalb.total.recall()},
            {"averageSentenceF1", evalb.averageSentenceF1()},
            {"exactMatches", evalb.exactMatches},
            {"evalbErrorSentences", evalb.errorSentences},
            {"failures", failures},
            {"meanPushes", meanPushes()},
            {"meanMpush", meanPushes() / 1e6},
            {"meanConstituents", meanConstituents()},
            {"meanSpansKept", meanSpansKept()},
            {"seconds", seconds},
            {"wordsPerSecond", wordsPerSecond()}};
    if (skippedTooLarge > 0) j["skippedTooLarge"] = skippedTooLarge;  // absent when 0 (older files)
    return j;
}

CorpusResult evaluateCorpus(const Grammar& g, std::span<const Tree> gold, const MaskFunction& mask,
                            const EvaluationOptions& opt, const Progress& progress) {
    using Clock = std::chrono::steady_clock;
    CorpusResult res;
    Parser parser(g);
    parser.setMemoryBudget(opt.memoryBudget);
    progress.begin("parsing", static_cast<long>(gold.size()));
    int done = 0;  // 1-based position of the current tree (skippedSentences)
    for (const Tree& t : gold) {
        progress.throwIfCancelled();
        std::vector<std::string> words = t.words();
        const int n = static_cast<int>(words.size());
        ++done;
        if (n == 0 || (opt.maxLength > 0 && n > opt.maxLength)) {
            progress.advance();
            continue;
        }
        try {
            parser.checkFits(n);
        } catch (const SentenceTooLarge&) {
            ++res.skippedTooLarge;
            res.skippedSentences.push_back(done);
            progress.advance();
            continue;
        }
        SentenceResult r;
        r.length = n;
        auto t0 = Clock::now();
        PruningMask m;
        if (mask) m = mask(words);
        try {
            r.stats = parser.parse(words, mask ? &m : nullptr);
        } catch (const SentenceTooLarge&) {  // item lists outgrew the budget midway
            ++res.skippedTooLarge;
            res.skippedSentences.push_back(done);
            progress.advance();
            continue;
        }
        Tree out = bestTree(g, parser.chart(), words);
        r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        // A test tree whose own punctuation tags differ from the gold tree's is an EVALB
        // "error sentence": excluded from the totals (as EVALB does), counted, F1 = 0.
        if (auto counts = tryEvalbSentence(t, out)) {
            r.counts = *counts;
            r.f1 = sentenceF1(r.counts);
            res.evalb.add(r.counts);
        } else {
            ++res.evalb.errorSentences;
            r.f1 = 0;
        }
        if (!r.stats.success) ++res.failures;
        res.words += n;
        res.seconds += r.seconds;
        if (opt.keepTrees) r.tree = std::move(out);
        res.sentences.push_back(std::move(r));
        progress.advance();
    }
    return res;
}

} // namespace prunescope
