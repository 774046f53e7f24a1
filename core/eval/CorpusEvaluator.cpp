#include "core/eval/CorpusEvaluator.h"

#include "core/treebank/Binarize.h"
#include "core/util/Clock.h"
#include "core/util/Parallel.h"

#include <algorithm>
#include <chrono>
#include <memory>

namespace prunescope {

double CorpusResult::meanPushes() const {
    double s = 0;
    for (const auto& r : sentences)
        s += static_cast<double>(r.stats.pushes);
    return sentences.empty() ? 0 : s / sentences.size();
}
double CorpusResult::meanConstituents() const {
    double s = 0;
    for (const auto& r : sentences)
        s += static_cast<double>(r.stats.constituents);
    return sentences.empty() ? 0 : s / sentences.size();
}
double CorpusResult::meanSpansKept() const {
    double s = 0;
    for (const auto& r : sentences)
        s += r.stats.spansKept;
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
                        {"cpuSeconds", cpuSeconds},
                        {"wordsPerSecond", wordsPerSecond()},
                        {"wallSeconds", wallSeconds},
                        {"wordsPerWallSecond", wallSeconds > 0 ? words / wallSeconds : 0.0},
                        {"threads", threads},
                        {"decoder", parseDecoderName(decoder)}};
    if (skippedTooLarge > 0) j["skippedTooLarge"] = skippedTooLarge; // absent when 0 (older files)
    return j;
}

namespace {

// What one worker found for one gold tree; merged in tree order so that every total (EVALB
// counts, pushes, the skipped list) is the same for any thread count.
struct SentenceSlot {
    enum class Kind { Skipped, TooLarge, Parsed } kind = Kind::Skipped;
    SentenceResult result;
    bool evalbError = false;
};

// Max-rule-product decoding of one sentence into r and out; false if it is over the memory budget
// of inside-outside. A mask without a derivation gets the parser's documented fallback tree.
bool decodeMaxRule(const Grammar& g, Parser& parser, MaxRuleDecoder& decoder,
                   const std::vector<std::string>& words, const PruningMask* mask,
                   const Progress& progress, SentenceResult& r, Tree& out) {
    MaxRuleResult res;
    try {
        res = decoder.decode(words, mask, progress); // Cancelled within one chart width
    } catch (const std::invalid_argument&) {         // the dense inside-outside arrays' budget
        return false;
    }
    r.stats = res.parseStats();
    if (res.success) {
        out = debinarize(res.binarized);
    } else {
        try {
            parser.parse(words, mask);
        } catch (const SentenceTooLarge&) {
            return false;
        }
        out = bestTree(g, parser.chart(), words);
    }
    return true;
}

SentenceSlot evaluateSentence(const Grammar& g, Parser& parser, MaxRuleDecoder* maxRule,
                              const Tree& t, const MaskFunction& mask, const EvaluationOptions& opt,
                              const Progress& progress) {
    using Clock = std::chrono::steady_clock;
    SentenceSlot slot;
    std::vector<std::string> words = t.words();
    const int n = static_cast<int>(words.size());
    if (n == 0 || (opt.maxLength > 0 && n > opt.maxLength)) return slot;
    slot.kind = SentenceSlot::Kind::TooLarge;
    try {
        parser.checkFits(n);
    } catch (const SentenceTooLarge&) {
        return slot;
    }
    SentenceResult& r = slot.result;
    r.length = n;
    auto t0 = Clock::now();
    const double cpu0 = threadCpuSeconds();
    PruningMask m;
    if (mask) m = mask(words);
    Tree out;
    if (maxRule) {
        if (!decodeMaxRule(g, parser, *maxRule, words, mask ? &m : nullptr, progress, r, out))
            return slot;
    } else {
        try {
            r.stats = parser.parse(words, mask ? &m : nullptr);
        } catch (const SentenceTooLarge&) { // item lists outgrew the budget midway
            return slot;
        }
        out = bestTree(g, parser.chart(), words);
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    r.cpuSeconds = threadCpuSeconds() - cpu0;
    // A test tree whose own punctuation tags differ from the gold tree's is an EVALB
    // "error sentence": excluded from the totals (as EVALB does), counted, F1 = 0.
    if (auto counts = tryEvalbSentence(t, out)) {
        r.counts = *counts;
        r.f1 = sentenceF1(r.counts);
    } else {
        slot.evalbError = true;
        r.f1 = 0;
    }
    if (opt.keepTrees) r.tree = std::move(out);
    slot.kind = SentenceSlot::Kind::Parsed;
    return slot;
}

} // namespace

CorpusResult evaluateCorpus(const Grammar& g, std::span<const Tree> gold, const MaskFunction& mask,
                            const EvaluationOptions& opt, const Progress& progress) {
    using Clock = std::chrono::steady_clock;
    const auto wall0 = Clock::now();
    const int count = static_cast<int>(gold.size());
    const int workers = std::max(1, std::min(defaultThreads(opt.threads), count));
    std::vector<std::unique_ptr<Parser>> parsers(
        workers); // one per worker, reused across its sentences
    std::vector<SentenceSlot> slots(gold.size());
    std::vector<std::unique_ptr<MaxRuleDecoder>> maxRules(workers); // with opt.decoder MaxRule
    progress.begin("parsing", static_cast<long>(gold.size()));
    parallelFor(
        count, workers,
        [&](int i, int w) {
            progress.throwIfCancelled();
            if (!parsers[w]) {
                parsers[w] = std::make_unique<Parser>(g);
                parsers[w]->setMemoryBudget(opt.memoryBudget);
            }
            if (opt.decoder == ParseDecoder::MaxRule && !maxRules[w])
                maxRules[w] = std::make_unique<MaxRuleDecoder>(g);
            slots[i] =
                evaluateSentence(g, *parsers[w], maxRules[w].get(), gold[i], mask, opt, progress);
            progress.advance();
        },
        progress.cancelFlag());
    progress.throwIfCancelled(); // never return a cut result as complete

    CorpusResult res;
    res.threads = workers;
    res.decoder = opt.decoder;
    for (int i = 0; i < count; ++i) {
        SentenceSlot& s = slots[i];
        if (s.kind == SentenceSlot::Kind::Skipped) continue;
        if (s.kind == SentenceSlot::Kind::TooLarge) {
            ++res.skippedTooLarge;
            res.skippedSentences.push_back(i + 1);
            continue;
        }
        SentenceResult& r = s.result;
        if (s.evalbError)
            ++res.evalb.errorSentences;
        else
            res.evalb.add(r.counts);
        if (!r.stats.success) ++res.failures;
        res.words += r.length;
        res.seconds += r.seconds;
        res.cpuSeconds += r.cpuSeconds;
        res.sentences.push_back(std::move(r));
    }
    res.wallSeconds = std::chrono::duration<double>(Clock::now() - wall0).count();
    return res;
}

} // namespace prunescope
