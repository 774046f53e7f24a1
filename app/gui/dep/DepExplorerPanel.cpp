// The dependency view (DepExplorerPanel.h).
#include "app/gui/dep/DepExplorerPanel.h"

#include "app/gui/window/MainWindow.h"
#include "core/dep/DepEval.h"
#include "core/dep/DepReader.h"
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

void DepExplorerPanel::buildUi() {
    toolBar_ = new QToolBar(tr("Dependency"));
    toolBar_->setObjectName("depToolBar");
    toolBar_->addAction(tr("Open Treebank…"), this, [this] {
        const QString p = QFileDialog::getOpenFileName(
            this, tr("Open Dependency Treebank"), QFileInfo(sentencesPath_).absolutePath(),
            tr("Dependency treebanks (*.dp *.conll *.conllx *.conllu);;All files (*)"));
        if (!p.isEmpty()) openSentences(p);
    });
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
                tr("Saved %1 (prunescope-cli dep-parse --mask %1 reproduces this parse)").arg(p));
    });

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

void DepExplorerPanel::recompute() {
    if (!session_.ready()) {
        refresh();
        return;
    }
    if (task_->isRunning()) {
        dirty_ = true;
        return;
    }
    dirty_ = false;
    auto result = std::make_shared<DepAnalysis>();
    pending_ = result;
    const DepSession::Request req = session_.request();
    task_->start([req, result](const Progress&) { *result = DepSession::compute(req); });
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

QString DepExplorerPanel::arcTooltip(int h, int m) const {
    if (!session_.hasAnalysis()) return {};
    const DepSentence& s = session_.sentence();
    const DepInspection& r = session_.inspection();
    const auto w = [&](int i) {
        return QString::fromStdString(s.words[static_cast<std::size_t>(i)]);
    };
    QString t = tr("<b>%1 %2 → %3 %4</b><br>").arg(w(h)).arg(h).arg(w(m)).arg(m);
    const double mm = r.maxMarginals(h, m);
    t += std::isfinite(mm) ? tr("max-marginal %1 (best tree %2, difference %3)<br>")
                                 .arg(mm, 0, 'f', 3)
                                 .arg(r.maxMarginals.best, 0, 'f', 3)
                                 .arg(mm - r.maxMarginals.best, 0, 'f', 3)
                           : tr("no tree under the mask uses this arc<br>");
    const int k = r.prunedByAt(h, m);
    if (k >= 0)
        t += tr("pruned by stage <i>%1</i><br>")
                 .arg(QString::fromStdString(r.stageNames[static_cast<std::size_t>(k)]));
    if (filterExp_ && activeFilter_ >= 0 && h != m && m >= 1) { // Z_a with every event's score
        const ArcFilter& f = *filters_[static_cast<std::size_t>(activeFilter_)].filter;
        const ArcFilterScorer sc(f, s);
        const FilterEvent best = filterExp_->maxEventAt(h, m);
        t += tr("filter: margin %1 vs threshold %2 → %3<br>Z<sub>a</sub>:")
                 .arg(static_cast<double>(filterExp_->margin[filterExp_->idx(h, m)]), 0, 'f', 3)
                 .arg(filterExp_->threshold, 0, 'g', 4)
                 .arg(filterExp_->isFiltered(h, m) ? tr("filtered") : tr("kept"));
        for (const auto& [z, v] : arcFilterEventScores(f, sc, h, m)) {
            const QString line = tr("%1 %2")
                                     .arg(QString::fromStdString(z.name()))
                                     .arg(static_cast<double>(v), 0, 'f', 3);
            t += QStringLiteral("<br>&nbsp;&nbsp;") + (z == best && z.kind != FilterEventKind::None
                                                           ? tr("<b>%1 (max)</b>").arg(line)
                                                           : line);
        }
        if (otherExp_ && otherExp_->isFiltered(h, m) != filterExp_->isFiltered(h, m))
            t += tr("<br>filter %1 %2 this arc")
                     .arg(activeFilter_ == 0 ? "B" : "A",
                          otherExp_->isFiltered(h, m) ? tr("filters") : tr("keeps"));
        t += QStringLiteral("<br>");
    }
    t += r.finalMask.keep(h, m) ? tr("in the final mask") : tr("not in the final mask");
    if (session_.isFlipped(h, m)) t += tr(" (flipped by you)");
    if (s.hasTree() && s.heads[static_cast<std::size_t>(m)] == h) t += tr("<br>gold arc");
    if (r.heads[static_cast<std::size_t>(m)] == h) t += tr("<br>predicted arc");
    return t + tr("<br><i>click to flip its mask bit</i>");
}

void DepExplorerPanel::refresh() {
    if (!session_.ready()) {
        matrix_->setWords({});
        matrix_->setMessage(session_.model() ? tr("Open a dependency treebank (.dp, CoNLL)")
                                             : tr("Open a dependency model (dep-train)"));
        tree_->setMessage(tr("No sentence"));
        status_->setText(session_.model() ? tr("No sentences") : tr("No model"));
        return;
    }
    if (sentenceBox_->currentIndex() != session_.index())
        sentenceBox_->setCurrentIndex(session_.index());
    const DepAnalysis& a = session_.analysis();
    if (!a.error.empty()) {
        status_->setText(tr("Cannot parse sentence %1: %2")
                             .arg(session_.index() + 1)
                             .arg(QString::fromStdString(a.error)));
        return;
    }
    if (!session_.hasAnalysis()) return; // the first computation is still running
    const DepSentence& s = session_.sentence();
    const DepInspection& r = session_.inspection();
    QStringList words;
    for (const auto& x : s.words)
        words << QString::fromStdString(x);
    const int n = s.size();
    if (matrix_->length() != n || matrix_->words() != words) matrix_->setWords(words);
    matrix_->setMessage({});
    QStringList stageNames;
    for (const auto& x : r.stageNames)
        stageNames << QString::fromStdString(x);
    matrix_->setStageNames(stageNames);
    // the active filter's explanation (event colours, roles, readout) and the other filter's
    // decisions
    const bool filterShown =
        activeFilter_ >= 0 && !r.stageNames.empty() && r.stageNames[0] == "filter";
    filterExp_.reset();
    otherExp_.reset();
    if (filterShown) {
        filterExp_ = explainArcFilter(*filters_[static_cast<std::size_t>(activeFilter_)].filter, s);
        if (filters_.size() == 2)
            otherExp_ =
                explainArcFilter(*filters_[static_cast<std::size_t>(1 - activeFilter_)].filter, s);
    }
    QStringList eventNames, notes;
    if (filterShown) {
        for (int e = 0; e < kFilterEventKinds - 1; ++e)
            eventNames << QString::fromUtf8(filterEventKindName(static_cast<FilterEventKind>(e)));
        for (int t = 0; t <= n; ++t) {
            QStringList roles;
            for (FilterEventKind k : filterExp_->roles[static_cast<std::size_t>(t)])
                roles << QString::fromUtf8(filterEventKindName(k));
            notes << roles.join(' ');
        }
    }
    matrix_->setEventNames(eventNames);
    matrix_->setTokenNotes(notes);
    matrix_->setDiffersLabel(
        otherExp_ ? tr("filter %1 decides differently").arg(activeFilter_ == 0 ? "B" : "A")
                  : QString());
    long differing = 0;
    std::vector<widgets::ArcCell> cells(static_cast<std::size_t>(n + 1) *
                                        static_cast<std::size_t>(n + 1));
    double lo = 0;
    for (int h = 0; h <= n; ++h)
        for (int m = 1; m <= n; ++m) {
            if (h == m) continue;
            widgets::ArcCell& c =
                cells[static_cast<std::size_t>(h) * static_cast<std::size_t>(n + 1) +
                      static_cast<std::size_t>(m)];
            const double v = r.maxMarginals(h, m);
            if (std::isfinite(v)) {
                c.value = static_cast<float>(v - r.maxMarginals.best);
                lo = std::min(lo, static_cast<double>(c.value));
            }
            c.kept = r.finalMask.keep(h, m);
            c.prunedBy = r.prunedByAt(h, m);
            c.flipped = session_.isFlipped(h, m);
            c.gold = s.hasTree() && s.heads[static_cast<std::size_t>(m)] == h;
            c.predicted = r.heads[static_cast<std::size_t>(m)] == h;
            if (filterShown && c.prunedBy == 0)
                c.event = static_cast<int>(filterExp_->maxEventAt(h, m).kind);
            if (otherExp_ && otherExp_->isFiltered(h, m) != filterExp_->isFiltered(h, m)) {
                c.differs = true;
                ++differing;
            }
        }
    matrix_->setScaleLow(lo < 0 ? lo : -1);
    matrix_->setCells(std::move(cells));
    tree_->setSentence(words, s.hasTree() ? s.heads : std::vector<int>{}, r.heads);
    if (!r.success)
        tree_->setMessage(
            tr("No projective tree under this mask — flip an arc back (or Reset Flips)"));

    QStringList parts;
    if (r.success && s.hasTree()) {
        const AttachmentScore sc = scoreAttachment(s, r.heads);
        parts << tr("UAS %1 (%2 of %3 non-punctuation heads right)")
                     .arg(sc.uas(), 0, 'f', 1)
                     .arg(sc.scoredCorrect)
                     .arg(sc.scoredTokens);
    } else if (!r.success) {
        parts << tr("no tree under the mask");
    }
    QStringList kept;
    for (std::size_t k = 0; k < r.stageNames.size(); ++k)
        kept << tr("%1 → %2")
                    .arg(QString::fromStdString(r.stageNames[k]))
                    .arg(r.stageMasks[k + 1].keptCount());
    parts << tr("arcs %1%2 → final mask %3 (%4%)")
                 .arg(ArcMask::totalArcs(n))
                 .arg(kept.isEmpty() ? QString() : " → " + kept.join(" → "))
                 .arg(r.finalMask.keptCount())
                 .arg(100.0 * r.finalMask.keptFraction(), 0, 'f', 1);
    if (filterExp_) {
        const ArcFilterExplanation& e = *filterExp_;
        if (s.hasTree())
            parts << tr("filter keeps %1/%2 gold arcs (%3%)")
                         .arg(e.goldKept)
                         .arg(e.goldArcs)
                         .arg(e.goldArcs ? 100.0 * static_cast<double>(e.goldKept) /
                                               static_cast<double>(e.goldArcs)
                                         : 100.0,
                              0, 'f', 1);
        parts << tr("filters %1/%2 arcs (%3%)")
                     .arg(e.filtered)
                     .arg(e.totalArcs)
                     .arg(e.totalArcs ? 100.0 * static_cast<double>(e.filtered) /
                                            static_cast<double>(e.totalArcs)
                                      : 0.0,
                          0, 'f', 1);
        if (otherExp_)
            parts << tr("%n arc(s) decided differently by filter %1", nullptr,
                        static_cast<int>(differing))
                         .arg(activeFilter_ == 0 ? "B" : "A");
    }
    if (session_.flipCount() > 0) parts << tr("%n flipped by you", nullptr, session_.flipCount());
    if (r.fallbacks > 0)
        parts << tr("%n fallback(s): the stages left no tree", nullptr, r.fallbacks);
    parts << tr("pushes %1").arg(r.pushes);
    if (r.success) parts << tr("score %1").arg(r.score, 0, 'f', 3);
    parts << QFileInfo(modelPath_).fileName();
    status_->setText(parts.join(QStringLiteral(" · ")));
    emit analysisShown();
}

} // namespace prunescope::gui
