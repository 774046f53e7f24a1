// prunescope-cli frontier-best: the policy maximizing accuracy - lambda * runtime among frontier
// points measured on ONE evaluation set (Vieira & Eisner 2017, sec. 7): points of a frontier.json
// and of LOLS run directories; mixed evaluation sets are refused unless --eval-set picks one.
#include "app/cli/Commands.h"
#include "app/cli/cky/RunInputsCheck.h"
#include "core/frontier/EvaluationSet.h"
#include "core/frontier/FrontierFile.h"
#include "core/lols/RunDirectory.h"
#include "core/util/Error.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace prunescope::cli {
namespace {

namespace fs = std::filesystem;

struct Candidate {
    std::string id, policy; // policy: path of the policy file, "" = none
    EvaluationSet set;
    double runtime = 0, accuracy = 0; // accuracy: F1 percent
};

double lolsRuntime(const PolicyEvaluation& e, RuntimeMeasure m) {
    return m == RuntimeMeasure::Mpush          ? e.mpush
           : m == RuntimeMeasure::Constituents ? e.constituents
                                               : e.spansKept;
}

void addFrontierPoints(const std::string& arg, RuntimeMeasure m, std::vector<Candidate>& out) {
    fs::path file(arg);
    if (fs::is_directory(file)) file /= "frontier.json";
    const FrontierData d = loadFrontier(file.string());
    for (const FrontierEntry& e : d.points)
        out.push_back({e.id, frontierPolicyPath(file.string(), e), frontierEntryEvaluationSet(d, e),
                       runtimeFromMetrics(e.metrics, m), accuracyFromMetrics(e.metrics)});
}

void addRunPoints(const std::string& dir, RuntimeMeasure m, std::vector<Candidate>& out) {
    const RunDirectorySnapshot s = readRunDirectory(dir);
    checkRunInputs(dir, s.config, /*refuse=*/true);
    const std::string name =
        fs::path(dir).lexically_normal().filename().string().empty()
            ? fs::path(dir).lexically_normal().parent_path().filename().string()
            : fs::path(dir).lexically_normal().filename().string();
    for (const LolsIterationRecord& r : s.log) {
        char iter[32];
        std::snprintf(iter, sizeof iter, "iter-%03d", r.iteration);
        out.push_back({name + "/" + iter,
                       (fs::path(dir) / "policies" / (std::string(iter) + ".json")).string(),
                       lolsDevEvaluationSet(s.config, r.dev.sentences), lolsRuntime(r.dev, m),
                       r.dev.f1});
    }
}

std::string setList(const std::vector<EvaluationSetCount>& sets) {
    std::string s;
    for (const auto& c : sets)
        s += "\n  --eval-set " + c.set.key() + "   (" + c.set.label() +
             "): " + std::to_string(c.points) + " point" + (c.points == 1 ? "" : "s");
    return s;
}

struct FrontierBestOptions {
    std::vector<std::string> frontiers, runs;
    std::string runtime = "mpush", evalSet;
    double lambda = 0;
    bool listSets = false, json = false;
    CLI::Option* lambdaGiven = nullptr; // --lambda, required unless --list-sets
};

void declareFrontierBestOptions(CLI::App* sub, FrontierBestOptions& o) {
    sub->add_option("--frontier", o.frontiers,
                    "frontier.json (or the directory holding it); repeatable");
    sub->add_option("--run", o.runs,
                    "LOLS run directory (its iterations' dev evaluations); repeatable");
    o.lambdaGiven =
        sub->add_option("--lambda", o.lambda, "Trade-off in F1 percent per unit of --runtime")
            ->check(CLI::NonNegativeNumber);
    sub->add_option("--runtime", o.runtime, "mpush, constituents or spansKept")
        ->capture_default_str();
    sub->add_option("--eval-set", o.evalSet,
                    "Compare only the points of this evaluation set (a key --list-sets prints)");
    sub->add_flag("--list-sets", o.listSets,
                  "Print the evaluation sets and their point counts, then stop");
    sub->add_flag("--json", o.json, "Print the choice as JSON");
}

// Every point of every --frontier and --run; refuses none.
std::vector<Candidate> collectCandidates(const FrontierBestOptions& o, RuntimeMeasure m) {
    std::vector<Candidate> all;
    for (const auto& f : o.frontiers)
        addFrontierPoints(f, m, all);
    for (const auto& r : o.runs)
        addRunPoints(r, m, all);
    if (all.empty())
        throw std::invalid_argument("frontier-best: no points (give --frontier and/or --run)");
    return all;
}

// The chosen point among those compared, with its reward and optimal lambda range.
struct FrontierChoice {
    const Candidate& c;
    std::string key;
    std::size_t compared, others;
    double reward;
    LambdaRange range;
};

void printChoiceJson(const FrontierChoice& ch, double lambda, RuntimeMeasure m) {
    const Candidate& c = ch.c;
    const LambdaRange& r = ch.range;
    nlohmann::json j = {
        {"id", c.id},
        {"policy", c.policy.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.policy)},
        {"evaluationSet", c.set.toJson()},
        {"evaluationSetKey", ch.key},
        {"lambda", lambda},
        {"lambdaUnit", lambdaUnitFor(m)},
        {"runtime", c.runtime},
        {"f1", c.accuracy},
        {"reward", ch.reward},
        {"comparedPoints", ch.compared},
        {"otherPoints", ch.others}};
    j["lambdaRange"] = r.empty ? nlohmann::json(nullptr)
                               : nlohmann::json{r.lo, std::isinf(r.hi) ? nlohmann::json(nullptr)
                                                                       : nlohmann::json(r.hi)};
    std::cout << j.dump(2) << "\n";
}

void printChoiceText(const FrontierChoice& ch, double lambda, RuntimeMeasure m) {
    const Candidate& c = ch.c;
    std::printf("evaluation set %s (%s): %zu point%s compared", ch.key.c_str(),
                c.set.label().c_str(), ch.compared, ch.compared == 1 ? "" : "s");
    if (ch.others > 0) std::printf(", %zu on other sets left out", ch.others);
    std::printf("\nbest for lambda %g (%s): %s  F1 %.2f  %s %.6g  reward %.6g\npolicy: %s\n",
                lambda, lambdaUnitFor(m).c_str(), c.id.c_str(), c.accuracy, runtimeMeasureName(m),
                c.runtime, ch.reward, c.policy.empty() ? "(none)" : c.policy.c_str());
}

int runFrontierBest(const FrontierBestOptions& o) {
    const RuntimeMeasure m = runtimeMeasureFromName(o.runtime);
    const std::vector<Candidate> all = collectCandidates(o, m);
    std::vector<EvaluationSet> sets;
    for (const auto& c : all)
        sets.push_back(c.set);
    const std::vector<EvaluationSetCount> counts = countEvaluationSets(sets);
    if (o.listSets) {
        std::cout << "evaluation sets:" << setList(counts) << "\n";
        return 0;
    }
    if (o.lambdaGiven->count() == 0)
        throw std::invalid_argument("frontier-best: --lambda is required");
    std::string key = o.evalSet;
    if (key.empty()) {
        if (counts.size() > 1) {
            std::cerr << "error: frontier-best: the " << all.size() << " points come from "
                      << counts.size()
                      << " evaluation sets, whose F1 and runtime are not comparable; choose one:"
                      << setList(counts) << "\n";
            return 2;
        }
        key = counts.front().set.key();
    }
    std::vector<FrontierPoint> pts;
    std::vector<const Candidate*> shown;
    for (const auto& c : all)
        if (c.set.key() == key) pts.push_back({c.runtime, c.accuracy, c.id}), shown.push_back(&c);
    if (pts.empty()) {
        std::cerr << "error: frontier-best: no point was evaluated on '" << key
                  << "'; the sets are:" << setList(counts) << "\n";
        return 2;
    }
    const int best = bestForLambda(pts, o.lambda);
    const Candidate& c = *shown[static_cast<std::size_t>(best)];
    const FrontierChoice choice{c,
                                key,
                                pts.size(),
                                all.size() - pts.size(),
                                c.accuracy - o.lambda * c.runtime,
                                optimalLambdaRanges(pts)[static_cast<std::size_t>(best)]};
    if (o.json)
        printChoiceJson(choice, o.lambda, m);
    else
        printChoiceText(choice, o.lambda, m);
    return 0;
}

} // namespace

void addFrontierBestCommand(CLI::App& app) {
    addCommand<FrontierBestOptions>(
        app, "frontier-best",
        "The policy maximizing F1 - lambda * runtime among frontier points evaluated on one "
        "evaluation set (frontier.json files and LOLS run directories); refuses mixed sets",
        declareFrontierBestOptions, runFrontierBest);
}

} // namespace prunescope::cli
