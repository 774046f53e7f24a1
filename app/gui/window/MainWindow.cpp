// The main window itself: construction, mode switching, errors, title, close and drag and drop.
// Menus and the toolbar: MainWindowMenus.cpp; documents, settings and exports:
// MainWindowDocuments.cpp; sessions and printing: MainWindowSession.cpp.
#include "app/gui/window/MainWindow.h"
#include "app/gui/dep/DepExplorerPanel.h"
#include "app/gui/explorer/MaskComparisonPanel.h"

#include <QCloseEvent>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

// The .qrc is compiled into the static prunescope_app library: register it explicitly.
static void initPruneScopeResources() {
    Q_INIT_RESOURCE(resources);
}

namespace prunescope::gui {

QString samplesDir() {
    QString env = qEnvironmentVariable("PRUNESCOPE_SAMPLES");
    return env.isEmpty() ? QStringLiteral(PRUNESCOPE_SAMPLES_DIR) : env;
}

QString sampleFile(const QString& rel) {
    const QString p = samplesDir() + "/" + rel;
    return QFileInfo::exists(p) ? p : QString();
}

QString samplePolicy() {
    QDir d(samplesDir() + "/policies");
    QStringList files = d.entryList({"*.json"}, QDir::Files, QDir::Name);
    files.removeAll("frontier.json");
    return files.isEmpty() ? QString() : d.filePath(files.first());
}

MainWindow::MainWindow(MainWindowOptions opt, QWidget* parent) : QMainWindow(parent), opt_(opt) {
    initPruneScopeResources();
    setWindowIcon(QIcon(":/prunescope/icons/prunescope.svg"));
    explorer_ = new ExplorerPanel;
    stack_ = new QStackedWidget;
    stack_->addWidget(explorer_);
    setCentralWidget(stack_);
    setAcceptDrops(true);
    progress_ = new QProgressBar;
    progress_->setRange(0, 0);
    progress_->setMaximumWidth(160);
    progress_->hide();
    loader_ = new BackgroundTask(this);
    connect(loader_, &BackgroundTask::progressChanged, this,
            [this](const ProgressUpdate& u) { showProgress(progress_, u); });
    auto loaded = [this](bool cancelled) {
        const LoadResult r = cancelled ? LoadResult{} : *loading_;
        loading_.reset();
        if (!cancelled) {
            const bool ok = apply(r);
            if (ok)
                statusBar()->showMessage(
                    tr("Loaded %1 %2").arg(fileKindName(r.kind), QFileInfo(r.path).fileName()),
                    4000);
            emit loadFinished(ok, r.path);
        }
        startNextLoad();
    };
    connect(loader_, &BackgroundTask::finished, this, [loaded] { loaded(false); });
    connect(loader_, &BackgroundTask::cancelled, this, [loaded] { loaded(true); });
    connect(loader_, &BackgroundTask::failed, this,
            [this](const QString& m) { // loadFile reports errors itself
                reportError(m);
                startNextLoad();
            });
    // A first hint for a newcomer (issue 42): a normal status-bar widget, so it shows whenever no
    // message does.
    hint_ = new QLabel(tr("Click a cell to prune or keep its span (pruned cells are hatched) · "
                          "right-click to inspect it · F5 replays CKY · Alt+→ next sentence · F1 a "
                          "guided tour"));
    hint_->setObjectName("statusHint");
    hint_->setMinimumWidth(0);
    hint_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    statusBar()->addWidget(hint_, 1);
    docLabel_ = new QLabel;
    statusBar()->addPermanentWidget(docLabel_);
    statusBar()->addPermanentWidget(progress_);
    connect(explorer_, &ExplorerPanel::statusMessage, this,
            [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    comparison_ = new MaskComparisonPanel(explorer_, this);
    addDockWidget(Qt::BottomDockWidgetArea, comparison_);
    comparison_->hide();
    // On a low screen (768 px) the dock would take its whole height from the trees: it starts at
    // a fifth of the window and scrolls (its splitter handle gives it more).
    connect(comparison_, &QDockWidget::visibilityChanged, this, [this](bool on) {
        if (on && height() < 900)
            QTimer::singleShot(0, this, [this] {
                resizeDocks({comparison_}, {std::max(120, height() / 5)}, Qt::Vertical);
            });
    });
    buildMenus();
    buildToolBar();
    resize(1400, 900);
    if (opt_.useSettings) restoreSettings();
    refreshTitle();
    if (opt_.loadSample) {
        QSettings s;
        QStringList start;
        for (const char* key : {"lastGrammar", "lastPolicy", "lastSentences"}) {
            QString p = opt_.useSettings ? s.value(key).toString() : QString();
            if (!p.isEmpty() && QFileInfo::exists(p)) start << p;
        }
        if (start.size() < 3) {
            start = {samplesDir() + "/grammar.gram", samplePolicy(),
                     samplesDir() + "/sentences.mrg"};
            start.removeAll(QString());
        }
        for (const QString& p : start)
            openFile(p);
    }
}

MainWindow::~MainWindow() = default; // the loader cancels and waits

DepExplorerPanel* MainWindow::depExplorer() {
    if (!dep_) {
        dep_ = new DepExplorerPanel(nullptr, opt_.loadSample);
        stack_->addWidget(dep_);
        connect(dep_, &DepExplorerPanel::statusMessage, this,
                [this](const QString& m) { statusBar()->showMessage(m, 5000); });
        connect(dep_, &DepExplorerPanel::errorOccurred, this, &MainWindow::errorOccurred);
    }
    return dep_;
}

void MainWindow::setMode(Mode m) {
    mode_ = m;
    stack_->setCurrentWidget(m == Mode::Dependency ? static_cast<QWidget*>(depExplorer())
                                                   : explorer_);
    sentenceToolBar_->setVisible(m == Mode::Constituency);
    docLabel_->setVisible(m == Mode::Constituency);
    for (QAction* a : constituencyOnly_) // the span chart's View entries (issue 42)
        a->setEnabled(m == Mode::Constituency);
    modeActions_[m == Mode::Dependency ? 1 : 0]->setChecked(true);
    refreshTitle();
}

widgets::ZoomArea* MainWindow::focusedZoomArea() const {
    if (mode_ == Mode::Dependency && dep_) return dep_->focusedZoomArea();
    return explorer_->focusedZoomArea();
}

void MainWindow::reportError(const QString& message) {
    emit errorOccurred(message);
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("PruneScope"), message, QMessageBox::Ok, this);
    box->setObjectName("errorDialog");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
    statusBar()->showMessage(message.section('\n', 0, 1), 8000);
}

void MainWindow::refreshTitle() {
    auto name = [](const QString& p) { return p.isEmpty() ? tr("none") : QFileInfo(p).fileName(); };
    if (mode_ == Mode::Dependency) {
        setWindowTitle(tr("PruneScope — dependency mode"));
        return;
    }
    setWindowTitle(tr("PruneScope — %1")
                       .arg(sentencesPath_.isEmpty() ? tr("no sentences") : name(sentencesPath_)));
    docLabel_->setText(
        tr("Grammar: %1   Policy: %2")
            .arg(name(grammarPath_) + (grammarEdited_ ? tr(" (edited)") : ""),
                 policyPath_.isEmpty() ? tr("none (all spans kept)") : name(policyPath_)));
}

QString MainWindow::documentsText() const {
    return docLabel_->text();
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (opt_.useSettings) {
        saveSettings();
        QSettings().setValue("geometry", saveGeometry());
    }
    e->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile()) openFile(u.toLocalFile());
    e->acceptProposedAction();
}

} // namespace prunescope::gui
