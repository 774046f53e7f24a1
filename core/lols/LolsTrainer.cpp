// LOLS trainer loop (Vieira & Eisner 2017, Alg. 2 lines 2-15) and policy evaluation on dev
// (early stopping by surrogate reward, sec. 6).
#include "core/lols/LolsTrainer.h"
#include "core/eval/Evalb.h"
#include "core/parse/Parser.h"
#include "core/rollout/InsideOutside.h"
#include "core/util/Parallel.h"
#include "core/util/Random.h"

#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace prunescope {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

nlohmann::json number(double x) {
    return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}
double numberOr(const nlohmann::json& j, const char* key, double fallback) {
    if (!j.contains(key) || j.at(key).is_null()) return fallback;
    return j.at(key).get<double>();
}

struct SentenceEval {
    ParseStats stats;
    BracketCounts counts;
    bool scored = false;
    double accuracy = 0, runtime = 0;
};

} // namespace

nlohmann::json PolicyEvaluation::toJson() const {
    return {{"sentences", sentences},
            {"reward", number(reward)},
            {"accuracy", number(accuracy)},
            {"runtime", number(runtime)},
            {"f1", number(f1)},
            {"mpush", number(mpush)},
            {"constituents", number(constituents)},
            {"spansKept", number(spansKept)},
            {"failures", failures},
            {"seconds", number(seconds)}};
}

PolicyEvaluation PolicyEvaluation::fromJson(const nlohmann::json& j) {
    PolicyEvaluation e;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    e.sentences = j.value("sentences", 0);
    e.reward = numberOr(j, "reward", nan);
    e.accuracy = numberOr(j, "accuracy", nan);
    e.runtime = numberOr(j, "runtime", nan);
    e.f1 = numberOr(j, "f1", nan);
    e.mpush = numberOr(j, "mpush", nan);
    e.constituents = numberOr(j, "constituents", nan);
    e.spansKept = numberOr(j, "spansKept", nan);
    e.failures = j.value("failures", 0);
    e.seconds = numberOr(j, "seconds", 0);
    return e;
}

PolicyEvaluation evaluatePolicy(const Grammar& g, std::span<const LolsSentence> sentences,
                                const Policy& p, Surrogate s, double lambda,
                                const RolloutFunction& rollouts, int threads,
                                const Progress& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    const int count = static_cast<int>(sentences.size());
    progress.begin("evaluation", count);
    const int workers = std::max(1, std::min(defaultThreads(threads), count));
    std::vector<std::unique_ptr<Parser>> parsers(workers);
    std::vector<SentenceEval> results(count);
    parallelFor(
        count, workers,
        [&](int idx, int worker) {
            const LolsSentence& sent = sentences[idx];
            if (!parsers[worker]) parsers[worker] = std::make_unique<Parser>(g);
            Parser& parser = *parsers[worker];
            const PruningMask mask = lolsPolicyMask(p, sent.words);
            SentenceEval& r = results[idx];
            r.stats = parser.parse(sent.words, &mask);
            const Tree tree = bestTree(g, parser.chart(), sent.words);
            if (auto c = tryEvalbSentence(sent.gold, tree)) {
                r.counts = *c;
                r.scored = true;
            }
            if (s == Surrogate::CP) {                     // per-sentence F1 and ||beta||_0
                r.accuracy = sentenceF1(sent.gold, tree); // defined even where EVALB drops the pair
                r.runtime = static_cast<double>(r.stats.constituents);
            } else if (sent.words.size() < 3) { // no prunable span: ||m||_0 = 0, r̄ directly
                r.accuracy =
                    InsideOutside(g).inside(sent.words, mask, recallGold(g, sent.gold)).recall;
                r.runtime = 0;
            } else { // expected binarized recall and ||m||_0: the DP's roll-in value of any one
                     // span
                RolloutRequest req;
                req.grammar = &g;
                req.words = sent.words;
                req.gold = sent.gold;
                req.rollIn = mask;
                req.cancel = progress.cancelFlag();
                req.spans = {{0, 2}};
                const auto ro = rollouts(req);
                const SpanRollout& x = ro.at(0);
                r.accuracy = x.rollInKeep ? x.accuracyKeep : x.accuracyPrune;
                r.runtime = x.rollInKeep ? x.runtimeKeep : x.runtimePrune;
            }
            progress.advance();
        },
        progress.cancelFlag());
    progress.throwIfCancelled();
    PolicyEvaluation e;
    CorpusEvaluation corpus;
    double pushes = 0, constituents = 0, kept = 0, acc = 0, run = 0;
    for (const SentenceEval& r : results) { // summed in sentence order: thread-count independent
        if (r.scored) corpus.add(r.counts);
        if (!r.stats.success) ++e.failures;
        pushes += static_cast<double>(r.stats.pushes);
        constituents += static_cast<double>(r.stats.constituents);
        kept += r.stats.spansKept;
        acc += r.accuracy;
        run += r.runtime;
    }
    e.sentences = count;
    if (count > 0) {
        e.accuracy = acc / count;
        e.runtime = run / count;
        e.reward = e.accuracy - lambda * e.runtime;
        e.f1 = 100.0 * corpus.total.f1();
        e.mpush = pushes / count / 1e6;
        e.constituents = constituents / count;
        e.spansKept = kept / count;
    }
    e.seconds = secondsSince(t0);
    return e;
}

nlohmann::json LolsIterationRecord::toJson() const {
    nlohmann::json j = {{"iteration", iteration},
                        {"trainRollInReward", number(trainRollInReward)},
                        {"trainRollInAccuracy", number(trainRollInAccuracy)},
                        {"trainRollInRuntime", number(trainRollInRuntime)},
                        {"minibatchSentences", minibatchSentences},
                        {"skippedSentences", skippedSentences},
                        {"newStates", newStates},
                        {"datasetStates", datasetStates},
                        {"examples", examples},
                        {"lbfgsIterations", lbfgsIterations},
                        {"objective", number(objective)},
                        {"dev", dev.toJson()},
                        {"seconds",
                         {{"rollouts", secondsRollouts},
                          {"training", secondsTraining},
                          {"evaluation", secondsEvaluation},
                          {"total", seconds}}},
                        {"best", best}};
    j["train"] = hasTrainEval ? train.toJson() : nlohmann::json(nullptr);
    return j;
}

LolsIterationRecord LolsIterationRecord::fromJson(const nlohmann::json& j) {
    LolsIterationRecord r;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    r.iteration = j.at("iteration").get<int>();
    r.trainRollInReward = numberOr(j, "trainRollInReward", nan);
    r.trainRollInAccuracy = numberOr(j, "trainRollInAccuracy", nan);
    r.trainRollInRuntime = numberOr(j, "trainRollInRuntime", nan);
    r.minibatchSentences = j.value("minibatchSentences", 0);
    r.skippedSentences = j.value("skippedSentences", 0);
    r.newStates = j.value("newStates", 0L);
    r.datasetStates = j.value("datasetStates", 0L);
    r.examples = j.value("examples", 0L);
    r.lbfgsIterations = j.value("lbfgsIterations", 0);
    r.objective = numberOr(j, "objective", nan);
    r.dev = PolicyEvaluation::fromJson(j.at("dev"));
    if (j.contains("train") && j.at("train").is_object()) {
        r.hasTrainEval = true;
        r.train = PolicyEvaluation::fromJson(j.at("train"));
    }
    if (j.contains("seconds")) {
        const auto& s = j.at("seconds");
        r.secondsRollouts = s.value("rollouts", 0.0);
        r.secondsTraining = s.value("training", 0.0);
        r.secondsEvaluation = s.value("evaluation", 0.0);
        r.seconds = s.value("total", 0.0);
    }
    r.best = j.value("best", false);
    return r;
}

// ---- trainer ----

LolsTrainer::LolsTrainer(const Grammar& g, std::vector<LolsSentence> train,
                         std::vector<LolsSentence> dev, LolsConfig cfg)
    : g_(&g), train_(std::move(train)), dev_(std::move(dev)), cfg_(cfg),
      rollouts_(rolloutFunction(cfg.surrogate, cfg.engine, cfg.cpWorkBudget)) {
    cfg_.logreg.rescaleWeights = true;
    cfg_.logreg.threads = defaultThreads(cfg_.threads); // exact for any count (ParallelObjective.h)
}

int LolsTrainer::threads() const {
    return defaultThreads(cfg_.threads);
}

std::span<const LolsSentence> LolsTrainer::trainSample() const {
    const std::size_t n = std::min<std::size_t>(
        train_.size(), static_cast<std::size_t>(std::max(0, cfg_.trainEvalSentences)));
    return std::span<const LolsSentence>(train_).first(n);
}

PolicyEvaluation LolsTrainer::evaluate(std::span<const LolsSentence> s, const Policy& p,
                                       const Progress& progress) const {
    return evaluatePolicy(*g_, s, p, cfg_.surrogate, cfg_.lambda, rollouts_, cfg_.threads,
                          progress);
}

std::vector<std::uint32_t> LolsTrainer::minibatch(int iteration) const {
    const std::size_t m = static_cast<std::size_t>(std::max(0, cfg_.minibatch));
    return sampleIndices(train_.size(), m, cfg_.seed, static_cast<std::uint64_t>(iteration),
                         0xFFFFFFFFull);
}

LolsState LolsTrainer::start(const Policy& init, AggregatedDataset q0, const Progress& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    progress.setStep(0, cfg_.iterations);
    LolsState st;
    st.policy = init;
    st.data = std::move(q0);
    LolsIterationRecord rec;
    rec.iteration = 0;
    rec.datasetStates = static_cast<long>(st.data.size());
    rec.dev = evaluate(dev_, st.policy, progress);
    if (cfg_.trainEvalSentences > 0) {
        rec.hasTrainEval = true;
        rec.train = evaluate(trainSample(), st.policy, progress);
    }
    rec.secondsEvaluation = rec.seconds = secondsSince(t0);
    rec.best = true;
    st.bestIteration = 0;
    st.bestDevReward = rec.dev.reward;
    st.log.push_back(rec);
    return st;
}

std::vector<SentenceRollouts> LolsTrainer::rollOut(int iteration, const Policy& rollIn,
                                                   std::span<const int> positions,
                                                   const Progress& progress) const {
    const auto batch = minibatch(iteration);
    std::vector<SentenceRollouts> out(positions.size());
    parallelFor(
        static_cast<int>(positions.size()), cfg_.threads,
        [&](int x, int) {
            const std::uint32_t sentence = batch.at(static_cast<std::size_t>(positions[x]));
            out[x] = collectSentenceRollouts(*g_, train_[sentence], sentence, rollIn, cfg_,
                                             iteration, rollouts_, progress.cancelFlag());
            progress.advance();
        },
        progress.cancelFlag());
    return out;
}

std::vector<RewardEntry> LolsTrainer::collectRollouts(int t, const Policy& policy,
                                                      LolsIterationRecord& rec,
                                                      const Progress& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto batch = minibatch(t);
    rec.minibatchSentences = static_cast<int>(batch.size());
    const int count = static_cast<int>(batch.size());
    progress.begin("rollouts", static_cast<long>(count));
    const LocalRollouts local = [&](std::span<const int> positions) {
        return rollOut(t, policy, positions, progress);
    };
    std::vector<SentenceRollouts> collected;
    if (distributor_.collect) {
        collected = distributor_.collect(t, policy, count, local);
    } else {
        collected = local(rolloutShare(count, 0, 1)); // every position, on this process
    }
    progress.throwIfCancelled();
    if (collected.size() != batch.size())
        throw std::logic_error("rollout distributor returned a wrong count");
    rec.secondsRollouts = secondsSince(t0);
    std::vector<RewardEntry> added;
    double acc = 0, run = 0;
    int used = 0;
    for (const SentenceRollouts& c : collected) { // merged in sentence order
        if (c.skipped) {
            ++rec.skippedSentences;
            continue;
        }
        added.insert(added.end(), c.entries.begin(), c.entries.end());
        acc += c.rollInAccuracy;
        run += c.rollInRuntime;
        ++used;
    }
    rec.newStates = static_cast<long>(added.size());
    if (used > 0) {
        rec.trainRollInAccuracy = acc / used;
        rec.trainRollInRuntime = run / used;
        rec.trainRollInReward = rec.trainRollInAccuracy - cfg_.lambda * rec.trainRollInRuntime;
    }
    return added;
}

Policy LolsTrainer::retrain(int t, const AggregatedDataset& data, const Policy& policy,
                            LolsIterationRecord& rec, const Progress& progress) {
    const auto t1 = std::chrono::steady_clock::now();
    progress.begin("training", 0);
    Policy next = policy;
    // Rescaled (sec. 6); features kept from the last iteration when its states are the same.
    const CompactData& examples = retraining_.update(data, train_, progress);
    rec.examples = static_cast<long>(examples.numExamples());
    if (examples.numExamples() > 0) {
        const LogRegOptions opt = cfg_.retrainingOptions(t);
        const LogRegResult lr =
            trainLogisticRegression(retraining_.objective(opt.threads), opt,
                                    cfg_.warmStart ? &policy.weights : nullptr, progress);
        next.weights = lr.weights;
        rec.lbfgsIterations = lr.iterations;
        rec.objective = lr.objective;
    }
    next.meta.kind = "lols";
    next.meta.lambda = cfg_.lambda;
    next.meta.name = "lols-iter-" + std::to_string(t);
    LolsConfig recorded = cfg_;
    recorded.threads = 0; // as in config.json: never changes results, so policy files do not
                          // depend on it
    next.meta.training = {{"algorithm", "lols"}, {"iteration", t}, {"config", recorded.toJson()}};
    rec.secondsTraining = secondsSince(t1);
    progress.throwIfCancelled();
    return next;
}

void LolsTrainer::evaluateNext(Policy& next, LolsIterationRecord& rec,
                               const Progress& progress) const {
    const auto t2 = std::chrono::steady_clock::now();
    rec.dev = evaluate(dev_, next, progress);
    if (cfg_.trainEvalSentences > 0) {
        rec.hasTrainEval = true;
        rec.train = evaluate(trainSample(), next, progress);
    }
    next.meta.devMetrics = rec.dev.toJson();
    next.meta.devMetrics.erase("seconds"); // keep policy files deterministic
    rec.secondsEvaluation = secondsSince(t2);
}

bool LolsTrainer::step(LolsState& st, const Progress& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    const int t = st.iteration + 1;
    progress.setStep(t, cfg_.iterations);
    LolsIterationRecord rec;
    rec.iteration = t;
    // Everything below works on copies; st changes only at the very end, so a cancel in any
    // phase (Cancelled thrown by a phase, caught here) leaves st as the last finished iteration.
    AggregatedDataset data;
    Policy next;
    try {
        std::vector<RewardEntry> added = collectRollouts(t, st.policy, rec, progress);
        data = st.data;
        data.add(std::move(added));
        rec.datasetStates = static_cast<long>(data.size());
        next = retrain(t, data, st.policy, rec, progress); // Improve (Alg. 2 line 14)
        evaluateNext(next, rec, progress);                 // early stopping (line 15)
        rec.seconds = secondsSince(t0);
        rec.best = rec.dev.reward > st.bestDevReward;
    } catch (const Cancelled&) {
        return false;
    }
    st.iteration = t;
    st.policy = std::move(next);
    st.data = std::move(data);
    if (rec.best) {
        st.bestIteration = t;
        st.bestDevReward = rec.dev.reward;
    }
    st.log.push_back(rec);
    return true;
}

} // namespace prunescope
