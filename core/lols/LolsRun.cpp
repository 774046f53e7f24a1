// LOLS runs over a run directory (Alg. 2, sec. 7 setup): config, inputs, the driver (LolsRun.h).
#include "core/lols/LolsRun.h"
#include "core/lols/RunConfig.h"
#include "core/lols/RunFingerprint.h"
#include "core/lols/SurrogateLambda.h"

#include "core/grammar/GrammarFile.h"
#include "core/lols/LolsTrainer.h"
#include "core/policy/Baseline.h"
#include "core/treebank/Normalize.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"

#include <cmath>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace prunescope {

namespace {
std::vector<LolsSentence> firstN(std::vector<LolsSentence> s, int limit) {
    if (limit > 0 && static_cast<int>(s.size()) > limit) s.resize(static_cast<std::size_t>(limit));
    return s;
}
} // namespace

std::string runConfigPath(const std::string& path) {
    if (path.empty()) return path;
    std::filesystem::path p = std::filesystem::absolute(path).lexically_normal();
    if (!p.has_filename() && p.has_parent_path() && p != p.root_path())
        p = p.parent_path(); // "dir/" -> "dir"
    return p.string();
}

nlohmann::json newLolsRunConfig(const LolsRunSpec& spec) {
    const Policy init = loadPolicy(spec.init);
    LolsConfig c = spec.lols;
    c.threads = 0; // never affects results; not recorded
    c.lambda = surrogateLambda(c.lambda, init.meta,
                               c.surrogate); // issue 19: never a frontier lambda silently
    if (init.meta.training.contains("l2"))
        c.logreg.l2 = init.meta.training["l2"].get<double>(); // sec. 6
    return {{"lols", c.toJson()},
            {"grammar", runConfigPath(spec.grammar)},
            {"init", runConfigPath(spec.init)},
            {"train", runConfigPath(spec.train)},
            {"dev", runConfigPath(spec.dev)},
            {"maxLength", spec.maxLength},
            {"trainLimit", spec.trainLimit},
            {"devLimit", spec.devLimit},
            {"q0", spec.q0 ? nlohmann::json{{"positiveWeight",
                                             init.meta.training.value("positiveWeight", 1.0)},
                                            {"scale", spec.q0Scale}}
                           : nlohmann::json(nullptr)}};
}

LolsRunInputs loadLolsRunInputs(const nlohmann::json& config, const Progress& progress) {
    LolsRunInputs in;
    in.grammar = loadGrammar(config.at("grammar").get<std::string>());
    in.maxLength = config.value("maxLength", 40);
    in.trainTrees = readNormalizedTreebank(config.at("train").get<std::string>(), 0, progress);
    in.train = firstN(lolsSentences(in.trainTrees, in.maxLength, &in.treeIndex),
                      config.value("trainLimit", 0));
    in.dev = firstN(
        evaluationSentences(
            readNormalizedTreebank(config.at("dev").get<std::string>(), 0, progress), in.maxLength),
        config.value("devLimit", 0));
    // Training on nothing would still write best.json (issue 46): refused, naming the treebank.
    for (const auto& [key, sentences] : {std::pair{"train", &in.train}, std::pair{"dev", &in.dev}})
        if (sentences->empty())
            throw InputError(config.at(key).get<std::string>(), 0, 0,
                             std::string("no ") + key + " sentence within maxLength " +
                                 std::to_string(in.maxLength) +
                                 (config.value(std::string(key) + "Limit", 0) > 0
                                      ? " and the " + std::string(key) + "Limit"
                                      : std::string()) +
                                 " to train on");
    return in;
}

AggregatedDataset initialDataset(const LolsRunInputs& in, std::size_t trainCount,
                                 const nlohmann::json& config, const Progress& progress) {
    AggregatedDataset q0;
    if (!config.contains("q0") || config.at("q0").is_null()) return q0;
    const nlohmann::json& spec = config.at("q0");
    const auto ex = baselineExamples(in.grammar, in.trainTrees, in.maxLength,
                                     spec.value("positiveWeight", 1.0), progress);
    std::vector<SpanOrigin> origin;
    origin.reserve(ex.origin.size());
    for (const auto& r : ex.origin)
        origin.push_back({r.sentence, r.i, r.k});
    std::vector<int> sentenceOfTree(in.trainTrees.size(), -1);
    for (std::size_t x = 0; x < trainCount; ++x)
        sentenceOfTree[in.treeIndex[x]] = static_cast<int>(x);
    return datasetFromExamples(ex.examples, origin, sentenceOfTree, spec.value("scale", 1.0));
}

LolsRunResult runLols(RunDirectory& rd, const LolsRunInputs& in, const LolsRunOptions& opt,
                      const Progress& progress) {
    if (const int swept = rd.removeStaleTemporaries(); swept > 0)
        progress.log("lols: removed " + std::to_string(swept) +
                     " temporary file(s) a killed run left in " + rd.path());
    nlohmann::json config = rd.config();
    {
        // Run integrity (RunFingerprint.h): the inputs and settings the run started with.
        const nlohmann::json current = runInputsFingerprint(config, in.train, in.dev);
        const FingerprintCheck fp = checkRunFingerprint(config, current);
        if (!fp.changes.empty()) {
            const auto [line, column] = runConfigLocation(readFile(rd.configPath()), "fingerprint");
            throw InputError(rd.configPath(), line, column,
                             fp.message() +
                                 "; refusing to resume (restore the inputs or start a new run)");
        }
        if (!fp.recorded) {
            if (!rd.log().empty())
                progress.log("lols: warning: " + rd.configPath() +
                             " has no fingerprint (a run from before it): the inputs cannot be "
                             "checked against the ones the run started with; recording today's");
            config["fingerprint"] = current;
            rd.writeConfig(config);
        }
    }
    LolsConfig cfg = LolsConfig::fromJson(config.at("lols"));
    cfg.threads = opt.threads;
    LolsTrainer trainer(in.grammar, in.train, in.dev, cfg);
    trainer.setDistributor(opt.distributor);
    {
        std::ostringstream s;
        s << "lols: " << trainer.train().size() << " train / " << trainer.dev().size()
          << " dev sentences, " << surrogateName(cfg.surrogate) << " ("
          << rolloutEngineName(cfg.engine) << "), lambda " << cfg.lambda << ", "
          << trainer.threads() << " threads";
        if (opt.ranks > 1) s << " x " << opt.ranks << " ranks";
        progress.log(s.str());
    }
    LolsRunResult result;
    LolsState& st = result.state;
    auto commit = [&] {
        rd.commit(st);
        if (opt.onCommit) opt.onCommit(st);
    };
    try {
        if (!rd.log().empty()) {
            st = rd.restore();
            progress.log("lols: resuming after iteration " + std::to_string(st.iteration));
        } else {
            const Policy init = loadPolicy(config.at("init").get<std::string>());
            AggregatedDataset q0 = initialDataset(in, trainer.train().size(), config, progress);
            if (!config.at("q0").is_null())
                progress.log("lols: Q0 has " + std::to_string(q0.size()) + " states");
            st = trainer.start(init, std::move(q0), progress);
            commit();
        }
    } catch (const Cancelled&) {
        result.cancelled = true;
        return result;
    }
    while (st.iteration < cfg.iterations) {
        if (!trainer.step(st, progress)) {
            result.cancelled = true;
            return result;
        }
        commit();
    }
    return result;
}

} // namespace prunescope
