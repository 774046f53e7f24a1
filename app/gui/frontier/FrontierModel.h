#pragma once
// Every known policy as a runtime/accuracy point (Vieira & Eisner 2017, sec. 7): the baseline
// sweep of a frontier.json and the iterations of LOLS run directories, with the measure-dependent
// derived quantities (Pareto frontier, footnote-12 sigmoid over the baseline points, lambda_i,
// optimal-lambda ranges) recomputed for the chosen runtime and accuracy measures.
#include "core/frontier/EvaluationSet.h"
#include "core/frontier/FrontierFile.h"
#include "core/lols/LolsTrainer.h"
#include "widgets/FrontierPlot.h"

#include <QString>

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope::gui {

enum class AccuracyMeasure { F1, ExpectedRecall };
QString accuracyMeasureLabel(AccuracyMeasure a); // "F1 (%)" | "expected recall (%)"

struct PolicyRecord {
    QString id;         // unique within the model
    QString policyPath; // absolute; empty = no file (the unpruned parser)
    widgets::PlotPolicyKind kind = widgets::PlotPolicyKind::Baseline;
    // Normalized metrics: "f1" (percent), "mpush", "constituents", "spansKept" (means per
    // sentence), optional "expectedRecall" (percent); "source" keeps the original metrics.
    nlohmann::json metrics = nlohmann::json::object();
    QString source;     // frontier.json or run directory it came from
    QString run;        // run directory (LOLS) or empty
    int iteration = -1; // LOLS iteration
    nlohmann::json training = nlohmann::json::object();
    EvaluationSet
        evaluation; // where the metrics were measured; only points of one set are compared
    std::optional<double> value(const char* key) const;
};

class FrontierModel {
  public:
    // Adds every point (and the unpruned parser) of a frontier.json; throws InputError.
    void addFrontierFile(const QString& path);
    // Adds or updates (same run + iteration) the point of one committed LOLS iteration.
    void addLolsIteration(const QString& runDir, const LolsIterationRecord& r,
                          const nlohmann::json& config);
    void clear() {
        records_.clear();
        firstFileSet_.clear();
    }
    const std::vector<PolicyRecord>& records() const { return records_; }
    int find(const QString& run, int iteration) const; // record index or -1
    // A retrained policy file for record r (FrontierRetrain.cpp): the point becomes loadable.
    void setPolicyPath(int r, const QString& path) {
        records_.at(static_cast<std::size_t>(r)).policyPath = path;
    }

    // The evaluation sets of the policies (the unpruned parser not counted), most points first.
    std::vector<EvaluationSetCount> evaluationSets() const;
    // The set to show when none is chosen: the first opened frontier file's, else the largest.
    std::string defaultEvaluationSet() const;

    // The shown points: records having both measures, evaluated on the set evalSet (a key of
    // EvaluationSet; "" = every set, for callers that compare nothing). shownRecord[i] = record
    // index of point i; hiddenOtherSets counts the records left out for their evaluation set.
    struct View {
        widgets::FrontierPlotData plot;
        std::vector<FrontierPoint> points;
        std::vector<int> shownRecord;
        QString lambdaUnit;
        std::string evaluationSet;
        int hiddenOtherSets = 0;
    };
    View view(RuntimeMeasure rt, AccuracyMeasure acc, bool includeUnpruned = false,
              const std::string& evalSet = std::string()) const;
    // How many sigmoid fits view() has computed (the rest came from the cache).
    int fitsComputed() const { return fitsComputed_; }

  private:
    // The last sigmoid fit and the points it was fitted to: a fit takes ~100 ms (multistart
    // Levenberg-Marquardt) and its input, the baseline points, does not change while LOLS
    // iterations arrive, so a committed iteration does not refit (docs/benchmarks.md, stall).
    struct FitCache {
        std::vector<std::pair<double, double>> points; // (runtime, accuracy) in fit order
        std::optional<SigmoidFit> fit;                 // empty: the fit threw
        bool valid = false;
    };
    std::optional<SigmoidFit> cachedFit(const std::vector<FrontierPoint>& pts) const;

    std::vector<PolicyRecord> records_;
    std::string firstFileSet_;
    mutable FitCache fitCache_;
    mutable int fitsComputed_ = 0;
};

// Key of a runtime measure in PolicyRecord::metrics.
const char* runtimeKey(RuntimeMeasure m);

} // namespace prunescope::gui
