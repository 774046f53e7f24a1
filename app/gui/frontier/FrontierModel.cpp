// Known policies as frontier points (Vieira & Eisner 2017, sec. 7, footnote 12): see
// FrontierModel.h.
#include "app/gui/frontier/FrontierModel.h"

#include "core/rollout/Rollout.h"

#include <QDir>
#include <QFileInfo>

#include <cmath>
#include <stdexcept>

namespace prunescope::gui {

QString accuracyMeasureLabel(AccuracyMeasure a) {
    return a == AccuracyMeasure::F1 ? "F1 (%)" : "expected binarized recall (%)";
}

const char* runtimeKey(RuntimeMeasure m) {
    switch (m) {
    case RuntimeMeasure::Mpush:
        return "mpush";
    case RuntimeMeasure::Constituents:
        return "constituents";
    default:
        return "spansKept";
    }
}

std::optional<double> PolicyRecord::value(const char* key) const {
    const auto it = metrics.find(key);
    if (it == metrics.end() || !it->is_number()) return std::nullopt;
    const double v = it->get<double>();
    if (!std::isfinite(v)) return std::nullopt;
    return v;
}

void FrontierModel::addFrontierFile(const QString& path) {
    const FrontierData d = loadFrontier(path.toStdString());
    if (firstFileSet_.empty() && !d.points.empty())
        firstFileSet_ = frontierEntryEvaluationSet(d, d.points.front()).key();
    const QString abs = QFileInfo(path).absoluteFilePath();
    auto normalized = [](const nlohmann::json& m) {
        nlohmann::json j = {{"source", m}};
        if (m.contains("f1")) j["f1"] = 100 * m["f1"].get<double>();
        for (auto [from, to] :
             {std::pair{"meanMpush", "mpush"}, std::pair{"meanConstituents", "constituents"},
              std::pair{"meanSpansKept", "spansKept"}})
            if (m.contains(from) && m[from].is_number()) j[to] = m[from];
        return j;
    };
    for (const FrontierEntry& e : d.points) {
        PolicyRecord r;
        r.id = QString::fromStdString(e.id);
        const std::string p = frontierPolicyPath(path.toStdString(), e);
        r.policyPath =
            p.empty() ? QString() : QFileInfo(QString::fromStdString(p)).absoluteFilePath();
        r.kind = r.id.startsWith("baseline") || e.training.contains("positiveWeight")
                     ? widgets::PlotPolicyKind::Baseline
                     : widgets::PlotPolicyKind::Other;
        r.metrics = normalized(e.metrics);
        r.source = abs;
        r.training = e.training;
        r.evaluation = frontierEntryEvaluationSet(d, e);
        records_.erase(std::remove_if(records_.begin(), records_.end(),
                                      [&](const PolicyRecord& o) { return o.id == r.id; }),
                       records_.end());
        records_.push_back(std::move(r));
    }
    if (d.unpruned.is_object()) {
        PolicyRecord r;
        r.id = "unpruned";
        r.kind = widgets::PlotPolicyKind::Unpruned;
        r.metrics = normalized(d.unpruned);
        r.source = abs;
        r.evaluation = frontierUnprunedEvaluationSet(d);
        records_.erase(std::remove_if(records_.begin(), records_.end(),
                                      [&](const PolicyRecord& o) { return o.id == r.id; }),
                       records_.end());
        records_.push_back(std::move(r));
    }
}

int FrontierModel::find(const QString& run, int iteration) const {
    for (int i = 0; i < static_cast<int>(records_.size()); ++i)
        if (records_[static_cast<std::size_t>(i)].run == run &&
            records_[static_cast<std::size_t>(i)].iteration == iteration)
            return i;
    return -1;
}

void FrontierModel::addLolsIteration(const QString& runDir, const LolsIterationRecord& rec,
                                     const nlohmann::json& config) {
    const QString run = QFileInfo(runDir).absoluteFilePath();
    PolicyRecord r;
    r.id =
        QString("%1/iter-%2").arg(QFileInfo(run).fileName()).arg(rec.iteration, 3, 10, QChar('0'));
    r.policyPath =
        QDir(run).filePath(QString("policies/iter-%1.json").arg(rec.iteration, 3, 10, QChar('0')));
    r.kind = widgets::PlotPolicyKind::Lols;
    const PolicyEvaluation& e = rec.dev;
    r.metrics = {{"f1", e.f1},
                 {"mpush", e.mpush},
                 {"constituents", e.constituents},
                 {"spansKept", e.spansKept},
                 {"source", rec.toJson()}};
    // The rDP surrogate's accuracy is the expected binarized recall (footnote 11).
    const nlohmann::json lols = config.value("lols", nlohmann::json::object());
    if (lols.value("surrogate", std::string()) == surrogateName(Surrogate::DP) &&
        std::isfinite(e.accuracy))
        r.metrics["expectedRecall"] = 100 * e.accuracy;
    r.source = run;
    r.run = run;
    r.iteration = rec.iteration;
    r.training = {{"lols", lols}, {"iteration", rec.iteration}, {"best", rec.best}};
    r.evaluation = lolsDevEvaluationSet(config, e.sentences);
    if (const int at = find(run, rec.iteration); at >= 0)
        records_[static_cast<std::size_t>(at)] = std::move(r);
    else
        records_.push_back(std::move(r));
}

std::vector<EvaluationSetCount> FrontierModel::evaluationSets() const {
    std::vector<EvaluationSet> sets;
    for (const PolicyRecord& r : records_)
        if (r.kind != widgets::PlotPolicyKind::Unpruned) sets.push_back(r.evaluation);
    return countEvaluationSets(sets);
}

std::string FrontierModel::defaultEvaluationSet() const {
    const auto sets = evaluationSets();
    for (const auto& c : sets)
        if (c.set.key() == firstFileSet_) return firstFileSet_;
    return sets.empty() ? std::string() : sets.front().set.key();
}

std::optional<SigmoidFit> FrontierModel::cachedFit(const std::vector<FrontierPoint>& pts) const {
    std::vector<std::pair<double, double>> key;
    key.reserve(pts.size());
    for (const FrontierPoint& p : pts)
        key.emplace_back(p.runtime, p.accuracy);
    if (fitCache_.valid && fitCache_.points == key) return fitCache_.fit;
    fitCache_.points = std::move(key);
    fitCache_.valid = true;
    ++fitsComputed_;
    try {
        fitCache_.fit = fitSigmoid(pts);
    } catch (const std::exception&) {
        fitCache_.fit.reset();
    }
    return fitCache_.fit;
}

FrontierModel::View FrontierModel::view(RuntimeMeasure rt, AccuracyMeasure acc,
                                        bool includeUnpruned, const std::string& evalSet) const {
    View v;
    v.evaluationSet = evalSet;
    const char* accKey = acc == AccuracyMeasure::F1 ? "f1" : "expectedRecall";
    std::vector<QString> runs;
    for (int i = 0; i < static_cast<int>(records_.size()); ++i) {
        const PolicyRecord& r = records_[static_cast<std::size_t>(i)];
        if (r.kind == widgets::PlotPolicyKind::Unpruned && !includeUnpruned) continue;
        if (!evalSet.empty() && r.evaluation.key() != evalSet) {
            if (r.kind != widgets::PlotPolicyKind::Unpruned) ++v.hiddenOtherSets;
            continue;
        }
        const auto x = r.value(runtimeKey(rt));
        const auto y = r.value(accKey);
        if (!x || !y) continue;
        widgets::PlotPolicy p;
        p.runtime = *x;
        p.accuracy = *y;
        p.id = r.id;
        p.kind = r.kind;
        v.plot.points.push_back(p);
        v.points.push_back({*x, *y, r.id.toStdString()});
        v.shownRecord.push_back(i);
    }
    // Pareto frontier and lambda ranges among all shown points; the sigmoid over the baseline
    // points (the paper fits the baseline frontier), or all points when there are too few.
    for (int i : paretoFrontier(v.points))
        v.plot.points[static_cast<std::size_t>(i)].onFrontier = true;
    const auto ranges = optimalLambdaRanges(v.points);
    for (std::size_t i = 0; i < ranges.size(); ++i)
        v.plot.points[i].lambdaRange = ranges[i];
    std::vector<FrontierPoint> fitPts;
    for (std::size_t i = 0; i < v.points.size(); ++i)
        if (v.plot.points[i].kind == widgets::PlotPolicyKind::Baseline)
            fitPts.push_back(v.points[i]);
    if (fitPts.size() < 4) fitPts = v.points;
    v.plot.fit = cachedFit(fitPts);
    if (v.plot.fit)
        for (std::size_t i = 0; i < v.points.size(); ++i)
            if (v.plot.points[i].kind == widgets::PlotPolicyKind::Baseline)
                v.plot.points[i].lambda = v.plot.fit->slope(v.points[i].runtime);
    // LOLS trajectories in iteration order.
    for (std::size_t i = 0; i < v.shownRecord.size(); ++i) {
        const PolicyRecord& r = records_[static_cast<std::size_t>(v.shownRecord[i])];
        if (r.run.isEmpty()) continue;
        auto it = std::find(runs.begin(), runs.end(), r.run);
        if (it == runs.end()) runs.push_back(r.run), v.plot.trajectories.emplace_back();
        v.plot
            .trajectories[static_cast<std::size_t>(std::find(runs.begin(), runs.end(), r.run) -
                                                   runs.begin())]
            .push_back(static_cast<int>(i));
    }
    for (auto& t : v.plot.trajectories)
        std::sort(t.begin(), t.end(), [&](int a, int b) {
            return records_[static_cast<std::size_t>(v.shownRecord[static_cast<std::size_t>(a)])]
                       .iteration <
                   records_[static_cast<std::size_t>(v.shownRecord[static_cast<std::size_t>(b)])]
                       .iteration;
        });
    v.plot.xLabel = QString::fromStdString(runtimeMeasureAxisLabel(rt));
    v.plot.yLabel = accuracyMeasureLabel(acc);
    v.lambdaUnit = acc == AccuracyMeasure::F1
                       ? QString::fromStdString(lambdaUnitFor(rt))
                       : QString("recall percent per %1").arg(runtimeKey(rt));
    return v;
}

} // namespace prunescope::gui
