// Retraining a baseline frontier point (Vieira & Eisner 2017, sec. 7): see BaselineRetrain.h.
#include "core/policy/BaselineRetrain.h"

#include "core/grammar/GrammarFile.h"
#include "core/policy/Baseline.h"
#include "core/treebank/Normalize.h"
#include "core/util/Error.h"
#include "core/util/ShellWords.h"

#include <cmath>
#include <filesystem>

namespace prunescope {

namespace {
namespace fs = std::filesystem;

} // namespace

std::string resolveRecordedPath(const std::string& recorded, const std::string& frontierPath,
                                const std::string& dataDir) {
    if (recorded.empty()) return std::string();
    std::error_code ec;
    const fs::path p(recorded);
    if (p.is_absolute() && fs::exists(p, ec)) return p.lexically_normal().string();
    // The data folder the user named (PRUNESCOPE_DATA) wins over guesses: a recorded
    // "../shared/data/ptb-sample/train" means "ptb-sample/train of the data".
    if (!dataDir.empty()) {
        const fs::path tail =
            p.lexically_normal().parent_path().filename() / p.lexically_normal().filename();
        if (fs::exists(fs::path(dataDir) / tail, ec))
            return (fs::path(dataDir) / tail).lexically_normal().string();
    }
    if (p.is_relative()) {
        for (fs::path dir = fs::absolute(fs::path(frontierPath), ec).parent_path(); !dir.empty();
             dir = dir.parent_path()) {
            if (fs::exists(dir / p, ec)) return (dir / p).lexically_normal().string();
            if (dir == dir.parent_path()) break;
        }
        // Last: relative to the working directory, which may be anywhere.
        if (fs::exists(p, ec)) return fs::absolute(p, ec).lexically_normal().string();
    }
    return std::string();
}

BaselineRetrainSettings baselineRetrainSettings(const FrontierData& d,
                                                const std::string& frontierPath,
                                                const std::string& pointId,
                                                const std::string& dataDir) {
    BaselineRetrainSettings s;
    s.pointId = pointId;
    const FrontierEntry* e = nullptr;
    for (const auto& p : d.points)
        if (p.id == pointId) e = &p;
    if (!e) return s.why = pointId + " is not a point of " + frontierPath, s;
    const auto w = e->training.find("positiveWeight");
    const auto l = e->training.find("l2");
    if (w == e->training.end() || !w->is_number() || l == e->training.end() || !l->is_number())
        return s.why = pointId + " has no recorded training settings (positiveWeight and l2)", s;
    s.positiveWeight = w->get<double>();
    s.l2 = l->get<double>();
    const nlohmann::json train = d.info.value("train", nlohmann::json::object());
    if (!train.is_object() || !train.contains("treebank") || !train["treebank"].is_string())
        return s.why = frontierPath + " records no training treebank (info.train.treebank)", s;
    s.maxTrainLength = train.value("maxLength", 40);
    s.trainSentences = train.value("firstTrees", 0);
    s.maxDevLength = d.evaluation.value("maxLength", 40);
    auto resolve = [&](const std::string& recorded, const char* what, std::string& out) {
        out = resolveRecordedPath(recorded, frontierPath, dataDir);
        if (out.empty() && s.why.empty())
            s.why = std::string("its ") + what + " '" + recorded + "' was not found";
    };
    resolve(train["treebank"].get<std::string>(), "training treebank", s.train);
    resolve(d.evaluation.value("treebank", std::string()), "dev treebank", s.dev);
    resolve(d.grammar, "grammar", s.grammar);
    return s;
}

std::string baselineRetrainCommand(const BaselineRetrainSettings& s, const std::string& outDir) {
    return "prunescope-cli baseline --grammar " + shellWord(s.grammar) + " --train " +
           shellWord(s.train) + " --dev " + shellWord(s.dev) + " --weights " +
           exactNumber(s.positiveWeight) + " --l2 " + exactNumber(s.l2) + " --max-train-len " +
           std::to_string(s.maxTrainLength) + " --max-dev-len " + std::to_string(s.maxDevLength) +
           " --max-train-sentences " + std::to_string(s.trainSentences) + " --out " +
           shellWord(outDir);
}

RetrainedPoint retrainBaselinePoint(const BaselineRetrainSettings& s, const Progress& progress) {
    if (!s.ok()) throw InputError(s.pointId, 0, 0, "cannot retrain: " + s.why);
    const Grammar g = loadGrammar(s.grammar);
    const std::vector<Tree> train = readNormalizedTreebank(
        s.train, static_cast<std::size_t>(std::max(0, s.trainSentences)), progress);
    const std::vector<Tree> dev = readNormalizedTreebank(s.dev, 0, progress);
    BaselineOptions bo;
    bo.positiveWeights = {s.positiveWeight};
    bo.l2Grid = {s.l2};
    bo.maxTrainLength = s.maxTrainLength;
    bo.maxDevLength = s.maxDevLength;
    bo.grammarName = s.grammar;
    BaselineRun run = runBaseline(g, train, dev, bo, progress);
    const BaselinePoint& p = run.best().points.at(0);
    RetrainedPoint out{p.policy, p.devMetrics};
    out.policy.meta.name = s.pointId;
    out.policy.meta.devMetrics = p.devMetrics;
    out.policy.meta.devMetrics["split"] = "dev";
    out.policy.meta.devMetrics["maxLength"] = s.maxDevLength;
    out.policy.meta.training["retrainedFrom"] = "recorded frontier settings";
    return out;
}

} // namespace prunescope
