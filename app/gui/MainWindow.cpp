#include "app/gui/MainWindow.h"
#include "app/gui/CubeExplorerWindow.h"
#include "app/gui/DepExplorerPanel.h"
#include "app/gui/DepFrontierWindow.h"
#include "app/gui/FrontierWindow.h"
#include "app/gui/RandomizedWindow.h"
#include "app/gui/FigureExportDialog.h"
#include "app/gui/MaskComparisonPanel.h"
#include "widgets/ImageExport.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoStack>

// The .qrc is compiled into the static prunescope_app library: register it explicitly.
static void initPruneScopeResources() { Q_INIT_RESOURCE(resources); }

namespace prunescope::gui {

QString samplesDir() {
    QString env = qEnvironmentVariable("PRUNESCOPE_SAMPLES");
    return env.isEmpty() ? QStringLiteral(PRUNESCOPE_SAMPLES_DIR) : env;
}

QString sampleFile(const QString& rel) {
    const QString p = samplesDir() + "/" + rel;
    return QFileInfo::exists(p) ? p : QString();
}

namespace {
// The default policy: a baseline from samples/policies (sorted by name), if any.
QString samplePolicy() {
    QDir d(samplesDir() + "/policies");
    QStringList files = d.entryList({"*.json"}, QDir::Files, QDir::Name);
    files.removeAll("frontier.json");
    return files.isEmpty() ? QString() : d.filePath(files.first());
}
} // namespace

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
    connect(loader_, &BackgroundTask::progressChanged, this, [this](const ProgressUpdate& u) { showProgress(progress_, u); });
    auto loaded = [this](bool cancelled) {
        const LoadResult r = cancelled ? LoadResult{} : *loading_;
        loading_.reset();
        if (!cancelled) {
            const bool ok = apply(r);
            if (ok) statusBar()->showMessage(tr("Loaded %1 %2").arg(fileKindName(r.kind), QFileInfo(r.path).fileName()), 4000);
            emit loadFinished(ok, r.path);
        }
        startNextLoad();
    };
    connect(loader_, &BackgroundTask::finished, this, [loaded] { loaded(false); });
    connect(loader_, &BackgroundTask::cancelled, this, [loaded] { loaded(true); });
    connect(loader_, &BackgroundTask::failed, this, [this](const QString& m) {  // loadFile reports errors itself
        reportError(m);
        startNextLoad();
    });
    docLabel_ = new QLabel;
    statusBar()->addPermanentWidget(docLabel_);
    statusBar()->addPermanentWidget(progress_);
    connect(explorer_, &ExplorerPanel::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    comparison_ = new MaskComparisonPanel(explorer_, this);
    addDockWidget(Qt::BottomDockWidgetArea, comparison_);
    comparison_->hide();
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
            start = {samplesDir() + "/grammar.gram", samplePolicy(), samplesDir() + "/sentences.mrg"};
            start.removeAll(QString());
        }
        for (const QString& p : start) openFile(p);
    }
}

MainWindow::~MainWindow() = default;  // the loader cancels and waits

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this,
                    [this] { openDialog(tr("Open"), tr("PruneScope files (*.gram *.json *.mrg *.tree *.txt);;All files (*)")); });
    file->addAction(tr("Open &Grammar…"), this, [this] { openDialog(tr("Open Grammar"), tr("Grammars (*.gram)")); });
    file->addAction(tr("Open &Policy or Mask…"), this, [this] { openDialog(tr("Open Policy or Mask"), tr("JSON (*.json)")); });
    file->addAction(tr("Open &Treebank or Sentences…"), this,
                    [this] { openDialog(tr("Open Treebank or Sentences"), tr("Treebanks (*.mrg *.tree *.ptb);;Plain sentences (*.txt)")); });
    file->addAction(tr("Open Treebank &Directory…"), this, [this] {
        QString d = QFileDialog::getExistingDirectory(this, tr("Open Treebank Directory"));
        if (!d.isEmpty()) openFile(d);
    });
    recentMenu_ = file->addMenu(tr("&Recent Files"));
    file->addAction(tr("Open &Dependency Treebank…"), this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Open Dependency Treebank"), samplesDir() + "/dep",
                                                       tr("Dependency treebanks (*.dp *.conll *.conllx *.conllu);;All files (*)"));
        if (p.isEmpty()) return;
        setMode(Mode::Dependency);
        depExplorer()->openSentences(p);
    });
    file->addAction(tr("Open Dependency &Model…"), this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Open Dependency Model"), samplesDir() + "/dep",
                                                       tr("Dependency models (*.json);;All files (*)"));
        if (p.isEmpty()) return;
        setMode(Mode::Dependency);
        depExplorer()->openModel(p);
    });
    file->addAction(tr("Open Vine &Cascade…"), this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Open Vine Cascade"), QString(),
                                                       tr("Vine cascades (*.json);;All files (*)"));
        if (p.isEmpty()) return;
        setMode(Mode::Dependency);
        depExplorer()->openCascade(p);
    });
    file->addAction(tr("Open Arc &Filter…"), this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Open Arc Filter"), QString(), tr("Arc filters (*.json);;All files (*)"));
        if (p.isEmpty()) return;
        setMode(Mode::Dependency);
        depExplorer()->openFilter(p);
    });
    file->addAction(tr("Open Dependency F&rontier…"), this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Open Dependency Frontier"), QString(),
            tr("dep-frontier, vine-frontier or dep-eval JSON (*.json);;All files (*)"));
        if (paths.isEmpty()) return;
        setMode(Mode::Dependency);
        QString err;
        if (!DepFrontierWindow::openFiles(this, paths, &err)) reportError(tr("Could not open the dependency frontier:\n%1").arg(err));
    });
    file->addAction(tr("Open Bundled &Sample"), this, [this] {
        for (const QString& p : {samplesDir() + "/grammar.gram", samplePolicy(), samplesDir() + "/sentences.mrg"})
            if (!p.isEmpty()) openFile(p);
    });
    file->addSeparator();
    file->addAction(tr("&Export View as PNG…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, [this] { exportView(false); });
    file->addAction(tr("Export View as &SVG…"), this, [this] { exportView(true); });
    file->addAction(tr("Export &Figure…"), this, [this] {
        if (!explorer_->session()) return reportError(tr("Open a sentence first: there is no chart to export"));
        auto r = askFigureRequest(this, explorer_->session()->hasGold());
        if (!r) return;
        QString err;
        if (!explorer_->exportFigure(r->view, r->path, r->scale, r->caption, &err)) reportError(err);
        else statusBar()->showMessage(tr("Saved %1").arg(r->path), 4000);
    });
    file->addAction(tr("Export &Mask as JSON…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this, [this] { exportMask(); });
    file->addAction(tr("&Print…"), QKeySequence::Print, this, [this] { printDialog(); });
    file->addSeparator();
    file->addAction(tr("Save Sessio&n…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Save Session"), "session.prunescope.json", tr("Sessions (*.json)"));
        if (!p.isEmpty()) saveSession(p);
    });
    file->addAction(tr("Open Sess&ion…"), this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Open Session"), QString(), tr("Sessions (*.json);;All files (*)"));
        if (!p.isEmpty()) openSession(p);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    refreshRecentMenu();

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = explorer_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = explorer_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(explorer_->resetAction());
    edit->addAction(explorer_->keepAllAction());
    edit->addAction(explorer_->keepGoldAction());

    QMenu* sent = menuBar()->addMenu(tr("&Sentence"));
    // Previous/next act on the mode shown (the dependency view has its own sentence list).
    auto step = [this](int d) {
        if (mode_ == Mode::Dependency) dep_->selectSentence(dep_->session().index() + d);
        else selectSentence(sentenceIdx_ + d);
    };
    sent->addAction(tr("&Previous"), QKeySequence(Qt::ALT | Qt::Key_Left), this, [step] { step(-1); });
    sent->addAction(tr("&Next"), QKeySequence(Qt::ALT | Qt::Key_Right), this, [step] { step(+1); });
    sent->addAction(tr("&Type a Sentence"), QKeySequence(Qt::CTRL | Qt::Key_L), this, [this] { typedEdit_->setFocus(); typedEdit_->selectAll(); });
    sent->addAction(tr("Focus the &Chart"), QKeySequence(Qt::CTRL | Qt::Key_1), this, [this] { explorer_->heatMap()->setFocus(); });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    auto* qGroup = new QActionGroup(this);
    for (Quantity q : kAllQuantities) {
        QAction* a = view->addAction(quantityName(q), this, [this, q] { explorer_->setQuantity(q); });
        a->setCheckable(true);
        a->setChecked(q == explorer_->quantity());
        qGroup->addAction(a);
    }
    view->addSeparator();
    binarizedAct_ = view->addAction(tr("Show &Binarized Symbols"));
    binarizedAct_->setCheckable(true);
    connect(binarizedAct_, &QAction::toggled, this, [this](bool on) { explorer_->setShowBinarizedSymbols(on); });
    binarizedAct_->setObjectName("showBinarizedSymbolsAction");
    binarizedAct_->setToolTip(tr("Cells show the grammar's binarized symbols (@NP|DT_NN, NP^S) instead of the n-ary labels (NP)"));
    // Zoom and fit: the chart, or the tree holding the keyboard focus (Ctrl + wheel over any of them).
    QAction* zoomIn = view->addAction(tr("Zoom &In"), this, [this] { explorer_->focusedZoomArea()->zoomIn(); });
    // (Not also QKeySequence::ZoomIn/ZoomOut: a sequence listed twice is ambiguous and never fires.)
    zoomIn->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)});
    QAction* zoomOut = view->addAction(tr("Zoom &Out"), this, [this] { explorer_->focusedZoomArea()->zoomOut(); });
    zoomOut->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Minus));
    view->addAction(tr("&Fit to Window"), QKeySequence(Qt::CTRL | Qt::Key_0), this, [this] {
        for (widgets::ZoomArea* a : {explorer_->chartZoom(), explorer_->predictedZoom(), explorer_->goldZoom()}) a->fit();
    });
    presentationAct_ = view->addAction(tr("&Presentation Font Size"));
    presentationAct_->setCheckable(true);
    presentationAct_->setObjectName("presentationFontAction");
    presentationAct_->setToolTip(tr("Chart, trees and statistics in a font 1.6 times the normal size (for a projector)"));
    connect(presentationAct_, &QAction::toggled, this, [this](bool on) { explorer_->setPresentationFont(on); });
    view->addSeparator();
    auto* mGroup = new QActionGroup(this);
    const QStringList modes{tr("Instant Changes"), tr("Animated Changes"), tr("Step-by-Step Changes")};
    for (int m = 0; m < 3; ++m) {
        QAction* a = view->addAction(modes[m], this, [this, m] { explorer_->setAnimationMode(static_cast<widgets::AnimationMode>(m)); });
        a->setCheckable(true);
        a->setChecked(m == 0);
        mGroup->addAction(a);
    }
    view->addAction(explorer_->replayAction());  // Replay CKY (F5), ExplorerReplay.cpp
    view->addSeparator();  // constituency (span chart) or dependency (arc matrix) mode
    auto* modeGroup = new QActionGroup(this);
    modeActions_[0] = view->addAction(tr("C&onstituency Mode (Span Chart)"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this,
                                      [this] { setMode(Mode::Constituency); });
    modeActions_[1] = view->addAction(tr("&Dependency Mode (Arc Matrix)"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D), this,
                                      [this] { setMode(Mode::Dependency); });
    for (QAction* a : modeActions_) {
        a->setCheckable(true);
        modeGroup->addAction(a);
    }
    modeActions_[0]->setChecked(true);
    QAction* compare = comparison_->toggleViewAction();
    compare->setText(tr("Co&mpare Masks"));
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    view->addAction(compare);
    view->addSeparator();  // the frontier and LOLS training window
    view->addAction(tr("&Frontier && Training…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F), this, [this] { FrontierWindow::showFor(this); });
    view->addAction(tr("&Randomized Pruning…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R), this, [this] { RandomizedWindow::showFor(this); });
    view->addAction(tr("&Cube Pruning Explorer…"), this, [this] { CubeExplorerWindow::showFor(this); });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About PruneScope"), this, [this] {
        QFile f(":/prunescope/about.html");
        f.open(QIODevice::ReadOnly);
        QMessageBox::about(this, tr("About PruneScope"), QString::fromUtf8(f.readAll()));
    });
}

void MainWindow::buildToolBar() {
    QToolBar* tb = addToolBar(tr("Sentence"));
    sentenceToolBar_ = tb;
    tb->setObjectName("sentenceToolBar");
    tb->setMovable(false);
    tb->addAction(tr("◀"), this, [this] { selectSentence(sentenceIdx_ - 1); })->setToolTip(tr("Previous sentence (Alt+Left)"));
    sentenceBox_ = new QComboBox;
    sentenceBox_->setObjectName("sentenceBox");
    sentenceBox_->setMinimumContentsLength(48);
    sentenceBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    connect(sentenceBox_, &QComboBox::activated, this, [this](int idx) { selectSentence(idx); });
    tb->addWidget(sentenceBox_);
    tb->addAction(tr("▶"), this, [this] { selectSentence(sentenceIdx_ + 1); })->setToolTip(tr("Next sentence (Alt+Right)"));
    tb->addSeparator();
    typedEdit_ = new QLineEdit;
    typedEdit_->setObjectName("typedSentence");
    typedEdit_->setPlaceholderText(tr("Type a tokenized sentence and press Enter (Ctrl+L)"));
    typedEdit_->setClearButtonEnabled(true);
    connect(typedEdit_, &QLineEdit::returnPressed, this, [this] { parseTypedSentence(typedEdit_->text()); });
    tb->addWidget(typedEdit_);
    tb->addSeparator();
    tb->addAction(explorer_->resetAction());
    tb->addAction(explorer_->keepAllAction());
    tb->addAction(explorer_->keepGoldAction());
}

DepExplorerPanel* MainWindow::depExplorer() {
    if (!dep_) {
        dep_ = new DepExplorerPanel(nullptr, opt_.loadSample);
        stack_->addWidget(dep_);
        connect(dep_, &DepExplorerPanel::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 5000); });
        connect(dep_, &DepExplorerPanel::errorOccurred, this, &MainWindow::errorOccurred);
    }
    return dep_;
}

void MainWindow::setMode(Mode m) {
    mode_ = m;
    stack_->setCurrentWidget(m == Mode::Dependency ? static_cast<QWidget*>(depExplorer()) : explorer_);
    sentenceToolBar_->setVisible(m == Mode::Constituency);
    docLabel_->setVisible(m == Mode::Constituency);
    modeActions_[m == Mode::Dependency ? 1 : 0]->setChecked(true);
    refreshTitle();
}

void MainWindow::openDialog(const QString& caption, const QString& filter) {
    QString dir = recent_.isEmpty() ? samplesDir() : QFileInfo(recent_.first()).absolutePath();
    QString p = QFileDialog::getOpenFileName(this, caption, dir, filter);
    if (!p.isEmpty()) openFile(p);
}

void MainWindow::openFile(const QString& path) {
    pending_ << path;
    if (!loader_->isRunning()) startNextLoad();
}

void MainWindow::startNextLoad() {
    if (pending_.isEmpty()) {
        progress_->hide();
        return;
    }
    QString path = pending_.takeFirst();
    progress_->setRange(0, 0);
    progress_->show();
    statusBar()->showMessage(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    auto result = std::make_shared<LoadResult>();
    loading_ = result;
    loader_->start([path, result](const Progress& progress) { *result = loadFile(path, progress); });
}

bool MainWindow::openFileSync(const QString& path) {
    LoadResult r = loadFile(path);
    bool ok = apply(r);
    emit loadFinished(ok, path);
    return ok;
}

bool MainWindow::loadSampleSync() {
    bool ok = openFileSync(samplesDir() + "/grammar.gram");
    if (QString p = samplePolicy(); !p.isEmpty()) ok = openFileSync(p) && ok;
    return openFileSync(samplesDir() + "/sentences.mrg") && ok;
}

bool MainWindow::apply(const LoadResult& r) {
    if (!r.ok()) {
        reportError(tr("Could not open %1:\n%2\n\nThe previous document is kept.").arg(QFileInfo(r.path).fileName(), r.error));
        return false;
    }
    switch (r.kind) {
    case FileKind::Grammar:
        grammar_ = r.grammar;
        grammarPath_ = r.path;
        break;
    case FileKind::Policy:
        policy_ = r.policy;
        policyPath_ = r.path;
        break;
    case FileKind::Treebank:
    case FileKind::Sentences:
        sentences_ = r.sentences;
        sentenceIdx_ = 0;
        fileSentences_ = sentenceCount();
        if (opt_.useSettings && QSettings().value("lastSentences").toString() == QFileInfo(r.path).absoluteFilePath())
            sentenceIdx_ = std::clamp(QSettings().value("lastSentenceIndex", 0).toInt(), 0, sentenceCount() - 1);
        sentencesPath_ = r.path;
        refreshSentenceBox();
        break;
    case FileKind::Mask: {
        SentenceSession* s = explorer_->session();
        if (!s || r.mask->n != s->length()) {
            reportError(tr("The mask in %1 is for %2 words, but the current sentence has %3.")
                            .arg(QFileInfo(r.path).fileName()).arg(r.mask->n).arg(s ? s->length() : 0));
            return false;
        }
        explorer_->setMaskCommand(*r.mask, tr("load mask"));
        addRecent(r.path);
        return true;
    }
    }
    addRecent(r.path);
    rebuildSession();
    refreshTitle();
    saveSettings();
    return true;
}

void MainWindow::reportError(const QString& message) {
    emit errorOccurred(message);
    auto* box = new QMessageBox(QMessageBox::Warning, tr("PruneScope"), message, QMessageBox::Ok, this);
    box->setObjectName("errorDialog");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
    statusBar()->showMessage(message.section('\n', 0, 1), 8000);
}

void MainWindow::rebuildSession() {
    if (!grammar_ || sentenceIdx_ < 0 || sentenceIdx_ >= sentenceCount()) {
        explorer_->setSession(nullptr);
        return;
    }
    // Without a policy the keep probability says nothing: show inside scores instead.
    if (!policy_ && explorer_->quantity() == Quantity::KeepProbability) explorer_->setQuantity(Quantity::InsideScore);
    try {
        explorer_->setSession(std::make_unique<SentenceSession>(grammar_, policy_, sentences_[sentenceIdx_]));
    } catch (const std::exception& e) {
        explorer_->setSession(nullptr);
        reportError(tr("Cannot parse sentence %1: %2").arg(sentenceIdx_ + 1).arg(QString::fromStdString(e.what())));
    }
}

void MainWindow::selectSentence(int index) {
    if (index < 0 || index >= sentenceCount()) return;
    sentenceIdx_ = index;
    sentenceBox_->setCurrentIndex(index);
    rebuildSession();
    if (opt_.useSettings) QSettings().setValue("lastSentenceIndex", index);
}

void MainWindow::parseTypedSentence(const QString& text) {
    SentenceItem item = typedSentence(text);
    if (item.words.empty()) return;
    sentences_.push_back(std::move(item));
    refreshSentenceBox();
    selectSentence(sentenceCount() - 1);
}

void MainWindow::refreshSentenceBox() {
    sentenceBox_->clear();
    for (int s = 0; s < sentenceCount(); ++s) {
        QStringList w;
        for (const auto& t : sentences_[s].words) w << QString::fromStdString(t);
        QString label = QStringLiteral("%1. %2 (%3 words%4)").arg(s + 1).arg(w.join(' ')).arg(w.size())
                            .arg(sentences_[s].gold ? QString() : tr(", no gold"));
        sentenceBox_->addItem(label);
    }
    sentenceBox_->setCurrentIndex(sentenceIdx_);
}

void MainWindow::refreshTitle() {
    auto name = [](const QString& p) { return p.isEmpty() ? tr("none") : QFileInfo(p).fileName(); };
    if (mode_ == Mode::Dependency) {
        setWindowTitle(tr("PruneScope — dependency mode"));
        return;
    }
    setWindowTitle(tr("PruneScope — %1").arg(sentencesPath_.isEmpty() ? tr("no sentences") : name(sentencesPath_)));
    docLabel_->setText(tr("Grammar: %1   Policy: %2").arg(name(grammarPath_), policyPath_.isEmpty() ? tr("none (all spans kept)") : name(policyPath_)));
}

void MainWindow::addRecent(const QString& path) {
    QString abs = QFileInfo(path).absoluteFilePath();
    recent_.removeAll(abs);
    recent_.prepend(abs);
    while (recent_.size() > 10) recent_.removeLast();
    refreshRecentMenu();
}

void MainWindow::refreshRecentMenu() {
    recentMenu_->clear();
    for (const QString& p : recent_) recentMenu_->addAction(QFileInfo(p).fileName() + "  —  " + QFileInfo(p).absolutePath(), this, [this, p] { openFile(p); });
    recentMenu_->setEnabled(!recent_.isEmpty());
}

void MainWindow::saveSettings() {
    if (!opt_.useSettings) return;
    QSettings s;
    s.setValue("recentFiles", recent_);
    if (!grammarPath_.isEmpty()) s.setValue("lastGrammar", QFileInfo(grammarPath_).absoluteFilePath());
    if (!policyPath_.isEmpty()) s.setValue("lastPolicy", QFileInfo(policyPath_).absoluteFilePath());
    if (!sentencesPath_.isEmpty()) s.setValue("lastSentences", QFileInfo(sentencesPath_).absoluteFilePath());
    s.setValue("quantity", static_cast<int>(explorer_->quantity()));
    s.setValue("showBinarizedSymbols", explorer_->showBinarizedSymbols());
    s.setValue("presentationFont", explorer_->presentationFont());
}

void MainWindow::restoreSettings() {
    QSettings s;
    recent_ = s.value("recentFiles").toStringList();
    refreshRecentMenu();
    if (s.contains("geometry")) restoreGeometry(s.value("geometry").toByteArray());
    explorer_->setQuantity(static_cast<Quantity>(std::clamp(s.value("quantity", 0).toInt(), 0, 3)));
    binarizedAct_->setChecked(s.value("showBinarizedSymbols", false).toBool());
    presentationAct_->setChecked(s.value("presentationFont", false).toBool());
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

void MainWindow::exportView(bool svg) {
    QString p = QFileDialog::getSaveFileName(this, svg ? tr("Export View as SVG") : tr("Export View as PNG"),
                                             svg ? "prunescope-view.svg" : "prunescope-view.png", svg ? "SVG (*.svg)" : "PNG (*.png)");
    if (p.isEmpty()) return;
    QString err;
    if (mode_ == Mode::Dependency) {  // the dependency view as an image (no SVG renderer of its own)
        if (!widgets::saveWidgetImage(dep_, p, &err)) reportError(err);
        else statusBar()->showMessage(tr("Saved %1").arg(p), 4000);
        return;
    }
    if (!(svg ? explorer_->exportSvg(p, &err) : explorer_->exportPng(p, &err))) reportError(err);
    else statusBar()->showMessage(tr("Saved %1").arg(p), 4000);
}

void MainWindow::exportMask() {
    QString p = QFileDialog::getSaveFileName(this, tr("Export Mask"), "mask.json", "JSON (*.json)");
    if (p.isEmpty()) return;
    QString err;
    if (!explorer_->exportMask(p, &err)) reportError(err);
    else statusBar()->showMessage(tr("Saved %1").arg(p), 4000);
}

} // namespace prunescope::gui
