// The explorer panel's widgets: the constructor and its steps, and the control bar.
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

// The chart heat map and the two parse trees.
void ExplorerPanel::createViews() {
    heat_ = new widgets::ChartHeatMap;
    heat_->setObjectName("heatMap");
    predicted_ = new widgets::TreeView;
    predicted_->setObjectName("predictedTree");
    predicted_->setTitle(tr("Predicted parse"));
    goldTree_ = new widgets::TreeView;
    goldTree_->setObjectName("goldTree");
    goldTree_->setTitle(tr("Gold tree"));
}

// Reset to Policy Mask, Keep All, Keep Gold Only and Inspect Cell (the Edit menu shows them).
void ExplorerPanel::createMaskActions() {
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
}

// The "Parse" group: result, F1, constituents, pushes, spans kept, log prob, λ and reward.
QGroupBox* ExplorerPanel::buildParseStats() {
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

    return stats;
}

// The chart (left) beside the parse statistics and the two trees (right).
QSplitter* ExplorerPanel::buildViewSplit(QGroupBox* stats) {
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

    return split;
}

// Clicks and inspections on the chart, the inspector following the session, step-by-step progress.
void ExplorerPanel::connectViews() {
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
}

ExplorerPanel::ExplorerPanel(QWidget* parent) : QWidget(parent) {
    undo_ = new QUndoStack(this);
    createViews();
    createMaskActions();
    createMaxRuleAction();

    auto* bar = new QWidget;
    buildControls(bar);
    replayBar_ = buildReplayBar();
    QWidget* split = buildViewSplit(buildParseStats());

    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->addWidget(bar);
    lay->addWidget(replayBar_);
    lay->addWidget(buildLayoutBar());
    lay->addWidget(split, 1);

    restoreTooltips();
    connectViews();
    setSession(nullptr);
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

} // namespace prunescope::gui
