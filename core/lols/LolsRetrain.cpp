// Retraining one iteration of a LOLS run from its recorded settings (Alg. 2, sec. 7): see
// LolsRetrain.h.
#include "core/lols/LolsRetrain.h"

#include "core/lols/LolsRun.h"
#include "core/lols/RunConfig.h"
#include "core/lols/RunDirectory.h"
#include "core/policy/BaselineRetrain.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/ShellWords.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace prunescope {

namespace {
namespace fs = std::filesystem;

// The spec `prunescope-cli lols` builds from the flags lolsRetrainCommand prints (CmdLols.cpp).
LolsRunSpec specFromRecordedConfig(const nlohmann::json& c) {
    const LolsConfig recorded = LolsConfig::fromJson(c.at("lols"));
    LolsRunSpec spec;
    spec.grammar = c.at("grammar").get<std::string>();
    spec.init = c.at("init").get<std::string>();
    spec.train = c.at("train").get<std::string>();
    spec.dev = c.at("dev").get<std::string>();
    spec.lols.surrogate = recorded.surrogate;
    spec.lols.engine = recorded.engine;
    spec.lols.lambda = recorded.lambda;
    spec.lols.iterations = recorded.iterations;
    spec.lols.minibatch = recorded.minibatch;
    spec.lols.cpRolloutsPerWord = recorded.cpRolloutsPerWord;
    spec.lols.trainEvalSentences = recorded.trainEvalSentences;
    spec.lols.seed = recorded.seed;
    spec.lols.logreg.maxIterations = recorded.logreg.maxIterations; // --lbfgs-max-iterations
    spec.lols.logreg.gradientReduction =
        recorded.logreg.gradientReduction; // --lbfgs-gradient-reduction
    spec.lols.lbfgsMaxIterationsAfterFirst = recorded.lbfgsMaxIterationsAfterFirst;
    spec.maxLength = c.value("maxLength", 40);
    spec.trainLimit = c.value("trainLimit", 0);
    spec.devLimit = c.value("devLimit", 0);
    spec.q0 = c.contains("q0") && c.at("q0").is_object();
    if (spec.q0) spec.q0Scale = c.at("q0").value("scale", 1.0);
    return spec;
}

bool sameEvaluation(const PolicyEvaluation& a, const PolicyEvaluation& b) {
    return a.sentences == b.sentences && a.f1 == b.f1 && a.mpush == b.mpush &&
           a.reward == b.reward && a.accuracy == b.accuracy && a.constituents == b.constituents &&
           a.spansKept == b.spansKept;
}

// The config a retrain writes, without the keys RunDirectory adds.
nlohmann::json withoutFormat(nlohmann::json c) {
    c.erase("format");
    c.erase("version");
    c.erase("fingerprint"); // recorded by runLols when the retrain started
    return c;
}
} // namespace

std::string lolsPointId(const std::string& runDir, int iteration) {
    fs::path p = fs::path(runDir).lexically_normal();
    if (!p.has_filename() && p.has_parent_path()) p = p.parent_path();
    char iter[32];
    std::snprintf(iter, sizeof iter, "iter-%03d", iteration);
    return p.filename().string() + "/" + iter;
}

int lolsPointIteration(const std::string& pointId) {
    const std::size_t slash = pointId.rfind('/');
    const std::string last = slash == std::string::npos ? pointId : pointId.substr(slash + 1);
    if (last.size() < 6 || last.compare(0, 5, "iter-") != 0 || last.size() > 5 + 6) return -1;
    int t = 0;
    for (std::size_t i = 5; i < last.size(); ++i) {
        if (last[i] < '0' || last[i] > '9') return -1;
        t = 10 * t + (last[i] - '0');
    }
    return t;
}

LolsRetrainSettings lolsRetrainSettings(const std::string& runDir, int iteration,
                                        const std::string& dataDir) {
    LolsRetrainSettings s;
    s.runDir = runConfigPath(runDir);
    s.iteration = iteration;
    s.pointId = lolsPointId(s.runDir, iteration);
    if (iteration < 0) return s.why = "not an iteration of a LOLS run", s;
    const std::string configPath = (fs::path(s.runDir) / "config.json").string();
    char iter[32];
    std::snprintf(iter, sizeof iter, "iter-%03d.json", iteration);
    s.policyPath = (fs::path(s.runDir) / "policies" / iter).string();
    std::error_code ec;
    if (fs::exists(s.policyPath, ec)) {
        s.policyExists = true;
        return s.why = "its policy file " + s.policyPath + " exists: nothing to retrain", s;
    }
    if (!fs::exists(configPath, ec))
        return s.why = configPath + ": missing, so the run's settings are not recorded", s;
    std::string text;
    try {
        text = readFile(configPath);
        s.config = runConfigFromText(text, configPath);
    } catch (const std::exception& e) {
        return s.why = e.what(), s;
    }
    try {
        const RunDirectorySnapshot snap = readRunDirectory(s.runDir);
        bool found = false;
        for (const LolsIterationRecord& r : snap.log)
            if (r.iteration == iteration) s.recorded = r, found = true;
        if (!found) {
            const std::string logPath = (fs::path(s.runDir) / "log.jsonl").string();
            return s.why = logPath + ": iteration " + std::to_string(iteration) +
                           " was never committed" +
                           (snap.log.empty() ? std::string(" (no iteration was)")
                                             : " (the last is " +
                                                   std::to_string(snap.log.back().iteration) + ")"),
                   s;
        }
    } catch (const std::exception& e) {
        return s.why = e.what(), s;
    }
    for (auto [key, what] :
         {std::pair{"grammar", "grammar"}, std::pair{"init", "initial policy"},
          std::pair{"train", "training treebank"}, std::pair{"dev", "dev treebank"}}) {
        const std::string recorded = s.config.at(key).get<std::string>();
        const std::string found = resolveRecordedPath(recorded, configPath, dataDir);
        if (found.empty()) {
            const auto [line, column] = runConfigLocation(text, key);
            return s.why =
                       InputError(configPath, line, column,
                                  std::string("the ") + what + " '" + recorded + "' was not found")
                           .what(),
                   s;
        }
        s.config[key] = found;
    }
    s.config["lols"]["iterations"] = iteration;
    s.config.erase("fingerprint"); // the retrain is a new run: runLols records its own
    s.config["retrainedFrom"] = {{"run", s.runDir}, {"iteration", iteration}};
    return s;
}

std::string lolsRetrainCommand(const LolsRetrainSettings& s, const std::string& outDir) {
    if (s.config.is_null()) return std::string();
    const LolsRunSpec p = specFromRecordedConfig(s.config);
    std::string c =
        "prunescope-cli lols --grammar " + shellWord(p.grammar) + " --init " + shellWord(p.init) +
        " --train " + shellWord(p.train) + " --dev " + shellWord(p.dev) + " --surrogate " +
        surrogateName(p.lols.surrogate) + " --engine " + rolloutEngineName(p.lols.engine) +
        " --lambda " + exactNumber(p.lols.lambda) + " --iterations " +
        std::to_string(p.lols.iterations) + " --minibatch " + std::to_string(p.lols.minibatch) +
        " --max-len " + std::to_string(p.maxLength) + " --max-train-sentences " +
        std::to_string(p.trainLimit) + " --max-dev-sentences " + std::to_string(p.devLimit) +
        " --cp-rollouts-per-word " + std::to_string(p.lols.cpRolloutsPerWord) + " --seed " +
        std::to_string(p.lols.seed);
    if (p.lols.trainEvalSentences > 0)
        c += " --train-eval " + std::to_string(p.lols.trainEvalSentences);
    // Only when not the default, so the commands of older runs read as before.
    if (p.lols.logreg.maxIterations != LogRegOptions{}.maxIterations)
        c += " --lbfgs-max-iterations " + std::to_string(p.lols.logreg.maxIterations);
    if (p.lols.logreg.gradientReduction > 0)
        c += " --lbfgs-gradient-reduction " + exactNumber(p.lols.logreg.gradientReduction);
    if (p.lols.lbfgsMaxIterationsAfterFirst != kDefaultLbfgsMaxIterationsAfterFirst) // 0 = off
        c += " --lbfgs-max-iterations-after-first " +
             std::to_string(p.lols.lbfgsMaxIterationsAfterFirst);
    c += p.q0 ? " --q0-scale " + exactNumber(p.q0Scale) : std::string(" --no-q0");
    return c + " --out " + shellWord(outDir);
}

std::vector<std::string> lolsRetrainCommandDifferences(const LolsRetrainSettings& s) {
    std::vector<std::string> out;
    if (s.config.is_null()) return out;
    nlohmann::json given;
    try {
        given = newLolsRunConfig(specFromRecordedConfig(s.config));
    } catch (const std::exception& e) {
        return {std::string("the command fails: ") + e.what()};
    }
    auto compare = [&](const std::string& name, const nlohmann::json& recorded,
                       const nlohmann::json& flags) {
        if (recorded != flags)
            out.push_back(name + ": recorded " + recorded.dump() + ", the command gives " +
                          flags.dump());
    };
    for (const auto& [k, v] : s.config.items()) {
        if (k == "format" || k == "version" || k == "retrainedFrom") continue;
        if (k == "lols" && v.is_object()) {
            for (const auto& [lk, lv] : v.items())
                compare("lols." + lk, lv, given["lols"].value(lk, nlohmann::json()));
        } else {
            compare(k, v, given.value(k, nlohmann::json()));
        }
    }
    return out;
}

LolsRetrainResult retrainLolsPoint(const LolsRetrainSettings& s, const std::string& outDir,
                                   int threads, const Progress& progress) {
    if (!s.ok()) throw InputError(s.runDir, 0, 0, "cannot retrain " + s.pointId + ": " + s.why);
    LolsRetrainResult result;
    result.runDir = runConfigPath(outDir);
    std::error_code ec;
    if (fs::exists(result.runDir, ec) && fs::equivalent(result.runDir, s.runDir, ec))
        throw InputError(outDir, 0, 0,
                         "the retrain goes to a new run directory, not into the run it retrains");
    const bool resume = fs::exists(fs::path(result.runDir) / "config.json", ec);
    if (resume) {
        nlohmann::json there;
        try {
            there = withoutFormat(RunDirectory::open(result.runDir).config());
        } catch (const std::exception&) {
        }
        if (there != withoutFormat(s.config))
            throw InputError(outDir, 0, 0,
                             "holds another run (its config.json is not this retrain's); choose a "
                             "new directory");
    } else if (fs::exists(result.runDir, ec) && !fs::is_empty(result.runDir, ec)) {
        throw InputError(outDir, 0, 0, "exists and is not empty; choose a new directory");
    }
    RunDirectory rd =
        resume ? RunDirectory::open(result.runDir) : RunDirectory::create(result.runDir, s.config);
    if (resume) progress.log("retrain: continuing the retrain in " + result.runDir);
    LolsRunResult run;
    try {
        const LolsRunInputs in = loadLolsRunInputs(rd.config(), progress);
        LolsRunOptions opt;
        opt.threads = threads;
        run = runLols(rd, in, opt, progress);
    } catch (const Cancelled&) {
        run.cancelled = true;
    }
    if (run.cancelled) {
        result.cancelled = true;
        return result;
    }
    result.policyPath = rd.policyPath(s.iteration);
    for (const LolsIterationRecord& r : rd.log())
        if (r.iteration == s.iteration) result.retrained = r;
    result.reproduced = result.retrained.iteration == s.iteration &&
                        sameEvaluation(result.retrained.dev, s.recorded.dev);
    return result;
}

} // namespace prunescope
