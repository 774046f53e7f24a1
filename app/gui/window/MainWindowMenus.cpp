// The main window's menu bar and sentence toolbar: one function per menu (a new menu item goes into
// the function of its menu; windows of their own are listed at the end of the View menu).
#include "app/gui/cube/CubeExplorerWindow.h"
#include "app/gui/dep/ComplexityWindow.h"
#include "app/gui/dep/DepExplorerPanel.h"
#include "app/gui/dep/DepFrontierWindow.h"
#include "app/gui/explorer/MaskComparisonPanel.h"
#include "app/gui/frontier/FigureExportDialog.h"
#include "app/gui/frontier/FrontierWindow.h"
#include "app/gui/randomized/RandomizedWindow.h"
#include "app/gui/window/MainWindow.h"
#include "app/gui/window/TourDialog.h"

#include <QActionGroup>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoStack>

namespace prunescope::gui {

void MainWindow::buildMenus() {
    buildFileMenu();
    buildEditMenu();
    buildSentenceMenu();
    buildViewMenu();
    buildHelpMenu();
}

void MainWindow::buildFileMenu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
        openDialog(tr("Open"),
                   tr("PruneScope files (*.gram *.json *.mrg *.tree *.txt);;All files (*)"));
    });
    file->addAction(tr("Open &Grammar…"), this,
                    [this] { openDialog(tr("Open Grammar"), tr("Grammars (*.gram)")); });
    file->addAction(tr("Open &Policy or Mask…"), this,
                    [this] { openDialog(tr("Open Policy or Mask"), tr("JSON (*.json)")); });
    file->addAction(tr("Open &Treebank or Sentences…"), this, [this] {
        openDialog(tr("Open Treebank or Sentences"),
                   tr("Treebanks (*.mrg *.tree *.ptb);;Plain sentences (*.txt)"));
    });
    file->addAction(tr("Open Treebank &Directory…"), this, [this] {
        QString d = QFileDialog::getExistingDirectory(this, tr("Open Treebank Directory"));
        if (!d.isEmpty()) openFile(d);
    });
    recentMenu_ = file->addMenu(tr("&Recent Files"));
    // An "open" action of the dependency mode: a file dialog, then the mode and `open` on the path.
    auto addDependencyOpenAction =
        [this, file](const QString& text, const QString& title, const QString& dir,
                     const QString& filter,
                     bool (DepExplorerPanel::*open)(const QString&, QString*)) {
            file->addAction(text, this, [this, title, dir, filter, open] {
                const QString p = QFileDialog::getOpenFileName(this, title, dir, filter);
                if (p.isEmpty()) return;
                setMode(Mode::Dependency);
                (depExplorer()->*open)(p, nullptr);
            });
        };
    addDependencyOpenAction(
        tr("Open &Dependency Treebank…"), tr("Open Dependency Treebank"), samplesDir() + "/dep",
        tr("Dependency treebanks (*.dp *.conll *.conllx *.conllu);;All files (*)"),
        &DepExplorerPanel::openSentences);
    file->addAction(tr("Open Dependency Treebank Fo&lder…"), this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Open Dependency Treebank "
                                                                     "Folder"));
        if (d.isEmpty()) return;
        setMode(Mode::Dependency);
        depExplorer()->openSentences(d, nullptr);
    });
    addDependencyOpenAction(tr("Open Dependency &Model…"), tr("Open Dependency Model"),
                            samplesDir() + "/dep", tr("Dependency models (*.json);;All files (*)"),
                            &DepExplorerPanel::openModel);
    addDependencyOpenAction(tr("Open Vine &Cascade…"), tr("Open Vine Cascade"), QString(),
                            tr("Vine cascades (*.json);;All files (*)"),
                            &DepExplorerPanel::openCascade);
    addDependencyOpenAction(tr("Open Arc &Filter…"), tr("Open Arc Filter"), QString(),
                            tr("Arc filters (*.json);;All files (*)"),
                            &DepExplorerPanel::openFilter);
    file->addAction(tr("Open Dependency F&rontier…"), this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Open Dependency Frontier"), QString(),
            tr("dep-frontier, vine-frontier or dep-eval JSON (*.json);;All files (*)"));
        if (paths.isEmpty()) return;
        setMode(Mode::Dependency);
        QString err;
        if (!DepFrontierWindow::openFiles(this, paths, &err))
            reportError(tr("Could not open the dependency frontier:\n%1").arg(err));
    });
    file->addAction(tr("Open Complexity R&un…"), this, [this] {
        const QStringList paths =
            QFileDialog::getOpenFileNames(this, tr("Open Complexity Run"), QString(),
                                          tr("vine-complexity JSON (*.json);;All files (*)"));
        if (paths.isEmpty()) return;
        setMode(Mode::Dependency);
        QString err;
        if (!ComplexityWindow::openFiles(this, paths, &err))
            reportError(tr("Could not open the complexity run:\n%1").arg(err));
    });
    file->addAction(tr("Open Bundled &Sample"), this, [this] {
        for (const QString& p :
             {samplesDir() + "/grammar.gram", samplePolicy(), samplesDir() + "/sentences.mrg"})
            if (!p.isEmpty()) openFile(p);
    });
    file->addAction(tr("Open &Classroom Sample"), this, [this] { openClassroomSampleSync(); })
        ->setToolTip(tr("A 14-symbol grammar and twelve short sentences: the whole chart fits on a "
                        "slide; Edit ▸ Edit Grammar changes it live"));
    file->addSeparator();
    file->addAction(tr("&Export View as PNG…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                    [this] { exportView(false); });
    file->addAction(tr("Export View as &SVG…"), this, [this] { exportView(true); });
    file->addAction(tr("Export &Figure…"), this, [this] {
        if (!explorer_->session())
            return reportError(tr("Open a sentence first: there is no chart to export"));
        auto r = askFigureRequest(this, explorer_->session()->hasGold());
        if (!r) return;
        QString err;
        if (!explorer_->exportFigure(r->view, r->path, r->scale, r->caption, &err))
            reportError(err);
        else
            statusBar()->showMessage(tr("Saved %1").arg(r->path), 4000);
    });
    file->addAction(tr("Export &Mask as JSON…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
                    this, [this] { exportMask(); });
    file->addAction(tr("&Print…"), QKeySequence::Print, this, [this] { printDialog(); });
    file->addSeparator();
    file->addAction(
        tr("Save Sessio&n…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this, [this] {
            const QString p = QFileDialog::getSaveFileName(
                this, tr("Save Session"), "session.prunescope.json", tr("Sessions (*.json)"));
            if (!p.isEmpty()) saveSession(p);
        });
    file->addAction(tr("Open Sess&ion…"), this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Open Session"), QString(),
                                                       tr("Sessions (*.json);;All files (*)"));
        if (!p.isEmpty()) openSession(p);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    refreshRecentMenu();
}

void MainWindow::buildEditMenu() {
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
    edit->addAction(explorer_->inspectAction());
    edit->addSeparator();
    editGrammarAct_ = edit->addAction(tr("Edit &Grammar…"), this, &MainWindow::openGrammarEditor);
    editGrammarAct_->setObjectName("editGrammarAction");
}

void MainWindow::buildSentenceMenu() {
    QMenu* sent = menuBar()->addMenu(tr("&Sentence"));
    // Previous/next act on the mode shown (the dependency view has its own sentence list).
    auto step = [this](int d) {
        if (mode_ == Mode::Dependency)
            dep_->selectSentence(dep_->session().index() + d);
        else
            selectSentence(sentenceIdx_ + d);
    };
    sent->addAction(tr("&Previous"), QKeySequence(Qt::ALT | Qt::Key_Left), this,
                    [step] { step(-1); });
    sent->addAction(tr("&Next"), QKeySequence(Qt::ALT | Qt::Key_Right), this, [step] { step(+1); });
    sent->addAction(tr("&Type a Sentence"), QKeySequence(Qt::CTRL | Qt::Key_L), this, [this] {
        typedEdit_->setFocus();
        typedEdit_->selectAll();
    });
    sent->addAction(tr("Focus the &Chart"), QKeySequence(Qt::CTRL | Qt::Key_1), this,
                    [this] { explorer_->heatMap()->setFocus(); });
}

void MainWindow::buildViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    auto* qGroup = new QActionGroup(this);
    for (Quantity q : kAllQuantities) {
        QAction* a =
            view->addAction(quantityName(q), this, [this, q] { explorer_->setQuantity(q); });
        a->setCheckable(true);
        a->setChecked(q == explorer_->quantity());
        qGroup->addAction(a);
        constituencyOnly_ << a;
    }
    view->addSeparator();
    binarizedAct_ = view->addAction(tr("Show &Binarized Symbols"));
    binarizedAct_->setCheckable(true);
    connect(binarizedAct_, &QAction::toggled, this,
            [this](bool on) { explorer_->setShowBinarizedSymbols(on); });
    binarizedAct_->setObjectName("showBinarizedSymbolsAction");
    binarizedAct_->setToolTip(tr("Cells show the grammar's binarized symbols (@NP|DT_NN, NP^S) "
                                 "instead of the n-ary labels (NP)"));
    constituencyOnly_ << binarizedAct_;
    // Zoom and fit: the chart, or the tree holding the keyboard focus (Ctrl + wheel over any of
    // them).
    QAction* zoomIn =
        view->addAction(tr("Zoom &In"), this, [this] { focusedZoomArea()->zoomIn(); });
    // (Not also QKeySequence::ZoomIn/ZoomOut: a sequence listed twice is ambiguous and never
    // fires.)
    zoomIn->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)});
    QAction* zoomOut =
        view->addAction(tr("Zoom &Out"), this, [this] { focusedZoomArea()->zoomOut(); });
    zoomOut->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Minus));
    view->addAction(tr("&Fit to Window"), QKeySequence(Qt::CTRL | Qt::Key_0), this, [this] {
        for (widgets::ZoomArea* a :
             {explorer_->chartZoom(), explorer_->predictedZoom(), explorer_->goldZoom()})
            a->fit();
        if (dep_) dep_->matrixZoom()->fit(), dep_->treeZoom()->fit();
    });
    presentationAct_ = view->addAction(tr("&Presentation Font Size"));
    presentationAct_->setCheckable(true);
    presentationAct_->setObjectName("presentationFontAction");
    presentationAct_->setToolTip(
        tr("Chart, trees and statistics in a font 1.6 times the normal size (for a projector)"));
    connect(presentationAct_, &QAction::toggled, this,
            [this](bool on) { explorer_->setPresentationFont(on); });
    // Presentation mode (issue 42): one key for a class — the presentation font, step-by-step
    // changes and no toolbar or status bar, full screen; the same key restores what was before.
    presentationModeAct_ = view->addAction(tr("Presentation &Mode"));
    presentationModeAct_->setObjectName("presentationModeAction");
    presentationModeAct_->setCheckable(true);
    presentationModeAct_->setShortcut(QKeySequence(Qt::Key_F11));
    presentationModeAct_->setToolTip(tr("Large view for a projector: presentation font, "
                                        "step-by-step changes, no toolbar or status bar (F11)"));
    addAction(presentationModeAct_); // its key works with the menu bar hidden too
    connect(presentationModeAct_, &QAction::toggled, this,
            [this](bool on) { setPresentationMode(on); });
    view->addSeparator();
    auto* mGroup = new QActionGroup(this);
    const QStringList modes{tr("Instant Changes"), tr("Animated Changes"),
                            tr("Step-by-Step Changes")};
    for (int m = 0; m < 3; ++m) {
        QAction* a = view->addAction(modes[m], this, [this, m] {
            explorer_->setAnimationMode(static_cast<widgets::AnimationMode>(m));
        });
        a->setCheckable(true);
        a->setChecked(m == 0);
        mGroup->addAction(a);
        constituencyOnly_ << a;
    }
    // The entries follow the explorer's Changes box (issue 42: they kept the first choice).
    if (auto* box = explorer_->findChild<QComboBox*>("animationModeBox"))
        connect(box, &QComboBox::currentIndexChanged, this, [mGroup](int idx) {
            if (idx >= 0 && idx < mGroup->actions().size())
                mGroup->actions()[idx]->setChecked(true);
        });
    view->addAction(explorer_->replayAction());      // Replay CKY (F5), ExplorerReplay.cpp
    view->addAction(explorer_->maxRuleTreeAction()); // Ctrl+M, ExplorerMaxRule.cpp
    constituencyOnly_ << explorer_->replayAction();
    view->addSeparator(); // constituency (span chart) or dependency (arc matrix) mode
    auto* modeGroup = new QActionGroup(this);
    modeActions_[0] = view->addAction(tr("C&onstituency Mode (Span Chart)"),
                                      QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this,
                                      [this] { setMode(Mode::Constituency); });
    modeActions_[1] = view->addAction(tr("&Dependency Mode (Arc Matrix)"),
                                      QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D), this,
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
    constituencyOnly_ << compare;
    view->addSeparator(); // the frontier and LOLS training window
    view->addAction(tr("&Frontier && Training…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F),
                    this, [this] { FrontierWindow::showFor(this); });
    view->addAction(tr("&Randomized Pruning…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
                    this, [this] { RandomizedWindow::showFor(this); });
    view->addAction(tr("&Cube Pruning Explorer…"), this,
                    [this] { CubeExplorerWindow::showFor(this); });
}

void MainWindow::buildHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    tourAct_ = help->addAction(tr("&Tour…"), QKeySequence(Qt::Key_F1), this, [this] {
        setMode(Mode::Constituency);
        TourDialog* t = tour();
        t->show();
        t->raise();
    });
    tourAct_->setObjectName("tourAction");
    tourAct_->setToolTip(tr("A step-by-step guide: prune a gold span, watch propagation, replay "
                            "CKY, compare masks, pick λ"));
    shortcutsAct_ =
        help->addAction(tr("&Keyboard Shortcuts"), QKeySequence(Qt::CTRL | Qt::Key_Slash), this,
                        [this] { keyboardShortcutsDialog(this)->show(); });
    shortcutsAct_->setObjectName("keyboardShortcutsAction");
    help->addSeparator();
    help->addAction(tr("&About PruneScope"), this, [this] {
        QFile f(":/prunescope/about.html");
        f.open(QIODevice::ReadOnly);
        QMessageBox::about(this, tr("About PruneScope"), QString::fromUtf8(f.readAll()));
    });
}

void MainWindow::setPresentationMode(bool on) {
    if (presentationModeAct_->isChecked() != on) return presentationModeAct_->setChecked(on);
    if (on) {
        beforePresentation_ = {presentationAct_->isChecked(), explorer_->animationMode(),
                               windowState()};
        presentationAct_->setChecked(true);
        explorer_->setAnimationMode(widgets::AnimationMode::Step);
        showFullScreen();
    } else {
        presentationAct_->setChecked(beforePresentation_.font);
        explorer_->setAnimationMode(beforePresentation_.animation);
        setWindowState(beforePresentation_.state);
    }
    sentenceToolBar_->setVisible(!on);
    statusBar()->setVisible(!on);
}

TourDialog* MainWindow::tour() {
    if (!tour_) tour_ = new TourDialog(this);
    return tour_;
}

void MainWindow::buildToolBar() {
    QToolBar* tb = addToolBar(tr("Sentence"));
    sentenceToolBar_ = tb;
    tb->setObjectName("sentenceToolBar");
    tb->setMovable(false);
    tb->addAction(tr("◀"), this, [this] {
          selectSentence(sentenceIdx_ - 1);
      })->setToolTip(tr("Previous sentence (Alt+Left)"));
    sentenceBox_ = new QComboBox;
    sentenceBox_->setObjectName("sentenceBox");
    sentenceBox_->setMinimumContentsLength(28); // fits 1024 px beside the mask buttons (issue 42)
    sentenceBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    connect(sentenceBox_, &QComboBox::activated, this, [this](int idx) { selectSentence(idx); });
    tb->addWidget(sentenceBox_);
    tb->addAction(tr("▶"), this, [this] {
          selectSentence(sentenceIdx_ + 1);
      })->setToolTip(tr("Next sentence (Alt+Right)"));
    tb->addSeparator();
    typedEdit_ = new QLineEdit;
    typedEdit_->setObjectName("typedSentence");
    typedEdit_->setPlaceholderText(tr("Type a tokenized sentence and press Enter (Ctrl+L)"));
    typedEdit_->setClearButtonEnabled(true);
    connect(typedEdit_, &QLineEdit::returnPressed, this,
            [this] { parseTypedSentence(typedEdit_->text()); });
    tb->addWidget(typedEdit_);
    tb->addSeparator();
    tb->addAction(explorer_->resetAction());
    tb->addAction(explorer_->keepAllAction());
    tb->addAction(explorer_->keepGoldAction());
}

} // namespace prunescope::gui
