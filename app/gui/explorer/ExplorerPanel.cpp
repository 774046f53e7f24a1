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
    predicted_->setTitle(tr("Predicted parse"));
    if (maxRuleAct_->isChecked()) return showMaxRuleTree();
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
