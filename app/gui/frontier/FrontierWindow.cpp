// Frontier window (Vieira & Eisner 2017, sec. 7 Fig. 2; sec. 4 for the LOLS runs): see
// FrontierWindow.h.
#include "app/gui/frontier/FrontierWindow.h"

#include "app/gui/explorer/ExplorerPanel.h"
#include "app/gui/frontier/RecentRuns.h"
#include "app/gui/window/BusyCursor.h"

#include "app/gui/explorer/RegretWindow.h"
#include "app/gui/frontier/LolsRunDialog.h"
#include "app/gui/frontier/TrainingPanel.h"
#include "app/gui/window/MainWindow.h"
#include "core/util/DataDir.h"
#include "core/util/Error.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QVBoxLayout>

#include <cmath>
#include <memory>

namespace prunescope::gui {

namespace {
QString samplesRoot() {
    const QByteArray env = qgetenv("PRUNESCOPE_SAMPLES");
    if (!env.isEmpty()) return QString::fromLocal8Bit(env);
#ifdef PRUNESCOPE_SAMPLES_DIR
    return PRUNESCOPE_SAMPLES_DIR;
#else
    return "samples";
#endif
}

// lambda in frontier units (accuracy percent per unit of the shown runtime measure) to a
// surrogate's units (accuracy in [0,1] per constituent or per kept span), at this policy's
// operating point: reward differences stay proportional to the shown ones around the point.
double toSurrogateLambda(double lambda, const PolicyRecord& r, RuntimeMeasure shown, Surrogate s) {
    const auto x = r.value(runtimeKey(shown));
    const auto y = r.value(s == Surrogate::CP ? "constituents" : "spansKept");
    if (!x || !y || *y <= 0) return lambda / 100;
    return lambda / 100 * (*x / *y);
}
} // namespace

QString defaultFrontierPath() {
    const QString p = QDir(samplesRoot()).filePath("policies/frontier.json");
    return QFileInfo::exists(p) ? p : QString();
}

FrontierWindow::FrontierWindow(QWidget* parent, bool openDefault) : QMainWindow(parent) {
    setWindowTitle("PruneScope — frontier and training");
    queue_ = new TrainingQueue(this);
    retrainTask_ = new BackgroundTask(this);
    retrainTask_->setLowPriority(true);
    buildUi();
    connect(queue_, &TrainingQueue::iterationCommitted, this, &FrontierWindow::onIteration);
    if (openDefault && !defaultFrontierPath().isEmpty()) openFrontier(defaultFrontierPath());
    refreshView();
    resize(1280, 860);
}

FrontierWindow::~FrontierWindow() = default;

bool FrontierWindow::openFrontier(const QString& path, QString* error) {
    const BusyCursor busy;
    try {
        model_.addFrontierFile(path);
        const FrontierData d = loadFrontier(path.toStdString());
        frontierPath_ = QFileInfo(path).absoluteFilePath();
        if (!d.grammar.empty()) {
            const QString g = QString::fromStdString(d.grammar);
            grammarPath_ = QFileInfo(g).isAbsolute() ? g : QFileInfo(path).dir().filePath(g);
        }
        // The grammar named in the file may live elsewhere (another machine): fall back to the
        // sample's.
        if (!QFileInfo::exists(grammarPath_) &&
            QFileInfo::exists(QDir(samplesRoot()).filePath("grammar.gram")))
            grammarPath_ = QDir(samplesRoot()).filePath("grammar.gram");
        refreshView();
        statusBar()->showMessage("Opened " + path, 5000);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

bool FrontierWindow::openRunDirectory(const QString& dir, QString* error) {
    const BusyCursor busy; // reads the log and adds every committed iteration, then replots once
    batchingIterations_ =
        true; // follow() emits the committed iterations at once: one refresh for all
    try {
        queue_->follow(dir);
        batchingIterations_ = false;
        rememberLolsRun(dir);
        refreshView();
        return true;
    } catch (const std::exception& e) {
        batchingIterations_ = false;
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

bool FrontierWindow::openPath(const QString& path, QString* error) {
    if (QFileInfo(path).isDir()) return openRunDirectory(path, error);
    return openFrontier(path, error);
}

void FrontierWindow::setMeasures(RuntimeMeasure rt, AccuracyMeasure acc) {
    if (rt != runtime_ || acc != accuracy_) lambdaInitialized_ = false; // lambda's unit changed
    runtime_ = rt;
    accuracy_ = acc;
    runtimeBox_->setCurrentIndex(runtimeBox_->findData(int(rt)));
    accuracyBox_->setCurrentIndex(accuracyBox_->findData(int(acc)));
    refreshView();
}

void FrontierWindow::refreshView() {
    ++viewRefreshes_;
    refreshEvaluationSets();
    view_ = model_.view(runtime_, accuracy_, unprunedBox_->isChecked(), evalSet_);
    plot_->setPlotData(view_.plot);
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    std::vector<double> fitted;
    for (const auto& p : view_.plot.points) {
        for (double v : {p.lambdaRange.lo, p.lambdaRange.hi})
            if (!p.lambdaRange.empty && v > 0 && std::isfinite(v))
                lo = std::min(lo, v), hi = std::max(hi, v);
        if (std::isfinite(p.lambda) && p.lambda > 0) fitted.push_back(p.lambda);
    }
    if (hi > 0) slider_->setRange(lo / 10, std::max(hi * 10, lo * 100));
    slider_->setUnit(view_.lambdaUnit);
    if (!lambdaInitialized_ && !view_.points.empty()) {
        lambdaInitialized_ = true;
        // Start inside the optimal-λ cone of the middle point that has a policy file (so the
        // selection can be loaded, exported and analysed at once), else at the median fitted λ.
        std::vector<double> loadable;
        for (std::size_t i = 0; i < view_.plot.points.size() && i < view_.shownRecord.size(); ++i) {
            const LambdaRange& c = view_.plot.points[i].lambdaRange;
            const int ri = view_.shownRecord[i];
            if (c.empty || ri < 0 ||
                model_.records()[static_cast<std::size_t>(ri)].policyPath.isEmpty())
                continue;
            if (c.lo > 0 && std::isfinite(c.hi))
                loadable.push_back(std::sqrt(c.lo * c.hi));
            else if (std::isfinite(c.hi) && c.hi > 0)
                loadable.push_back(c.hi / 2);
            else if (c.lo > 0)
                loadable.push_back(c.lo * 2);
        }
        std::sort(fitted.begin(), fitted.end());
        std::sort(loadable.begin(), loadable.end());
        slider_->setLambda(!loadable.empty() ? loadable[loadable.size() / 2]
                           : !fitted.empty() ? fitted[fitted.size() / 2]
                                             : std::sqrt(slider_->lo() * slider_->hi()));
    }
    refreshSelection();
}

void FrontierWindow::setLambda(double lambda) {
    slider_->setLambda(lambda);
    refreshSelection();
}

void FrontierWindow::chooseSavePlot() {
    const QString p =
        QFileDialog::getSaveFileName(this, "Save plot", "frontier.png", "PNG (*.png);;PDF (*.pdf)");
    QString err;
    if (!p.isEmpty() && !savePlot(p, &err)) QMessageBox::warning(this, "Save plot", err);
}

void FrontierWindow::openDialog(bool directory) {
    const QString p = directory ? QFileDialog::getExistingDirectory(this, "Open LOLS run directory")
                                : QFileDialog::getOpenFileName(this, "Open frontier", QString(),
                                                               "Frontier (*.json)");
    QString err;
    if (!p.isEmpty() && !openPath(p, &err)) QMessageBox::warning(this, "Open", err);
}

void FrontierWindow::onIteration(int, const QString& runDir, const LolsIterationRecord& r,
                                 const nlohmann::json& config) {
    QElapsedTimer
        clock; // lastIterationMs(): the handler; the queued replot it asks for is a later event
    clock.start();
    model_.addLolsIteration(runDir, r, config);
    const std::string key = lolsDevEvaluationSet(config, r.dev.sentences).key();
    if (!evalSet_.empty() && key != evalSet_)
        statusBar()->showMessage(
            QString("%1: its iterations are evaluated on %2, not the shown set; choose it under "
                    "“Evaluated on” to compare them")
                .arg(QFileInfo(runDir).fileName(),
                     QString::fromStdString(lolsDevEvaluationSet(config, r.dev.sentences).label())
                         .replace("<= ", "≤ ")),
            8000);
    if (grammarPath_.isEmpty() && config.contains("grammar"))
        grammarPath_ = QString::fromStdString(config["grammar"]);
    if (!batchingIterations_) refreshView();
    lastIterationMs_ = clock.nsecsElapsed() / 1e6;
}

int FrontierWindow::startLols(const LolsJobSpec& spec) {
    const int id = queue_->enqueue(spec);
    rememberLolsRun(spec.out);
    return id;
}

void FrontierWindow::fillRecentRuns() {
    recentRunsMenu_->clear();
    const QStringList runs = recentLolsRuns();
    for (const QString& dir : runs)
        recentRunsMenu_->addAction(dir, this, [this, dir] {
            QString error;
            if (!openRunDirectory(dir, &error))
                QMessageBox::warning(this, "Recent LOLS runs", dir + ": " + error);
        });
    if (runs.isEmpty()) recentRunsMenu_->addAction("(none yet)")->setEnabled(false);
}

void FrontierWindow::launchDialog() {
    LolsDialogDefaults d;
    const int ri = selectedRecord();
    if (ri >= 0 && !model_.records()[static_cast<std::size_t>(ri)].policyPath.isEmpty()) {
        const PolicyRecord& r = model_.records()[static_cast<std::size_t>(ri)];
        d.policies << r.policyPath;
        d.lambdaCp = toSurrogateLambda(lambda(), r, runtime_, Surrogate::CP);
        d.lambdaDp = toSurrogateLambda(lambda(), r, runtime_, Surrogate::DP);
    }
    for (const auto& r : model_.records())
        if (!r.policyPath.isEmpty() && !d.policies.contains(r.policyPath))
            d.policies << r.policyPath;
    d.grammar = grammarPath_;
    // The treebanks: the dialog fills them from the opened treebank, the last run or the data
    // folder (PRUNESCOPE_DATA_DIR), in that order.
    d.outDir =
        QDir::home().filePath(QString("prunescope-runs/lols-%1").arg(queue_->jobs().size() + 1));
    LolsRunDialog dlg(d, this);
    if (dlg.exec() == QDialog::Accepted) startLols(dlg.spec());
}

RegretWindow* FrontierWindow::regretWindow() {
    if (!regret_) {
        regret_ = new RegretWindow(this);
        if (main_) regret_->setExplorer(main_->explorer());
    }
    RegretRequest q;
    q.grammar = grammarPath_;
    const int ri = selectedRecord();
    if (ri >= 0) {
        const PolicyRecord& r = model_.records()[static_cast<std::size_t>(ri)];
        q.policy = r.policyPath;
        q.lambda = toSurrogateLambda(lambda(), r, runtime_, Surrogate::CP);
    }
    q.treebank = QDir(samplesRoot()).filePath("sentences.mrg");
    if (const std::string data = prunescope::dataDirFromEnvironment(); !data.empty())
        q.treebank = QDir(QString::fromStdString(data)).filePath("ptb-sample/train");
    regret_->setRequest(q);
    return regret_;
}

void FrontierWindow::openRegret() {
    auto* w = regretWindow();
    w->show();
    w->raise();
}

bool FrontierWindow::loadSelectedIntoExplorer() {
    const int r = selectedRecord();
    if (r < 0 || !selectionProblem().isEmpty()) return false;
    const QString path = model_.records()[static_cast<std::size_t>(r)].policyPath;
    if (main_) {
        ExplorerPanel* e = main_->explorer();
        if (e->hasHandEdits()) {
            if (!confirm_)
                confirm_ = [](QWidget* parent, const QString& q, const QString& detail) {
                    return QMessageBox::question(parent, tr("Load into explorer"),
                                                 q + "\n\n" + detail,
                                                 QMessageBox::Yes | QMessageBox::No,
                                                 QMessageBox::No) == QMessageBox::Yes;
                };
            if (!confirm_(this, tr("Replace your edited mask?"),
                          tr("The explorer's mask has hand edits. Loading %1 replaces it with the "
                             "policy's mask.")
                              .arg(QFileInfo(path).fileName())))
                return false;
        }
        // λ goes to the explorer once the policy is loaded (openFile is asynchronous).
        QPointer<ExplorerPanel> explorer = e;
        const double lambda = this->lambda();
        const std::string unit = view_.lambdaUnit.toStdString();
        auto conn = std::make_shared<QMetaObject::Connection>();
        *conn = connect(main_, &MainWindow::loadFinished, this,
                        [conn, explorer, path, lambda, unit](bool ok, const QString& p) {
                            if (p != path) return;
                            QObject::disconnect(*conn);
                            if (ok && explorer) explorer->setFrontierLambda(lambda, unit);
                        });
    }
    emit loadPolicyRequested(path);
    return true;
}

void FrontierWindow::attachMainWindow(MainWindow* w) {
    main_ = w;
    connect(this, &FrontierWindow::loadPolicyRequested, w, [w](const QString& path) {
        w->openFile(path);
        w->raise();
    });
    if (regret_) regret_->setExplorer(w->explorer());
}

FrontierWindow* FrontierWindow::showFor(MainWindow* w) {
    auto* f = w->findChild<FrontierWindow*>(QString(), Qt::FindDirectChildrenOnly);
    if (!f) {
        f = new FrontierWindow(w);
        f->setWindowFlag(Qt::Window);
        f->attachMainWindow(w);
    }
    f->show();
    f->raise();
    return f;
}

} // namespace prunescope::gui
