#include "app/gui/explorer/ExplorerPanel.h"

#include "app/gui/explorer/CellInspector.h"
#include "app/gui/explorer/ExplorerCommands.h"

#include "app/gui/explorer/ReplayController.h"

#include "core/frontier/FrontierFile.h"
#include "widgets/FlowLayout.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSplitter>
#include <QUndoStack>

#include <cmath>

namespace prunescope::gui {
namespace {

QLabel* valueLabel(const QString& name) {
    auto* l = new QLabel(QStringLiteral("—"));
    l->setObjectName(name);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

widgets::ZoomArea* zoomable(widgets::TreeView* tree) {
    auto* a = new widgets::ZoomArea(tree);
    QObject::connect(a, &widgets::ZoomArea::zoomChanged, tree, &widgets::TreeView::setZoom);
    return a;
}

} // namespace

ExplorerPanel::ExplorerPanel(QWidget* parent) : QWidget(parent) {
    undo_ = new QUndoStack(this);
    heat_ = new widgets::ChartHeatMap;
    heat_->setObjectName("heatMap");
    predicted_ = new widgets::TreeView;
    predicted_->setObjectName("predictedTree");
    predicted_->setTitle(tr("Predicted parse"));
    goldTree_ = new widgets::TreeView;
    goldTree_->setObjectName("goldTree");
    goldTree_->setTitle(tr("Gold tree"));

    resetAct_ = new QAction(tr("&Reset to Policy Mask"), this);
    resetAct_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    resetAct_->setToolTip(
        tr("Prune exactly what the policy prunes (keep iff p(keep) ≥ threshold)"));
    keepAllAct_ = new QAction(tr("&Keep All"), this);
    keepAllAct_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    keepAllAct_->setToolTip(tr("Keep every span (unpruned parse)"));
    keepGoldAct_ = new QAction(tr("Keep &Gold Only"), this);
    keepGoldAct_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    keepGoldAct_->setToolTip(tr("Keep exactly the spans of the binarized gold tree"));
    connect(resetAct_, &QAction::triggered, this, [this] {
        if (session_) setMaskCommand(session_->policyMask(), tr("reset to policy mask"));
    });
    connect(keepAllAct_, &QAction::triggered, this, [this] {
        if (session_) setMaskCommand(PruningMask::allKeep(session_->length()), tr("keep all"));
    });
    connect(keepGoldAct_, &QAction::triggered, this, [this] {
        if (session_) setMaskCommand(session_->goldMask(), tr("keep gold only"));
    });
    inspectAct_ = new QAction(tr("&Inspect Cell"), this);
    inspectAct_->setObjectName("inspectCellAction");
    inspectAct_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    inspectAct_->setToolTip(tr("Show the focused cell's labels, scores and best subtree without "
                               "flipping it (also: right-click a cell, or I)"));
    connect(inspectAct_, &QAction::triggered, this, [this] {
        const auto [i, k] = heat_->focusCell();
        inspectCell(i, k);
    });

    auto* bar = new QWidget;
    buildControls(bar);
    replayBar_ = buildReplayBar();

    auto* stats = new QGroupBox(tr("Parse"));
    stats_ = stats;
    auto* form = new QFormLayout(stats);
    parseValue_ = valueLabel("parseValue");
    f1Value_ = valueLabel("f1Value");
    constValue_ = valueLabel("constituentsValue");
    pushValue_ = valueLabel("pushesValue");
    keptValue_ = valueLabel("spansKeptValue");
    logProbValue_ = valueLabel("logProbValue");
    rewardValue_ = valueLabel("rewardValue");
    changesValue_ = valueLabel("changesValue");
    changesValue_->setWordWrap(true);
    lambda_ = new QDoubleSpinBox;
    lambda_->setObjectName("lambdaSpin");
    lambda_->setDecimals(6);
    lambda_->setRange(0, 1e9);
    lambda_->setSingleStep(1);
    lambda_->setValue(100); // F1 points per mpush, the order of the bundled frontier's λ
    connect(lambda_, &QDoubleSpinBox::valueChanged, this, [this] { refreshStats(); });
    form->addRow(tr("Result:"), parseValue_);
    form->addRow(tr("F1 vs gold:"), f1Value_);
    form->addRow(tr("Constituents built:"), constValue_);
    form->addRow(tr("Pushes:"), pushValue_);
    form->addRow(tr("Spans kept:"), keptValue_);
    form->addRow(tr("Log prob:"), logProbValue_);
    form->addRow(tr("λ:"), lambda_);
    rewardLabel_ = new QLabel(tr("Reward F1% − λ·mpush:"));
    form->addRow(rewardLabel_, rewardValue_);
    form->addRow(tr("Last change:"), changesValue_);

    auto* right = new QSplitter(Qt::Vertical);
    treeSide_ = right;
    right->addWidget(stats);
    predictedZoom_ = zoomable(predicted_);
    goldZoom_ = zoomable(goldTree_);
    right->addWidget(predictedZoom_);
    right->addWidget(goldZoom_);
    right->setStretchFactor(0, 0);
    right->setStretchFactor(1, 1);
    right->setStretchFactor(2, 1);
    right->setSizes({240, 340, 340});

    auto* split = new QSplitter(Qt::Horizontal);
    split->setObjectName("explorerSplit");
    chartZoom_ = new widgets::ZoomArea(heat_);
    chartZoom_->setObjectName("chartZoom");
    split->addWidget(chartZoom_);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({830, 540});

    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->addWidget(bar);
    lay->addWidget(replayBar_);
    lay->addWidget(buildLayoutBar());
    lay->addWidget(split, 1);

    restoreTooltips();
    connect(heat_, &widgets::ChartHeatMap::cellActivated, this,
            [this](int i, int k) { requestFlip(i, k); });
    connect(heat_, &widgets::ChartHeatMap::cellInspected, this,
            [this](int i, int k) { inspectCell(i, k); });
    connect(this, &ExplorerPanel::sessionUpdated, this, [this] { // the inspected cell follows
        if (!inspector_ || !inspector_->isVisible()) return;
        if (session_)
            inspector_->refresh(*session_);
        else
            inspector_->clear();
    });
    connect(heat_, &widgets::ChartHeatMap::changesProgress, this, [this](int shown, int total) {
        stepBtn_->setEnabled(shown < total);
        finishBtn_->setEnabled(shown < total);
        if (total > 0 && shown < total)
            emit statusMessage(tr("Change propagation: cell %1 of %2").arg(shown).arg(total));
        if (previous_) refreshStats(), refreshTrees(); // the state after `shown` cells
    });
    setSession(nullptr);
}

void ExplorerPanel::inspectCell(int i, int k) {
    if (!session_ || i < 0 || k > session_->length() || i >= k) return;
    if (!inspector_) inspector_ = new CellInspector(this);
    heat_->setFocusCell(i, k);
    inspector_->showCell(*session_, i, k);
    inspector_->show();
    inspector_->raise();
    emit statusMessage(tr("Inspecting (%1,%2): nothing was flipped").arg(i).arg(k));
}

ExplorerPanel::~ExplorerPanel() {
    undo_->clear();
}

void ExplorerPanel::buildControls(QWidget* bar) {
    // Two groups that wrap onto a second line when the window is narrow (1024 px: issue 42).
    auto* flow = new widgets::FlowLayout(bar, 16, 2);
    flow->setContentsMargins(0, 0, 0, 0);
    auto group = [flow] {
        auto* w = new QWidget;
        auto* h = new QHBoxLayout(w);
        h->setContentsMargins(0, 0, 0, 0);
        flow->addWidget(w);
        return h;
    };
    QHBoxLayout* h = group();
    quantityBox_ = new QComboBox;
    quantityBox_->setObjectName("quantityBox");
    for (Quantity q : kAllQuantities)
        quantityBox_->addItem(quantityName(q), static_cast<int>(q));
    quantityBox_->setToolTip(
        tr("The quantity the cell colour shows (the colour bar in the legend gives its range).\n"
           "Contribution to expected recall: r̄(span kept) − r̄(span pruned), by inside-outside "
           "(sec. 5.3)."));
    connect(quantityBox_, &QComboBox::currentIndexChanged, this, [this](int idx) {
        const int q = quantityBox_->itemData(idx).toInt();
        if (q < 0) return; // the overlay's entry is only ever selected by showOverlay
        endOverlay(tr("another colour quantity was chosen"));
        setQuantity(static_cast<Quantity>(q));
    });
    colorBox_ = new QComboBox;
    colorBox_->addItems(widgets::colorMapNames());
    colorBox_->setToolTip(tr("Colour maps readable with colour-vision deficiencies"));
    connect(colorBox_, &QComboBox::currentIndexChanged, this,
            [this](int idx) { heat_->setColorMap(static_cast<widgets::ColorMapKind>(idx)); });
    modeBox_ = new QComboBox;
    modeBox_->setObjectName("animationModeBox");
    modeBox_->addItems({tr("Instant"), tr("Animated"), tr("Step by step")});
    modeBox_->setToolTip(
        tr("How the cells touched by change propagation light up (in agenda order)"));
    connect(modeBox_, &QComboBox::currentIndexChanged, this, [this](int idx) {
        heat_->setAnimationMode(static_cast<widgets::AnimationMode>(idx));
        speed_->setEnabled(idx == 1);
    });
    speed_ = new QSlider(Qt::Horizontal);
    speed_->setRange(10, 800);
    speed_->setValue(150);
    speed_->setInvertedAppearance(true); // right = faster
    speed_->setMaximumWidth(140);
    speed_->setEnabled(false);
    speed_->setToolTip(tr("Animation speed (milliseconds per cell)"));
    connect(speed_, &QSlider::valueChanged, this, [this](int ms) {
        heat_->setStepInterval(ms);
        if (replay_) replay_->setInterval(ms);
    });
    heat_->setStepInterval(speed_->value());
    stepBtn_ = new QPushButton(tr("Next Step"));
    stepBtn_->setShortcut(QKeySequence(Qt::Key_N));
    stepBtn_->setToolTip(tr("Reveal the next cell the agenda processed (N)"));
    finishBtn_ = new QPushButton(tr("Show All"));
    connect(stepBtn_, &QPushButton::clicked, heat_, &widgets::ChartHeatMap::stepChanges);
    connect(finishBtn_, &QPushButton::clicked, heat_, &widgets::ChartHeatMap::finishChanges);
    stepBtn_->setEnabled(false);
    finishBtn_->setEnabled(false);
    h->addWidget(new QLabel(tr("Colour:")));
    h->addWidget(quantityBox_);
    h->addWidget(colorBox_);
    h->addWidget(buildOverlayButton());
    h = group();
    h->addWidget(new QLabel(tr("Changes:")));
    h->addWidget(modeBox_);
    h->addWidget(new QLabel(tr("Speed:")));
    h->addWidget(speed_);
    h->addWidget(stepBtn_);
    h->addWidget(finishBtn_);
}

void ExplorerPanel::setSession(std::unique_ptr<SentenceSession> s) {
    endOverlay(tr("another sentence is shown"));
    stopReplay();
    undo_->clear();
    presented_.reset();
    session_ = std::move(s);
    QStringList words;
    if (session_)
        for (const auto& w : session_->words())
            words << QString::fromStdString(w);
    heat_->setWords(words);
    // The reward is in the policy's own λ unit (F1 percent per mpush, per constituent or per span
    // kept).
    const Policy* policy = session_ ? session_->policy() : nullptr;
    rewardMeasure_ = runtimeMeasureForLambdaUnit(policy ? policy->meta.lambdaUnit : std::string());
    if (policy && std::isfinite(policy->meta.lambda)) {
        lambda_->setValue(policy->meta.lambda);
        lambda_->setEnabled(false);
        lambda_->setToolTip(tr("λ from the policy's metadata, in %1")
                                .arg(QString::fromStdString(lambdaUnitFor(rewardMeasure_))));
    } else {
        lambda_->setEnabled(true);
        lambda_->setToolTip(tr("The policy does not state λ: set it here, in %1")
                                .arg(QString::fromStdString(lambdaUnitFor(rewardMeasure_))));
    }
    if (frontierLambda_ && session_) {
        if (session_->policyPtr() == frontierLambda_->policy)
            applyFrontierLambda();
        else
            frontierLambda_.reset(); // another policy
    }
    static const char* const kRuntimeName[] = {"mpush", "constituents", "spans kept"};
    rewardLabel_->setText(
        tr("Reward F1% − λ·%1:").arg(kRuntimeName[static_cast<int>(rewardMeasure_)]));
    bool gold = session_ && session_->hasGold();
    keepGoldAct_->setEnabled(gold);
    resetAct_->setEnabled(session_ != nullptr);
    keepAllAct_->setEnabled(session_ != nullptr);
    inspectAct_->setEnabled(session_ != nullptr);
    changesValue_->setText(QStringLiteral("—"));
    refreshAll(false);
}

void ExplorerPanel::setQuantity(Quantity q) {
    endOverlay(tr("another colour quantity was chosen"));
    quantity_ = q;
    int idx = quantityBox_->findData(static_cast<int>(q));
    if (idx >= 0 && idx != quantityBox_->currentIndex()) quantityBox_->setCurrentIndex(idx);
    refreshAll(false);
}

void ExplorerPanel::setColorMap(widgets::ColorMapKind k) {
    if (overlay_) removeOverlay(tr("another colour map was chosen"));
    colorBox_->setCurrentIndex(static_cast<int>(k));
}

void ExplorerPanel::setAnimationMode(widgets::AnimationMode m) {
    modeBox_->setCurrentIndex(static_cast<int>(m));
}

std::vector<widgets::HeatCell> ExplorerPanel::currentCells() {
    if (!session_) return {};
    std::vector<widgets::HeatCell> cells;
    int n = session_->length();
    cells.reserve(static_cast<std::size_t>(n + 1) * (n + 1));
    for (int i = 0; i <= n; ++i)
        for (int k = 0; k <= n; ++k)
            cells.push_back(k > i ? heat_->cell(i, k) : widgets::HeatCell{});
    return cells;
}

bool ExplorerPanel::requestFlip(int i, int k) {
    if (!session_) return false;
    if (!PruningMask::prunable(session_->length(), i, k)) {
        emit statusMessage(tr("Span (%1,%2) cannot be pruned: width-1 spans and the whole sentence "
                              "are always kept")
                               .arg(i)
                               .arg(k));
        return false;
    }
    undo_->push(new FlipCommand(this, i, k));
    return true;
}

void ExplorerPanel::setMaskCommand(const PruningMask& m, const QString& what) {
    if (!session_ || m == session_->mask()) return;
    undo_->push(new MaskCommand(this, session_->mask(), m, what));
}

void ExplorerPanel::applyFlip(int i, int k) {
    stopReplay(); // a new mask: the replay would show another chart
    removeOverlay(
        tr("the mask changed (the values belong to the previous mask)")); // redraws: `before` is
                                                                          // the quantity
    static const bool timing = qEnvironmentVariableIsSet("PRUNESCOPE_TIMING");
    QElapsedTimer t;
    t.start();
    std::vector<widgets::HeatCell> before = currentCells();
    rememberPreviousParse();
    const bool incremental = presented_ && presented_->quantity == quantity_ &&
                             presented_->binarizedLabels == binarizedLabels_ &&
                             presented_->mask == session_->mask();
    if (!incremental) presented_.reset();
    qint64 t0 = t.nsecsElapsed();
    session_->flip(i, k);
    qint64 t1 = t.nsecsElapsed();
    CellPresentation pres = present(std::pair{i, k});
    qint64 t2 = t.nsecsElapsed();
    heat_->setScale(pres.lo, pres.hi, pres.title, pres.decimals);
    heat_->setCells(std::move(pres.cells));
    auto marks = summarizeEvents(session_->lastEvents());
    countConstituentChanges(marks);
    int counts[4] = {0, 0, 0, 0};
    for (const auto& m : marks)
        ++counts[static_cast<int>(m.kind)];
    QStringList parts;
    for (int c = 0; c < 4; ++c)
        if (counts[c])
            parts << QStringLiteral("%1 %2").arg(counts[c]).arg(
                widgets::changeKindName(static_cast<widgets::ChangeKind>(c)));
    changesValue_->setText(tr("(%1,%2) %3 → %4 cells: %5")
                               .arg(i)
                               .arg(k)
                               .arg(session_->mask().keep(i, k) ? tr("kept") : tr("pruned"))
                               .arg(marks.size())
                               .arg(parts.isEmpty() ? tr("no change") : parts.join(", ")));
    heat_->showChanges(std::move(marks), std::move(before));
    refreshStats();
    qint64 t3 = t.nsecsElapsed();
    refreshTrees();
    qint64 t4 = t.nsecsElapsed();
    emit sessionUpdated();
    if (timing)
        qInfo("flip (%d,%d): cells %.2f ms, propagate+tree %.2f ms, present %.2f ms, stats %.2f "
              "ms, trees %.2f ms",
              i, k, t0 / 1e6, (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6, (t4 - t3) / 1e6);
}

void ExplorerPanel::applyUndoFlip(int i, int k) {
    stopReplay();
    endOverlay(tr("the mask changed (the values belong to the previous mask)"));
    session_->undoFlip(i, k);
    changesValue_->setText(tr("undo of (%1,%2)").arg(i).arg(k));
    refreshAll(false);
}

void ExplorerPanel::applyMask(const PruningMask& m) {
    stopReplay();
    endOverlay(tr("the mask changed (the values belong to the previous mask)"));
    session_->setMask(m);
    changesValue_->setText(tr("new mask: %1 of %2 prunable spans kept")
                               .arg(m.keptCount())
                               .arg(PruningMask::prunableCount(m.n)));
    refreshAll(false);
}

void ExplorerPanel::refreshAll(bool withChanges) {
    if (!withChanges) previous_.reset();
    if (!withChanges) heat_->clearChanges();
    if (session_) {
        CellPresentation pres = present();
        heat_->setScale(pres.lo, pres.hi, pres.title, pres.decimals);
        heat_->setCells(std::move(pres.cells));
        if (replay_->active()) showReplayStep();
    }
    refreshStats();
    refreshTrees();
    emit sessionUpdated();
}

// Cells for the session's current state; after a flip from the presented mask only the changed
// cells are read again. Remembers the result for the next flip.
CellPresentation ExplorerPanel::present(std::optional<std::pair<int, int>> flipped) {
    CellPresentation pres =
        flipped && presented_
            ? presentCellsAfterFlip(*session_, quantity_, binarizedLabels_,
                                    std::move(presented_->cells), flipped->first, flipped->second)
            : presentCells(*session_, quantity_, binarizedLabels_);
    if (presentsIncrementally(quantity_))
        presented_ = Presented{quantity_, binarizedLabels_, session_->mask(), pres.cells};
    else
        presented_.reset();
    return pres;
}

QString ExplorerPanel::f1Text() const {
    return f1Value_->text();
}
QString ExplorerPanel::constituentsText() const {
    return constValue_->text();
}
QString ExplorerPanel::rewardText() const {
    return rewardValue_->text();
}
QString ExplorerPanel::pushesText() const {
    return pushValue_->text();
}
QString ExplorerPanel::resultText() const {
    return parseValue_->text();
}

void ExplorerPanel::refreshStats() {
    const QString dash = QStringLiteral("—");
    if (!session_) {
        for (QLabel* l : {parseValue_, f1Value_, constValue_, pushValue_, keptValue_, logProbValue_,
                          rewardValue_})
            l->setText(dash);
        return;
    }
    if (replay_->active() && !replay_->complete()) return refreshReplayStats();
    if (changeInProgress()) return refreshChangeStepStats();
    const FlipResult& r = session_->result();
    parseValue_->setText(r.success ? tr("parsed") : tr("<b>parse failed</b> (root unreachable)"));
    parseValue_->setToolTip(QString());
    pushValue_->setToolTip(QString());
    bool f1 = session_->hasGold() && !std::isnan(session_->f1());
    f1Value_->setText(f1 ? QString::number(100 * session_->f1(), 'f', 2) : dash);
    f1Value_->setToolTip(session_->hasGold()
                             ? tr("Labeled bracket F1 (EVALB, COLLINS.prm) in percent")
                             : tr("A typed sentence has no gold tree"));
    constValue_->setText(QString::number(r.constituents));
    pushValue_->setText(QString::number(r.pushes));
    int n = session_->length();
    keptValue_->setText(tr("%1 of %2 prunable (policy keeps %3)")
                            .arg(r.spansKept)
                            .arg(PruningMask::prunableCount(n))
                            .arg(session_->policyMask().keptCount()));
    logProbValue_->setText(r.success ? QString::number(r.logProb, 'f', 3) : dash);
    if (f1) {
        const double runtime = parseRuntime(rewardMeasure_, r.pushes, r.constituents, r.spansKept);
        const double reward = 100 * session_->f1() - lambda_->value() * runtime;
        rewardValue_->setText(QString::number(reward, 'f', 3));
    } else {
        rewardValue_->setText(dash);
    }
    rewardValue_->setToolTip(
        tr("This parse's reward (sec. 2): F1 in percent minus λ times its runtime in %1")
            .arg(QString::fromStdString(lambdaUnitFor(rewardMeasure_))));
}

void ExplorerPanel::refreshTrees() {
    if (!session_) {
        predicted_->setMessage(tr("Open a grammar and a sentence"));
        goldTree_->setMessage(QString());
        return;
    }
    if (replay_->active() && !replay_->complete()) return refreshReplayTrees();
    const FlipResult& r = session_->result();
    if (changeInProgress() && !rootRevealed()) return refreshPreviousTrees();
    if (r.success) {
        predicted_->setTree(r.tree);
    } else {
        int n = session_->length();
        predicted_->setMessage(
            tr("Parse failed: the root is unreachable.\nNo constituent over the whole sentence "
               "(0,%1) has a ROOT rule "
               "(the cell holds %2 constituents): every derivation of the sentence needs a span "
               "that is pruned.\n"
               "Click hatched cells to keep them, or use Edit ▸ Reset to Policy Mask / Keep All.")
                .arg(n)
                .arg(session_->constituents(0, n)));
    }
    if (session_->gold()) {
        goldTree_->setTree(*session_->gold());
        goldTree_->setMatchSet(session_->predictedBrackets(), r.success);
        predicted_->setMatchSet(session_->goldBrackets(), true);
    } else {
        goldTree_->setMessage(
            tr("No gold tree (typed sentence or plain text): F1 is not defined."));
        predicted_->setMatchSet({}, false);
    }
}

} // namespace prunescope::gui
