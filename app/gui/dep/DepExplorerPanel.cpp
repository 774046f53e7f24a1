// The dependency view (DepExplorerPanel.h).
#include "app/gui/dep/DepExplorerPanel.h"

#include "app/gui/window/MainWindow.h"
#include "core/dep/DepEval.h"
#include "core/dep/DepReader.h"
#include "core/dep/DepWriter.h"
#include "core/filters/ArcFilterFile.h"
#include "core/filters/FilterStage.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/vine/VineCascade.h"
#include "widgets/ArcMatrixView.h"
#include "widgets/CubeTreeView.h"
#include "widgets/ZoomArea.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QSlider>
#include <QSplitter>
#include <QToolBar>
#include <QVBoxLayout>

#include <cmath>

namespace prunescope::gui {

namespace {
QString sentenceText(const DepSentence& s) {
    QStringList w;
    for (int i = 1; i <= s.size(); ++i)
        w << QString::fromStdString(s.words[static_cast<std::size_t>(i)]);
    return w.join(' ');
}
} // namespace

constexpr qint64 kSupersedeAfterMs = 150;

QString defaultDepModelPath() {
    return sampleFile("dep/model.json");
}
QString defaultDepSentencesPath() {
    return sampleFile("dep/sentences.dp");
}

DepExplorerPanel::DepExplorerPanel(QWidget* parent, bool openDefault) : QWidget(parent) {
    task_ = new BackgroundTask(this);
    buildUi();
    connect(task_, &BackgroundTask::finished, this, [this] {
        if (pending_) session_.apply(std::move(*pending_));
        pending_.reset();
        refresh();
        if (dirty_) recompute();
    });
    connect(task_, &BackgroundTask::cancelled, this, [this] { // superseded by a newer request
        pending_.reset();
        if (dirty_) recompute();
    });
    connect(task_, &BackgroundTask::failed, this, [this](const QString& m) {
        pending_.reset();
        report(m);
        if (dirty_) recompute();
    });
    if (openDefault) {
        if (const QString s = defaultDepSentencesPath(); !s.isEmpty()) openSentences(s);
        if (const QString m = defaultDepModelPath(); !m.isEmpty()) openModel(m);
    }
    refresh();
}

DepExplorerPanel::~DepExplorerPanel() = default; // the task cancels and waits

// The toolbar: open treebank, model, cascade and filters; the sentence; colouring; flips and
// export.
void DepExplorerPanel::buildToolBar() {
    toolBar_ = new QToolBar(tr("Dependency"));
    toolBar_->setObjectName("depToolBar");
    toolBar_->addAction(tr("Open Treebank…"), this, [this] {
        const QString p = QFileDialog::getOpenFileName(
            this, tr("Open Dependency Treebank"), QFileInfo(sentencesPath_).absolutePath(),
            tr("Dependency treebanks (*.dp *.conll *.conllx *.conllu);;All files (*)"));
        if (!p.isEmpty()) openSentences(p);
    });
    toolBar_
        ->addAction(tr("Open Folder…"), this,
                    [this] {
                        const QString d = QFileDialog::getExistingDirectory(
                            this, tr("Open Dependency Treebank Folder"),
                            QFileInfo(sentencesPath_).absolutePath());
                        if (!d.isEmpty()) openSentences(d);
                    })
        ->setToolTip(tr("Every .dp, .conll, .conllx and .conllu file of a folder, by name (a "
                        "split such as UD's or the dependency sample's dev/)"));
    toolBar_->addAction(tr("Open Model…"), this, [this] {
        const QString p = QFileDialog::getOpenFileName(
            this, tr("Open Dependency Model"), QFileInfo(modelPath_).absolutePath(),
            tr("Dependency models (*.json);;All files (*)"));
        if (!p.isEmpty()) openModel(p);
    });
    toolBar_->addSeparator();
    toolBar_
        ->addAction(tr("Open Cascade…"), this,
                    [this] {
                        const QString p = QFileDialog::getOpenFileName(
                            this, tr("Open Vine Cascade"), QString(),
                            tr("Vine cascades (*.json);;All files (*)"));
                        if (!p.isEmpty()) openCascade(p);
                    })
        ->setToolTip(tr("A vine-pruning cascade from prunescope-cli vine-train: its stages get one "
                        "alpha slider each"));
    toolBar_
        ->addAction(tr("Open Filter…"), this,
                    [this] {
                        const QString p =
                            QFileDialog::getOpenFileName(this, tr("Open Arc Filter"), QString(),
                                                         tr("Arc filters (*.json);;All files (*)"));
                        if (!p.isEmpty()) openFilter(p);
                    })
        ->setToolTip(tr("An arc filter from prunescope-cli filter-train: the first stage; open a "
                        "second one to compare"));
    filterBox_ = new QComboBox;
    filterBox_->setAccessibleName(tr("Active arc filter"));
    filterBox_->setToolTip(
        tr("The active arc filter; arcs the other loaded filter decides differently are outlined"));
    filterBox_->addItem(tr("no filter"));
    toolBar_->addWidget(filterBox_);
    connect(filterBox_, &QComboBox::activated, this, [this](int i) { setActiveFilter(i - 1); });
    toolBar_->addAction(tr("◀"), this, [this] { selectSentence(session_.index() - 1); })
        ->setToolTip(tr("Previous sentence"));
    sentenceBox_ = new QComboBox;
    sentenceBox_->setMinimumContentsLength(36);
    sentenceBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    sentenceBox_->setAccessibleName(tr("Sentence"));
    toolBar_->addWidget(sentenceBox_);
    connect(sentenceBox_, &QComboBox::activated, this, [this](int i) { selectSentence(i); });
    toolBar_->addAction(tr("▶"), this, [this] { selectSentence(session_.index() + 1); })
        ->setToolTip(tr("Next sentence"));
    toolBar_->addSeparator();
    toolBar_->addWidget(new QLabel(tr(" colour by ")));
    coloringBox_ = new QComboBox;
    coloringBox_->addItems({tr("max-marginal"), tr("pruning stage")});
    coloringBox_->setAccessibleName(tr("Colour the arc matrix by"));
    toolBar_->addWidget(coloringBox_);
    connect(coloringBox_, &QComboBox::activated, this, [this](int i) { setColoring(i); });
    toolBar_->addAction(tr("Reset Flips"), this, [this] { clearFlips(); })
        ->setToolTip(tr("Return every arc to the stages' decision"));
    toolBar_->addAction(tr("Export Arc Mask…"), this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Export Arc Mask"), "arc-mask.json",
                                                       "JSON (*.json)");
        QString err;
        if (!p.isEmpty() && !exportMask(p, &err))
            report(err);
        else if (!p.isEmpty())
            emit statusMessage(
                tr("Saved %1 (prunescope-cli dep parse --mask-file %1 reproduces this parse)")
                    .arg(p));
    });
    toolBar_
        ->addAction(tr("Export Parse…"), this,
                    [this] {
                        const QString p = QFileDialog::getSaveFileName(
                            this, tr("Export Parse"), "parse.conllu",
                            tr("CoNLL-U (*.conllu);;word TAB POS TAB head (*.dp)"));
                        QString err;
                        if (!p.isEmpty() && !exportParse(p, &err))
                            report(err);
                        else if (!p.isEmpty())
                            emit statusMessage(tr("Saved the tree shown to %1").arg(p));
                    })
        ->setToolTip(tr("Write the tree shown (flips included) as CoNLL-U, the input's lines with "
                        "HEAD filled in, or as .dp, as `dep parse --out` does"));
}

void DepExplorerPanel::buildUi() {
    buildToolBar();
    stageBox_ = new QGroupBox(tr("Pruning stages"));
    stageLayout_ = new QHBoxLayout(stageBox_);
    stageLayout_->setContentsMargins(8, 4, 8, 4);

    tree_ = new widgets::CubeTreeView;
    matrix_ = new widgets::ArcMatrixView;
    matrix_->setTooltipProvider([this](int h, int m) { return arcTooltip(h, m); });
    connect(matrix_, &widgets::ArcMatrixView::arcActivated, this,
            [this](int h, int m) { flipArc(h, m); });
    treeZoom_ = new widgets::ZoomArea(tree_);
    treeZoom_->setObjectName("depTreeZoom");
    matrixZoom_ = new widgets::ZoomArea(matrix_);
    matrixZoom_->setObjectName("depMatrixZoom");
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(treeZoom_);
    split->addWidget(matrixZoom_);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 5);
    split->setSizes({250, 650});

    status_ = new QLabel;
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(toolBar_);
    lay->addWidget(stageBox_);
    lay->addWidget(split, 1);
    lay->addWidget(status_);
    rebuildStageBox();
}

widgets::ZoomArea* DepExplorerPanel::focusedZoomArea() const {
    const QWidget* f = QApplication::focusWidget();
    if (f && (f == treeZoom_ || treeZoom_->isAncestorOf(f))) return treeZoom_;
    return matrixZoom_;
}

bool DepExplorerPanel::openSentences(const QString& path, QString* error) {
    try {
        auto s = readDepTreebank(path.toStdString());
        if (s.empty()) throw InputError(path.toStdString(), 0, 0, "no sentences");
        sentencesPath_ = path;
        session_.setSentences(std::move(s));
        sentenceBox_->clear();
        for (const auto& x : session_.sentences())
            sentenceBox_->addItem(QStringLiteral("%1. %2 (%3 words)")
                                      .arg(sentenceBox_->count() + 1)
                                      .arg(sentenceText(x))
                                      .arg(x.size()));
        recompute();
        return true;
    } catch (const std::exception& e) {
        return openFailed(path, e, tr("The previous sentences are kept."), error);
    }
}

void DepExplorerPanel::selectSentence(int index) {
    if (session_.sentences().empty()) return;
    session_.select(index);
    recompute();
}

void DepExplorerPanel::setAlpha(int stage, double alpha) {
    const int i = sliderStage_.indexOf(stage);
    if (i < 0) return;
    sliders_[i]->blockSignals(true);
    sliders_[i]->setValue(static_cast<int>(std::lround(alpha * kAlphaSteps)));
    sliders_[i]->blockSignals(false);
    alphaLabels_[i]->setText(QString::number(alpha, 'f', 2));
    session_.setAlpha(stage, alpha);
    recompute();
}

void DepExplorerPanel::flipArc(int h, int m) {
    session_.flip(h, m);
    recompute();
}

void DepExplorerPanel::clearFlips() {
    session_.clearFlips();
    recompute();
}

void DepExplorerPanel::setColoring(int c) {
    coloringBox_->setCurrentIndex(c);
    matrix_->setColoring(static_cast<widgets::ArcColoring>(c));
}

bool DepExplorerPanel::exportMask(const QString& path, QString* error) const {
    if (!session_.hasAnalysis()) {
        if (error) *error = tr("No parse to export");
        return false;
    }
    try {
        writeFileAtomically(path.toStdString(), session_.maskJson().dump() + "\n");
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
}

bool DepExplorerPanel::exportParse(const QString& path, QString* error) const {
    if (!session_.hasAnalysis() || !session_.inspection().success) {
        if (error) *error = tr("No tree to export: the mask shown leaves no projective tree");
        return false;
    }
    try {
        writeDepParses(path.toStdString(), {session_.sentence()}, {session_.inspection().heads});
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
}

void DepExplorerPanel::recompute() {
    if (!session_.ready()) {
        refresh();
        return;
    }
    if (task_->isRunning()) {
        dirty_ = true;
        // A long computation (a long sentence under a third-order model) that a newer request
        // supersedes is cancelled; a short one finishes, so dragging a slider still shows results.
        if (running_.elapsed() > kSupersedeAfterMs) task_->cancel();
        return;
    }
    dirty_ = false;
    auto result = std::make_shared<DepAnalysis>();
    pending_ = result;
    const DepSession::Request req = session_.request();
    running_.start();
    task_->start(
        [req, result](const Progress& p) { *result = DepSession::compute(req, p.cancelFlag()); });
}

bool DepExplorerPanel::waitIdle(int timeoutMs) {
    return processEventsUntil(
        [this] {
            return !task_->isRunning() && !dirty_ && (!session_.ready() || session_.current());
        },
        timeoutMs);
}

void DepExplorerPanel::report(const QString& message) {
    emit errorOccurred(message);
    status_->setText(message.section('\n', 0, 1));
    if (!isVisible()) return; // offscreen modes and tests read the status line
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("PruneScope"), message, QMessageBox::Ok, this);
    box->setObjectName("errorDialog");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
}

bool DepExplorerPanel::openFailed(const QString& path, const std::exception& e, const QString& kept,
                                  QString* error) {
    if (error) *error = QString::fromUtf8(e.what());
    report(tr("Could not open %1:\n%2\n\n%3")
               .arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what()), kept));
    return false;
}

QString DepExplorerPanel::statusText() const {
    return status_->text();
}

} // namespace prunescope::gui
