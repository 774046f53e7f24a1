// The frontier window's choice of policy (Vieira & Eisner 2017, sec. 7): the evaluation-set
// selector (only one set is compared), the policy maximizing accuracy - lambda * runtime among the
// shown ones, why it cannot be loaded or exported, and its export with lambda and provenance.
#include "app/gui/explorer/ShownPath.h"
#include "app/gui/frontier/FrontierWindow.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStatusBar>

#include <algorithm>
#include <cmath>

namespace prunescope::gui {

void FrontierWindow::setEvaluationSet(const std::string& key) {
    if (key == evalSet_) return;
    evalSet_ = key;
    lambdaInitialized_ = false; // another set: other cones
    refreshView();
}

void FrontierWindow::refreshEvaluationSets() {
    const auto sets = model_.evaluationSets();
    if (std::none_of(sets.begin(), sets.end(),
                     [&](const auto& c) { return c.set.key() == evalSet_; }))
        evalSet_ = model_.defaultEvaluationSet(), lambdaInitialized_ = false;
    const QSignalBlocker block(evalSetBox_);
    evalSetBox_->clear();
    for (const auto& c : sets)
        evalSetBox_->addItem(QString("%1 — %2 %3")
                                 .arg(QString::fromStdString(c.set.label()).replace("<= ", "≤ "))
                                 .arg(c.points)
                                 .arg(c.points == 1 ? "policy" : "policies"),
                             QString::fromStdString(c.set.key()));
    evalSetBox_->setCurrentIndex(evalSetBox_->findData(QString::fromStdString(evalSet_)));
    evalSetBox_->setEnabled(sets.size() > 1);
}

int FrontierWindow::selectedRecord() const {
    return selected_ >= 0 && selected_ < static_cast<int>(view_.shownRecord.size())
               ? view_.shownRecord[static_cast<std::size_t>(selected_)]
               : -1;
}

void FrontierWindow::refreshSelection() {
    showSelection(bestForLambda(view_.points, lambda()));
}

void FrontierWindow::selectRecordPoint(int record) {
    for (std::size_t i = 0; i < view_.shownRecord.size(); ++i)
        if (view_.shownRecord[i] == record) return showSelection(static_cast<int>(i));
    refreshSelection();
}

void FrontierWindow::showSelection(int point) {
    selected_ = point;
    plot_->setHighlight(selected_, lambda());
    const int ri = selectedRecord();
    const QString problem = selectionProblem();
    loadBtn_->setEnabled(ri >= 0 && problem.isEmpty());
    exportBtn_->setEnabled(loadBtn_->isEnabled());
    loadBtn_->setToolTip(problem);
    exportBtn_->setToolTip(problem);
    refreshRetrain();
    const QString hidden = view_.hiddenOtherSets == 0
                               ? QString()
                               : QString("<br><small>%1 %2 on other evaluation sets hidden</small>")
                                     .arg(view_.hiddenOtherSets)
                                     .arg(view_.hiddenOtherSets == 1 ? "policy" : "policies");
    if (ri < 0) {
        info_->setText(view_.points.empty()
                           ? "No policy has both measures. Open a frontier.json (File menu) or a "
                             "LOLS run directory, or choose other axes."
                           : "");
    } else {
        const PolicyRecord& r = model_.records()[static_cast<std::size_t>(ri)];
        const FrontierPoint& p = view_.points[static_cast<std::size_t>(selected_)];
        const widgets::PlotPolicy& pp = view_.plot.points[static_cast<std::size_t>(selected_)];
        const QString range = pp.lambdaRange.empty
                                  ? QString("none")
                                  : QString("[%1, %2]")
                                        .arg(pp.lambdaRange.lo, 0, 'g', 4)
                                        .arg(std::isinf(pp.lambdaRange.hi)
                                                 ? QString::fromUtf8("\u221e")
                                                 : QString::number(pp.lambdaRange.hi, 'g', 4));
        info_->setText(
            QString("<b>%1</b> (%2)<br>%3: <b>%4</b><br>%5: <b>%6</b><br>reward = accuracy − "
                    "λ·runtime = "
                    "<b>%7</b><br>optimal for λ in %8%9%10")
                .arg(r.id.toHtmlEscaped(), r.kind == widgets::PlotPolicyKind::Lols ? QString("LOLS")
                                           : r.kind == widgets::PlotPolicyKind::Unpruned
                                               ? QString("no pruning")
                                               : QString("baseline"))
                .arg(view_.plot.yLabel)
                .arg(p.accuracy, 0, 'f', 2)
                .arg(view_.plot.xLabel)
                .arg(p.runtime, 0, 'g', 5)
                .arg(p.accuracy - lambda() * p.runtime, 0, 'g', 6)
                .arg(range)
                .arg(std::isfinite(pp.lambda)
                         ? QString("<br>fitted λ = h'(x) = %1").arg(pp.lambda, 0, 'g', 4)
                         : QString())
                .arg((r.policyPath.isEmpty()
                          ? QString()
                          : "<br><small>" + shownPath(r.policyPath).toHtmlEscaped() + "</small>") +
                     (problem.isEmpty()
                          ? QString()
                          : "<br><b>Cannot load or export:</b> " + problem.toHtmlEscaped() +
                                (retrainProblem().isEmpty()
                                     ? QString("<br>It can be retrained from its recorded settings "
                                               "(Retrain this point…).")
                                     : "<br>Cannot retrain: " + retrainProblem().toHtmlEscaped())) +
                     "<br><small>evaluated on " +
                     QString::fromStdString(r.evaluation.label())
                         .replace("<= ", "≤ ")
                         .toHtmlEscaped() +
                     "</small>" + hidden));
    }
    emit selectionChanged(selected_);
}

void FrontierWindow::selectPoint(int index) {
    if (index < 0 || index >= static_cast<int>(view_.points.size())) return;
    const LambdaRange& r = view_.plot.points[static_cast<std::size_t>(index)].lambdaRange;
    if (!r.empty) {
        const double l = std::isinf(r.hi) ? std::max(2 * r.lo, slider_->lo())
                         : r.lo <= 0      ? r.hi / 2
                                          : std::sqrt(r.lo * r.hi);
        setLambda(l);
        return;
    }
    showSelection(index); // not optimal for any lambda: shown, but the slider will move off it
    statusBar()->showMessage(view_.plot.points[static_cast<std::size_t>(index)].id +
                                 " is not optimal for any lambda among the shown policies",
                             6000);
}

QString FrontierWindow::selectionProblem() const {
    const int ri = selectedRecord();
    if (ri < 0) return "no policy is selected";
    const PolicyRecord& r = model_.records()[static_cast<std::size_t>(ri)];
    if (r.kind == widgets::PlotPolicyKind::Unpruned)
        return "the unpruned parser has no policy file (it keeps every span)";
    if (r.policyPath.isEmpty()) return r.id + " was recorded without a policy file";
    if (!QFileInfo::exists(r.policyPath))
        return "its policy file " + shownPath(r.policyPath) + " does not exist";
    return QString();
}

Policy FrontierWindow::exportedPolicy() const {
    const int ri = selectedRecord();
    if (ri < 0) throw std::invalid_argument("no policy is selected");
    const PolicyRecord& r = model_.records()[static_cast<std::size_t>(ri)];
    if (const QString why = selectionProblem(); !why.isEmpty())
        throw std::invalid_argument(r.id.toStdString() + ": " + why.toStdString());
    Policy p = loadPolicy(r.policyPath.toStdString());
    const widgets::PlotPolicy& pp = view_.plot.points[static_cast<std::size_t>(selected_)];
    p.meta.lambda = lambda();
    p.meta.lambdaUnit = view_.lambdaUnit.toStdString();
    nlohmann::json metrics = r.metrics;
    metrics["runtimeMeasure"] = runtimeMeasureName(runtime_);
    metrics["accuracyMeasure"] = accuracy_ == AccuracyMeasure::F1 ? "f1" : "expectedRecall";
    p.meta.devMetrics = metrics;
    p.meta.training["provenance"] = {
        {"id", r.id.toStdString()},
        {"policyFile", r.policyPath.toStdString()},
        {"source", r.source.toStdString()},
        {"run", r.run.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(r.run.toStdString())},
        {"iteration", r.iteration >= 0 ? nlohmann::json(r.iteration) : nlohmann::json(nullptr)},
        {"selectedBy",
         "prunescope frontier view: argmax accuracy - lambda * runtime among shown policies"},
        {"lambdaRange",
         pp.lambdaRange.empty
             ? nlohmann::json(nullptr)
             : nlohmann::json{pp.lambdaRange.lo, std::isinf(pp.lambdaRange.hi)
                                                     ? nlohmann::json(nullptr)
                                                     : nlohmann::json(pp.lambdaRange.hi)}},
        {"shownPolicies", view_.points.size()},
        {"evaluationSet", r.evaluation.toJson()}};
    if (p.meta.name.empty()) p.meta.name = r.id.toStdString();
    if (p.meta.kind.empty())
        p.meta.kind = r.kind == widgets::PlotPolicyKind::Lols ? "lols" : "baseline";
    return p;
}

bool FrontierWindow::exportSelected(const QString& path, QString* error, WeightsForm form) {
    try {
        savePolicy(exportedPolicy(), path.toStdString(), form);
        statusBar()->showMessage("Exported " + path, 5000);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

bool FrontierWindow::savePlot(const QString& path, QString* error) {
    return plot_->saveImage(path, 1100, 720, error);
}

void FrontierWindow::chooseExport() {
    const int ri = selectedRecord();
    if (ri < 0) return;
    const QString suggestion =
        QString(model_.records()[static_cast<std::size_t>(ri)].id).replace('/', '-') +
        "-selected.json";
    // Two forms of one file type (docs/file-formats.md, "Binary weight blocks"): compact by
    // default, all-JSON for reading or diffing the weights by eye.
    const QString compact = "Policy (*.json)";
    const QString readable = "Policy, readable all-JSON weights (*.json)";
    QString chosen = compact;
    const QString p = QFileDialog::getSaveFileName(this, "Export policy", suggestion,
                                                   compact + ";;" + readable, &chosen);
    const WeightsForm form = chosen == readable ? WeightsForm::Json : WeightsForm::Binary;
    QString err;
    if (!p.isEmpty() && !exportSelected(p, &err, form))
        QMessageBox::warning(this, "Export policy", err);
}

} // namespace prunescope::gui
