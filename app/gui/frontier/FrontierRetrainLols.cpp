// "Retrain this point…" for a LOLS iteration in the frontier window (Vieira & Eisner 2017, Alg. 2,
// sec. 7): an iteration whose policies/iter-NNN.json is gone is retrained from its run's
// config.json (core/lols/LolsRetrain.h) in the background, into a new run directory, and, when its
// dev evaluation equals the recorded one, the point gets the retrained policy file. Also the
// progress bar and Cancel button every retrain (baseline or LOLS) shows while it runs.
#include "app/gui/frontier/FrontierWindow.h"
#include "app/gui/frontier/RetrainDialog.h"

#include "core/util/DataDir.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

#include <memory>

namespace prunescope::gui {

namespace {
// The default dialog: the recorded run settings (read only), the equivalent command, the new run
// directory.
bool lolsRetrainDialog(QWidget* parent, const LolsRetrainSettings& s, QString& outDir) {
    RetrainDialog d(parent, QString::fromStdString(s.pointId),
                    QString("Runs LOLS again with the settings recorded in %1/config.json, up to "
                            "iteration %2, into a "
                            "new run directory (LOLS is deterministic for its seed).")
                        .arg(QString::fromStdString(s.runDir))
                        .arg(s.iteration));
    const nlohmann::json& l = s.config.at("lols");
    d.row("recorded dev result", QString("F1 %1, %2 mpush")
                                     .arg(s.recorded.dev.f1, 0, 'f', 2)
                                     .arg(s.recorded.dev.mpush, 0, 'g', 6));
    d.row("surrogate, λ, seed",
          QString("%1, %2, %3")
              .arg(QString::fromStdString(l.value("surrogate", std::string())))
              .arg(l.value("lambda", 0.0), 0, 'g', 17)
              .arg(QString::fromStdString(l.value("seed", nlohmann::json(1)).dump())));
    for (const char* k : {"grammar", "init", "train", "dev"})
        d.row(k, QString::fromStdString(s.config.at(k).get<std::string>()));
    QStringList notes;
    for (const std::string& n : lolsRetrainCommandDifferences(s))
        notes << QString::fromStdString(n);
    return d.exec(
        "new run directory", QString(), outDir,
        [s](const std::string& dir) { return lolsRetrainCommand(s, dir); },
        notes.isEmpty() ? QString()
                        : "The command's flags cannot give: " + notes.join("; ") +
                              " (the retrain uses the recorded values).");
}
} // namespace

QWidget* FrontierWindow::buildRetrainProgress(QWidget* parent) {
    auto* box = new QWidget(parent);
    auto* lay = new QHBoxLayout(box);
    lay->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QProgressBar(box);
    bar->setObjectName("retrainProgress");
    bar->setTextVisible(true);
    auto* cancel = new QPushButton("Cancel retrain", box);
    cancel->setObjectName("cancelRetrain");
    lay->addWidget(bar, 1);
    lay->addWidget(cancel);
    box->setVisible(false);
    // Context `box`, not `this`: retrainSelected() disconnects its own per-run handlers from this.
    connect(cancel, &QPushButton::clicked, retrainTask_, &BackgroundTask::cancel);
    connect(retrainTask_, &BackgroundTask::progressChanged, bar, [bar](const ProgressUpdate& u) {
        showProgress(bar, u);
        if (u.step >= 0 && u.steps > 0)
            bar->setFormat(QString("iteration %1 of %2: ").arg(u.step).arg(u.steps) +
                           bar->format());
    });
    connect(retrainTask_, &BackgroundTask::stateChanged, box, [this, box, bar, cancel] {
        const bool running = retrainTask_->isRunning();
        box->setVisible(running);
        cancel->setEnabled(retrainTask_->state() == BackgroundTask::State::Running);
        if (running && retrainTask_->state() == BackgroundTask::State::Running) {
            bar->setRange(0, 0);
            bar->setFormat("starting");
        }
    });
    return box;
}

LolsRetrainSettings FrontierWindow::selectedLolsRetrainSettings() const {
    const int ri = selectedRecord();
    if (ri < 0) {
        LolsRetrainSettings s;
        s.why = "no policy is selected";
        return s;
    }
    const PolicyRecord& r = model_.records()[static_cast<std::size_t>(ri)];
    if (r.kind != widgets::PlotPolicyKind::Lols || r.run.isEmpty()) {
        LolsRetrainSettings s;
        s.why = r.id.toStdString() + " is not an iteration of a LOLS run";
        return s;
    }
    return lolsRetrainSettings(r.run.toStdString(), r.iteration, dataDirFromEnvironment());
}

bool FrontierWindow::retrainSelectedLols() {
    const LolsRetrainSettings s = selectedLolsRetrainSettings();
    if (!s.ok()) return false;
    const PolicyRecord& r = model_.records()[static_cast<std::size_t>(selectedRecord())];
    const QString name = QString("%1-retrain-iter-%2")
                             .arg(QFileInfo(r.run).fileName())
                             .arg(r.iteration, 3, 10, QChar('0'));
    const QString parent = QFileInfo(r.run).absolutePath();
    QString outDir = QFileInfo(parent).isWritable()
                         ? QDir(parent).filePath(name)
                         : QDir::home().filePath("prunescope-runs/retrained/" + name);
    if (!lolsRetrainDialog_) lolsRetrainDialog_ = lolsRetrainDialog;
    if (!lolsRetrainDialog_(this, s, outDir)) return false;
    const QString id = r.id, run = r.run;
    const int iteration = r.iteration;
    auto result = std::make_shared<LolsRetrainResult>();
    disconnect(retrainTask_, nullptr, this, nullptr);
    connect(retrainTask_, &BackgroundTask::finished, this, [this, id, run, iteration, result, s] {
        const QString path = QString::fromStdString(result->policyPath);
        const QString numbers = QString("dev F1 %1, %2 mpush (recorded %3, %4)")
                                    .arg(result->retrained.dev.f1, 0, 'f', 2)
                                    .arg(result->retrained.dev.mpush, 0, 'g', 6)
                                    .arg(s.recorded.dev.f1, 0, 'f', 2)
                                    .arg(s.recorded.dev.mpush, 0, 'g', 6);
        if (!result->reproduced) {
            statusBar()->showMessage(
                QString("%1 retrained, but %2 differs from the recorded evaluation (an input "
                        "changed since the run?); not attached. The run is in %3")
                    .arg(id, numbers, QString::fromStdString(result->runDir)),
                20000);
            selectRecordPoint(model_.find(run, iteration));
            emit pointRetrained(id, QString());
            return;
        }
        const int rec = model_.find(run, iteration);
        if (rec >= 0) model_.setPolicyPath(rec, path);
        statusBar()->showMessage(
            QString("%1 retrained and reproduced: %2; wrote %3").arg(id, numbers, path), 15000);
        selectRecordPoint(
            rec); // the retrained point stays selected, even if no lambda makes it optimal
        emit pointRetrained(id, path);
    });
    auto fail = [this, id, run, iteration](const QString& why) {
        statusBar()->showMessage(QString("retraining %1: %2").arg(id, why), 15000);
        selectRecordPoint(model_.find(run, iteration));
        emit pointRetrained(id, QString());
    };
    connect(retrainTask_, &BackgroundTask::failed, this, fail);
    connect(retrainTask_, &BackgroundTask::cancelled, this, [fail, outDir] {
        fail("cancelled; the committed iterations are kept in " + outDir +
             " (retrain into it again to continue)");
    });
    const bool started = retrainTask_->start([s, outDir, result](const Progress& p) {
        *result = retrainLolsPoint(s, outDir.toStdString(), 0, p);
        if (result->cancelled) throw Cancelled();
    });
    refreshRetrain();
    return started;
}

} // namespace prunescope::gui
