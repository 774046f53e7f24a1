// "Retrain this point…" in the frontier window (Vieira & Eisner 2017, sec. 7 ¬): a baseline point
// written without its policy file is retrained from its recorded settings
// (core/policy/BaselineRetrain.h) in the background, so it can be loaded and exported.
#include "app/gui/frontier/FrontierWindow.h"
#include "app/gui/frontier/RetrainDialog.h"

#include "core/util/DataDir.h"

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QStatusBar>

#include <memory>

namespace prunescope::gui {

namespace {
// The default dialog: the recorded settings (read only), the equivalent command, the output
// directory.
bool retrainDialog(QWidget* parent, const BaselineRetrainSettings& s, QString& outDir) {
    RetrainDialog d(parent, QString::fromStdString(s.pointId),
                    "Trains the policy again with the settings recorded in the frontier file.");
    d.row("positive-class weight", QString::number(s.positiveWeight, 'g', 17));
    d.row("l2", QString::number(s.l2, 'g', 17));
    d.row("training treebank", QString("%1 (first %2 trees, ≤ %3 words)")
                                   .arg(QString::fromStdString(s.train))
                                   .arg(s.trainSentences)
                                   .arg(s.maxTrainLength));
    d.row("dev treebank",
          QString("%1 (≤ %2 words)").arg(QString::fromStdString(s.dev)).arg(s.maxDevLength));
    d.row("grammar", QString::fromStdString(s.grammar));
    return d.exec(
        "write the policy to",
        "In the frontier file's folder, the frontier file is updated to name it.", outDir,
        [s](const std::string& dir) { return baselineRetrainCommand(s, dir); }, QString());
}
} // namespace

BaselineRetrainSettings FrontierWindow::retrainSettings() const {
    BaselineRetrainSettings s;
    const int ri = selectedRecord();
    if (ri < 0) return s.why = "no policy is selected", s;
    const PolicyRecord& r = model_.records()[static_cast<std::size_t>(ri)];
    s.pointId = r.id.toStdString();
    if (r.kind == widgets::PlotPolicyKind::Unpruned)
        return s.why = "the unpruned parser has no policy to train", s;
    if (r.kind == widgets::PlotPolicyKind::Lols)
        return s.why = "a LOLS iteration is retrained from its run's config.json "
                       "(selectedLolsRetrainSettings)",
               s;
    if (!r.run.isEmpty() || !r.source.endsWith(".json"))
        return s.why = r.id.toStdString() + " does not come from a frontier file", s;
    try {
        const FrontierData d = loadFrontier(r.source.toStdString());
        return baselineRetrainSettings(d, r.source.toStdString(), s.pointId,
                                       dataDirFromEnvironment());
    } catch (const std::exception& e) {
        return s.why = e.what(), s;
    }
}

QString FrontierWindow::retrainProblem() const {
    if (retrainTask_->isRunning()) return "a retrain is running";
    if (selectionProblem().isEmpty()) return "the policy can already be loaded";
    const int ri = selectedRecord();
    if (ri >= 0 &&
        model_.records()[static_cast<std::size_t>(ri)].kind == widgets::PlotPolicyKind::Lols)
        return QString::fromStdString(selectedLolsRetrainSettings().why);
    return QString::fromStdString(retrainSettings().why);
}

void FrontierWindow::refreshRetrain() {
    const QString why = retrainProblem();
    retrainBtn_->setEnabled(why.isEmpty());
    retrainBtn_->setVisible(!selectionProblem().isEmpty() || retrainTask_->isRunning());
    retrainBtn_->setToolTip(
        why.isEmpty() ? "Train this point's policy again from its recorded settings" : why);
}

bool FrontierWindow::retrainSelected() {
    if (!retrainProblem().isEmpty()) return false;
    if (model_.records()[static_cast<std::size_t>(selectedRecord())].kind ==
        widgets::PlotPolicyKind::Lols)
        return retrainSelectedLols();
    const BaselineRetrainSettings s = retrainSettings();
    const int ri = selectedRecord();
    const PolicyRecord& r = model_.records()[static_cast<std::size_t>(ri)];
    QString outDir = QFileInfo(r.source).absolutePath();
    if (!QFileInfo(outDir).isWritable())
        outDir = QDir::home().filePath("prunescope-runs/retrained");
    if (!retrainDialog_) retrainDialog_ = retrainDialog;
    if (!retrainDialog_(this, s, outDir)) return false;
    const QString id = r.id, source = r.source;
    const QString path = QDir(outDir).filePath(id + ".json");
    const double lambda = view_.plot.points[static_cast<std::size_t>(selected_)].lambda;
    const std::string unit = view_.lambdaUnit.toStdString();
    auto result = std::make_shared<RetrainedPoint>();
    disconnect(retrainTask_, nullptr, this, nullptr);
    connect(retrainTask_, &BackgroundTask::progressChanged, this,
            [this, id](const ProgressUpdate& u) {
                statusBar()->showMessage(
                    QString("retraining %1: %2").arg(id, QString::fromStdString(u.phase)));
            });
    connect(retrainTask_, &BackgroundTask::finished, this, [this, id, path, source, result] {
        const int rec = [&] {
            for (int i = 0; i < static_cast<int>(model_.records().size()); ++i)
                if (model_.records()[static_cast<std::size_t>(i)].id == id &&
                    model_.records()[static_cast<std::size_t>(i)].source == source)
                    return i;
            return -1;
        }();
        if (rec >= 0) model_.setPolicyPath(rec, QFileInfo(path).absoluteFilePath());
        statusBar()->showMessage(
            QString("%1 retrained: F1 %2 (recorded %3), wrote %4")
                .arg(id)
                .arg(100 * result->devMetrics.value("f1", 0.0), 0, 'f', 2)
                .arg(rec >= 0
                         ? model_.records()[static_cast<std::size_t>(rec)].metrics.value("f1", 0.0)
                         : 0.0,
                     0, 'f', 2)
                .arg(path),
            15000);
        selectRecordPoint(rec); // the retrained point stays selected
        emit pointRetrained(id, path);
    });
    auto fail = [this, id](const QString& why) {
        statusBar()->showMessage(QString("retraining %1: %2").arg(id, why), 15000);
        refreshSelection();
        emit pointRetrained(id, QString());
    };
    connect(retrainTask_, &BackgroundTask::failed, this, fail);
    connect(retrainTask_, &BackgroundTask::cancelled, this, [fail] { fail("cancelled"); });
    const bool started =
        retrainTask_->start([s, path, source, lambda, unit, result](const Progress& p) {
            *result = retrainBaselinePoint(s, p);
            result->policy.meta.lambda = lambda;
            result->policy.meta.lambdaUnit = unit;
            QDir().mkpath(QFileInfo(path).absolutePath());
            savePolicy(result->policy, path.toStdString()); // atomic
            // Written beside the frontier file: the file records it, so the point stays loadable.
            if (QFileInfo(path).absolutePath() == QFileInfo(source).absolutePath()) {
                FrontierData d = loadFrontier(source.toStdString());
                for (auto& e : d.points)
                    if (e.id == s.pointId) e.policy = QFileInfo(path).fileName().toStdString();
                saveFrontier(d, source.toStdString()); // atomic
            }
        });
    refreshRetrain();
    return started;
}

} // namespace prunescope::gui
