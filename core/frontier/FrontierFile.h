#pragma once
// frontier.json: a set of evaluated policies as runtime/accuracy points, their Pareto frontier, the
// footnote-12 sigmoid fit, each point's lambda and the range of lambda for which it is optimal
// (Vieira & Eisner 2017, sec. 7 and footnote 12). Schema: docs/results.md "frontier.json".
#include "core/frontier/Frontier.h"

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope {

inline constexpr const char* kFrontierFormat = "prunescope-frontier";
constexpr int kFrontierFormatVersion = 1;

// The runtime axis: mean per sentence of pushes / 1e6, of constituents built (||β||_0) or of
// spans kept (||m||_0), read from CorpusResult::summaryJson() keys meanMpush / meanConstituents /
// meanSpansKept. Accuracy is always corpus EVALB F1 in percent (100 * "f1").
enum class RuntimeMeasure { Mpush, Constituents, SpansKept };
const char* runtimeMeasureName(RuntimeMeasure m); // "mpush" | "constituents" | "spansKept"
RuntimeMeasure runtimeMeasureFromName(const std::string& name); // throws std::invalid_argument
const char* runtimeMeasureMetricKey(RuntimeMeasure m);          // "meanMpush" | ...
std::string runtimeMeasureAxisLabel(RuntimeMeasure m);          // "mega-pushes per sentence" | ...
std::string lambdaUnitFor(RuntimeMeasure m);                    // "F1 percent per mpush" | ...
// The measure a λ unit is per (the inverse of lambdaUnitFor); Mpush for an unknown or empty unit.
RuntimeMeasure runtimeMeasureForLambdaUnit(const std::string& unit);
// A parse's runtime in that measure: mpush = pushes / 10^6, constituents built, or spans kept.
double parseRuntime(RuntimeMeasure m, long pushes, long constituents, int spansKept);
// Throws std::invalid_argument if the metric is missing or not a number.
double runtimeFromMetrics(const nlohmann::json& metrics, RuntimeMeasure m);
double accuracyFromMetrics(const nlohmann::json& metrics); // 100 * metrics["f1"]

struct FrontierEntry {
    std::string id;     // unique, e.g. "baseline-w16"
    std::string policy; // path relative to the frontier file's directory; "" = none
    nlohmann::json training = nlohmann::json::object(); // e.g. positiveWeight, l2
    nlohmann::json metrics =
        nlohmann::json::object(); // CorpusResult::summaryJson() on the evaluation data
    // Derived by refitFrontier:
    double runtime = 0, accuracy = 0;
    double lambda = std::numeric_limits<double>::quiet_NaN(); // h'(runtime); NaN = no fit
    LambdaRange lambdaRange; // where this point maximizes accuracy - lambda*runtime
    bool onFrontier = false;
};

struct FrontierData {
    RuntimeMeasure runtimeMeasure = RuntimeMeasure::Mpush;
    std::string lambdaUnit; // lambdaUnitFor(runtimeMeasure)
    std::string grammar;    // the grammar the policies prune for
    nlohmann::json evaluation =
        nlohmann::json::object();  // {"split", "treebank", "maxLength"}: where metrics come from
    nlohmann::json unpruned;       // metrics of the unpruned parser on the same data, or null
    std::optional<SigmoidFit> fit; // none if fewer than 4 usable points
    std::vector<FrontierEntry> points;
    std::vector<int> frontier; // Pareto-optimal point indices, by runtime
    nlohmann::json info =
        nlohmann::json::object(); // free-form (training set, l2 selection, timings)
};

// Recomputes every derived field for runtime measure m: runtime/accuracy from metrics, the Pareto
// frontier, the sigmoid fit over all points (fitSigmoid; no fit if it throws), lambda_i = h'(x_i)
// and the optimal-lambda ranges.
void refitFrontier(FrontierData& d, RuntimeMeasure m);

std::string frontierToJson(const FrontierData& d);
// Parses and validates (types, ranges, unique ids, derived fields consistent with the metrics and
// with each other); every problem is an InputError naming fileName (line:column for bad JSON).
FrontierData frontierFromJson(const std::string& text, const std::string& fileName);

void saveFrontier(const FrontierData& d, const std::string& path); // atomic (AtomicFile)
FrontierData loadFrontier(const std::string& path);

// The policy file of point e resolved against the directory of the frontier file; "" if none.
std::string frontierPolicyPath(const std::string& frontierPath, const FrontierEntry& e);

} // namespace prunescope
