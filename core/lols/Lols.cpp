// LOLS (Vieira & Eisner 2017, Alg. 2): roll-in, interventions/rollouts, aggregation, retraining.
#include "core/lols/Lols.h"

#include "core/eval/Evalb.h"
#include "core/parse/Parser.h"
#include "core/policy/PolicyMask.h"
#include "core/policy/SpanFeatures.h"
#include "core/util/Error.h"
#include "core/util/Random.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace prunescope {

namespace {

// All prunable spans of an n-word sentence in (width, i) order (Alg. 1's order).
std::vector<std::pair<int, int>> allPrunableSpans(int n) {
    std::vector<std::pair<int, int>> spans;
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            spans.emplace_back(i, i + w);
    return spans;
}

} // namespace

namespace {
// The sentences with minLength <= n <= maxLength (0 = no limit), in order, with their tree
// indices.
std::vector<LolsSentence> sentencesWithin(std::span<const Tree> normalizedGold, int minLength,
                                          int maxLength, std::vector<int>* treeIndex) {
    std::vector<LolsSentence> out;
    if (treeIndex) treeIndex->clear();
    for (std::size_t x = 0; x < normalizedGold.size(); ++x) {
        const Tree& t = normalizedGold[x];
        auto words = t.words();
        const int n = static_cast<int>(words.size());
        if (n < minLength || (maxLength > 0 && n > maxLength)) continue;
        out.push_back({std::move(words), t});
        if (treeIndex) treeIndex->push_back(static_cast<int>(x));
    }
    return out;
}
} // namespace

std::vector<LolsSentence> lolsSentences(std::span<const Tree> normalizedGold, int maxLength,
                                        std::vector<int>* treeIndex) {
    return sentencesWithin(normalizedGold, 3, maxLength, treeIndex); // T > 0 prunable spans
}

std::vector<LolsSentence> evaluationSentences(std::span<const Tree> normalizedGold, int maxLength) {
    return sentencesWithin(normalizedGold, 1, maxLength, nullptr);
}

const char* rolloutEngineName(RolloutEngine e) {
    return e == RolloutEngine::Naive ? "naive" : "fast";
}

RolloutEngine rolloutEngineFromName(const std::string& name) {
    if (name == "fast") return RolloutEngine::Fast;
    if (name == "naive") return RolloutEngine::Naive;
    throw std::invalid_argument("unknown rollout engine '" + name + "' (expected fast or naive)");
}

RolloutFunction rolloutFunction(Surrogate s, RolloutEngine e, std::optional<double> cpWorkBudget) {
    if (e == RolloutEngine::Naive)
        return [s](const RolloutRequest& r) { return naiveRollouts(r, s); };
    // Fast engines: change propagation for rCP (sec. 5.2), DP for rDP (sec. 5.3).
    if (s == Surrogate::CP && cpWorkBudget)
        return [cpWorkBudget](const RolloutRequest& r) {
            RolloutRequest withBudget = r;
            withBudget.cpWorkBudget = cpWorkBudget;
            return changePropagationRollouts(withBudget);
        };
    if (s == Surrogate::CP)
        return [](const RolloutRequest& r) { return changePropagationRollouts(r); };
    return [](const RolloutRequest& r) { return dpRollouts(r); };
}

nlohmann::json LolsConfig::toJson() const {
    nlohmann::json j = {{"surrogate", surrogateName(surrogate)},
                        {"engine", rolloutEngineName(engine)},
                        {"lambda", lambda},
                        {"iterations", iterations},
                        {"minibatch", minibatch},
                        {"cpRolloutsPerWord", cpRolloutsPerWord},
                        {"seed", seed},
                        {"threads", threads},
                        {"l2", logreg.l2},
                        {"lbfgsMaxIterations", logreg.maxIterations},
                        {"lbfgsEpsilon", logreg.epsilon},
                        {"warmStart", warmStart},
                        {"trainEvalSentences", trainEvalSentences}};
    // Written only when on, so runs without it keep their config and policy files byte for byte.
    if (logreg.gradientReduction > 0) j["lbfgsGradientReduction"] = logreg.gradientReduction;
    j["lbfgsMaxIterationsAfterFirst"] = lbfgsMaxIterationsAfterFirst; // 0 = off
    if (cpWorkBudget && std::isfinite(*cpWorkBudget))
        j["cpWorkBudget"] = *cpWorkBudget; // inf: not kept
    return j;
}

LogRegOptions LolsConfig::retrainingOptions(int t) const {
    LogRegOptions o = logreg;
    if (t >= 2 && lbfgsMaxIterationsAfterFirst > 0)
        o.maxIterations = std::min(o.maxIterations, lbfgsMaxIterationsAfterFirst);
    return o;
}

LolsConfig LolsConfig::fromJson(const nlohmann::json& j) {
    LolsConfig c;
    if (j.contains("surrogate"))
        c.surrogate = surrogateFromName(j.at("surrogate").get<std::string>());
    if (j.contains("engine")) c.engine = rolloutEngineFromName(j.at("engine").get<std::string>());
    c.lambda = j.value("lambda", c.lambda);
    c.iterations = j.value("iterations", c.iterations);
    c.minibatch = j.value("minibatch", c.minibatch);
    c.cpRolloutsPerWord = j.value("cpRolloutsPerWord", c.cpRolloutsPerWord);
    c.seed = j.value("seed", c.seed);
    c.threads = j.value("threads", c.threads);
    c.logreg.l2 = j.value("l2", c.logreg.l2);
    c.logreg.maxIterations = j.value("lbfgsMaxIterations", c.logreg.maxIterations);
    c.logreg.epsilon = j.value("lbfgsEpsilon", c.logreg.epsilon);
    c.logreg.gradientReduction = j.value("lbfgsGradientReduction", c.logreg.gradientReduction);
    // Absent: a run made when the cap was opt-in; it resumes as it ran, uncapped.
    c.lbfgsMaxIterationsAfterFirst = j.value("lbfgsMaxIterationsAfterFirst", 0);
    if (j.contains("cpWorkBudget")) c.cpWorkBudget = j.at("cpWorkBudget").get<double>();
    c.warmStart = j.value("warmStart", c.warmStart);
    c.trainEvalSentences = j.value("trainEvalSentences", c.trainEvalSentences);
    return c;
}

// ---- aggregated dataset (Alg. 2 line 13, footnote 15) ----

void AggregatedDataset::add(std::vector<RewardEntry> added) {
    std::stable_sort(added.begin(), added.end(),
                     [](const RewardEntry& a, const RewardEntry& b) { return a.key() < b.key(); });
    std::vector<RewardEntry> merged;
    merged.reserve(entries_.size() + added.size());
    auto push = [&](const RewardEntry& e) {
        if (!merged.empty() && merged.back().key() == e.key()) {
            merged.back().rewardPrune += e.rewardPrune;
            merged.back().rewardKeep += e.rewardKeep;
        } else {
            merged.push_back(e);
        }
    };
    std::size_t a = 0, b = 0;
    while (a < entries_.size() || b < added.size()) {
        if (b == added.size() || (a < entries_.size() && entries_[a].key() <= added[b].key()))
            push(entries_[a++]);
        else
            push(added[b++]);
    }
    entries_ = std::move(merged);
}

template <class Visit>
void AggregatedDataset::forEachExample(std::span<const LolsSentence> sentences,
                                       const Progress& progress, Visit&& visit) const {
    SentenceFeatures feats;
    std::uint32_t current = UINT32_MAX;
    for (const RewardEntry& e : entries_) {
        const double diff = e.rewardKeep - e.rewardPrune;
        if (diff == 0) continue;
        if (e.sentence >= sentences.size())
            throw std::invalid_argument("aggregated dataset refers to sentence " +
                                        std::to_string(e.sentence) + ", but the training set has " +
                                        std::to_string(sentences.size()));
        if (e.sentence != current) {
            progress.throwIfCancelled();
            feats = SentenceFeatures(sentences[e.sentence].words);
            current = e.sentence;
        }
        if (!PruningMask::prunable(feats.length(), e.i, e.k))
            throw std::invalid_argument("aggregated dataset refers to span (" +
                                        std::to_string(e.i) + "," + std::to_string(e.k) +
                                        ") of training sentence " + std::to_string(e.sentence) +
                                        ", which has " + std::to_string(feats.length()) + " words");
        visit(feats.features(e.i, e.k), diff > 0 ? 1 : 0, std::abs(diff));
    }
}

std::vector<WeightedExample> AggregatedDataset::examples(std::span<const LolsSentence> sentences,
                                                         const Progress& progress) const {
    std::vector<WeightedExample> out;
    out.reserve(entries_.size());
    forEachExample(sentences, progress, [&](auto features, int label, double weight) {
        WeightedExample x;
        x.features.assign(features.begin(), features.end());
        x.label = label;
        x.weight = weight;
        out.push_back(std::move(x));
    });
    return out;
}

CompactData AggregatedDataset::trainingData(std::span<const LolsSentence> sentences,
                                            const Progress& progress) const {
    CompactDataBuilder b(entries_.size(), entries_.size() * (kFeatureTemplates + 1));
    std::size_t n = 0;
    forEachExample(sentences, progress, [&](auto features, int label, double weight) {
        b.add(features, label, weight, n++);
    });
    return b.finish(true);
}

AggregatedDataset datasetFromExamples(std::span<const WeightedExample> examples,
                                      std::span<const SpanOrigin> origin,
                                      std::span<const int> sentenceOfTree, double scale) {
    if (examples.size() != origin.size())
        throw std::invalid_argument("datasetFromExamples: examples and origins differ in size");
    std::vector<RewardEntry> entries;
    entries.reserve(examples.size());
    for (std::size_t x = 0; x < examples.size(); ++x) {
        const SpanOrigin& o = origin[x];
        if (o.sentence < 0 || static_cast<std::size_t>(o.sentence) >= sentenceOfTree.size())
            continue;
        const int s = sentenceOfTree[o.sentence];
        if (s < 0) continue;
        RewardEntry e;
        e.sentence = static_cast<std::uint32_t>(s);
        e.i = static_cast<std::uint16_t>(o.i);
        e.k = static_cast<std::uint16_t>(o.k);
        (examples[x].label ? e.rewardKeep : e.rewardPrune) = scale * examples[x].weight;
        entries.push_back(e);
    }
    AggregatedDataset d;
    d.add(std::move(entries));
    return d;
}

namespace {
constexpr char kAggMagic[8] = {'P', 'S', 'A', 'G', 'G', '0', '0', '1'};
constexpr std::size_t kEntryBytes = 4 + 2 + 2 + 8 + 8;
} // namespace

std::string AggregatedDataset::serialize() const {
    std::string out(sizeof kAggMagic + 8 + entries_.size() * kEntryBytes, '\0');
    char* p = out.data();
    std::memcpy(p, kAggMagic, sizeof kAggMagic);
    p += sizeof kAggMagic;
    const std::uint64_t count = entries_.size();
    std::memcpy(p, &count, 8);
    p += 8;
    for (const RewardEntry& e : entries_) {
        std::memcpy(p, &e.sentence, 4);
        std::memcpy(p + 4, &e.i, 2);
        std::memcpy(p + 6, &e.k, 2);
        std::memcpy(p + 8, &e.rewardPrune, 8);
        std::memcpy(p + 16, &e.rewardKeep, 8);
        p += kEntryBytes;
    }
    return out;
}

AggregatedDataset AggregatedDataset::deserialize(const std::string& bytes,
                                                 const std::string& fileName) {
    if (bytes.size() < sizeof kAggMagic + 8 ||
        std::memcmp(bytes.data(), kAggMagic, sizeof kAggMagic) != 0)
        throw InputError(fileName, 1, 1, "not a PruneScope aggregated LOLS dataset");
    std::uint64_t count = 0;
    std::memcpy(&count, bytes.data() + sizeof kAggMagic, 8);
    const std::uint64_t payload = bytes.size() - sizeof kAggMagic - 8;
    // Compared by division: count * kEntryBytes could wrap around and pass.
    if (payload % kEntryBytes != 0 || payload / kEntryBytes != count)
        throw InputError(fileName, 1, 1,
                         "aggregated LOLS dataset holds " + std::to_string(payload / kEntryBytes) +
                             " whole entries but its header says " + std::to_string(count) +
                             " (truncated or corrupt)");
    AggregatedDataset d;
    d.entries_.resize(count);
    const char* p = bytes.data() + sizeof kAggMagic + 8;
    for (RewardEntry& e : d.entries_) {
        std::memcpy(&e.sentence, p, 4);
        std::memcpy(&e.i, p + 4, 2);
        std::memcpy(&e.k, p + 6, 2);
        std::memcpy(&e.rewardPrune, p + 8, 8);
        std::memcpy(&e.rewardKeep, p + 16, 8);
        p += kEntryBytes;
    }
    for (std::size_t x = 0; x < d.entries_.size(); ++x) {
        const RewardEntry& e = d.entries_[x];
        if (x > 0 && d.entries_[x - 1].key() >= e.key())
            throw InputError(fileName, 1, 1,
                             "aggregated LOLS dataset is not sorted (entry " + std::to_string(x) +
                                 ")");
        if (!(e.i < e.k && e.k <= kMaxSentenceLength))
            throw InputError(fileName, 1, 1,
                             "aggregated LOLS dataset entry " + std::to_string(x) + " has span (" +
                                 std::to_string(e.i) + "," + std::to_string(e.k) + ")");
        if (!std::isfinite(e.rewardPrune) || !std::isfinite(e.rewardKeep))
            throw InputError(fileName, 1, 1,
                             "aggregated LOLS dataset entry " + std::to_string(x) +
                                 " has a non-finite reward");
    }
    return d;
}

bool AggregatedDataset::operator==(const AggregatedDataset& o) const {
    if (entries_.size() != o.entries_.size()) return false;
    for (std::size_t x = 0; x < entries_.size(); ++x) {
        const auto &a = entries_[x], &b = o.entries_[x];
        if (a.key() != b.key() || a.rewardPrune != b.rewardPrune || a.rewardKeep != b.rewardKeep)
            return false;
    }
    return true;
}

// ---- roll-in and rollouts (Alg. 2 lines 6-11) ----

PruningMask lolsPolicyMask(const Policy& policy, const std::vector<std::string>& words) {
    return policyMask(policy, SentenceFeatures(words));
}

SentenceRollouts collectSentenceRollouts(const Grammar& g, const LolsSentence& s,
                                         std::uint32_t sentenceIndex, const Policy& policy,
                                         const LolsConfig& cfg, int iteration,
                                         const RolloutFunction& rollouts,
                                         const std::atomic<bool>* cancel) {
    SentenceRollouts out;
    const int n = static_cast<int>(s.words.size());
    RolloutRequest req;
    req.grammar = &g;
    req.words = s.words;
    req.gold = s.gold;
    req.rollIn = lolsPolicyMask(policy, s.words);
    req.cancel = cancel;
    auto spans = allPrunableSpans(n);
    out.states = static_cast<int>(spans.size());
    if (spans.empty()) return out;
    // Footnote 10: rCP samples <= 2n of the T spans uniformly without replacement, weight T/S.
    const int limit = cfg.cpRolloutsPerWord > 0 ? cfg.cpRolloutsPerWord * n : 0;
    if (cfg.surrogate == Surrogate::CP && limit > 0 && limit < out.states) {
        const auto chosen = sampleIndices(spans.size(), static_cast<std::size_t>(limit), cfg.seed,
                                          static_cast<std::uint64_t>(iteration), sentenceIndex);
        std::vector<std::pair<int, int>> sampled;
        for (std::uint32_t x : chosen)
            sampled.push_back(spans[x]); // ascending = (width, i) order
        spans = std::move(sampled);
        out.weight = static_cast<double>(out.states) / limit;
    }
    req.spans = spans;
    try {
        out.rollouts = rollouts(req);
    } catch (const EvalbMismatch&) { // EVALB would drop the sentence: so does LOLS
        out.skipped = true;
        return out;
    }
    if (out.rollouts.empty()) return out;
    const SpanRollout& r0 = out.rollouts.front();
    out.rollInAccuracy = r0.rollInKeep ? r0.accuracyKeep : r0.accuracyPrune;
    out.rollInRuntime = r0.rollInKeep ? r0.runtimeKeep : r0.runtimePrune;
    out.entries.reserve(out.rollouts.size());
    for (const SpanRollout& r : out.rollouts) {
        RewardEntry e;
        e.sentence = sentenceIndex;
        e.i = static_cast<std::uint16_t>(r.i);
        e.k = static_cast<std::uint16_t>(r.k);
        e.rewardPrune = out.weight * r.rewardPrune(cfg.lambda);
        e.rewardKeep = out.weight * r.rewardKeep(cfg.lambda);
        out.entries.push_back(e);
    }
    return out;
}

} // namespace prunescope
