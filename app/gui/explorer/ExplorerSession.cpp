// The explorer's part of a session file (issue 18): the undo history as plain edits and its replay,
// and the view settings a session restores (MainWindowSession.cpp writes and reads the file).
#include "app/gui/explorer/ExplorerCommands.h"
#include "app/gui/explorer/ExplorerPanel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QUndoStack>

#include <cmath>

namespace prunescope::gui {

std::vector<ExplorerPanel::Edit> ExplorerPanel::editHistory(int* index) const {
    std::vector<Edit> out;
    for (int c = 0; c < undo_->count(); ++c) {
        const QUndoCommand* cmd = undo_->command(c);
        if (const auto* f = dynamic_cast<const FlipCommand*>(cmd))
            out.push_back({true, f->i(), f->k(), {}, {}});
        else if (const auto* m = dynamic_cast<const MaskCommand*>(cmd))
            out.push_back({false, 0, 0, m->after(), m->text()});
    }
    if (index) *index = undo_->index();
    return out;
}

bool ExplorerPanel::restoreEditHistory(const std::vector<Edit>& edits, int index,
                                       const PruningMask& mask) {
    if (!session_) return false;
    const widgets::AnimationMode mode = animationMode();
    setAnimationMode(widgets::AnimationMode::Instant); // a replay is not an animation
    undo_->clear();
    if (session_->mask() != session_->policyMask()) applyMask(session_->policyMask());
    bool ok = index >= 0 && index <= static_cast<int>(edits.size());
    for (const Edit& e : edits) {
        if (!ok) break;
        if (e.flip)
            ok = PruningMask::prunable(session_->length(), e.i, e.k);
        else
            ok = e.mask.n == session_->length();
        if (!ok) break;
        if (e.flip)
            undo_->push(new FlipCommand(this, e.i, e.k));
        else
            undo_->push(new MaskCommand(this, session_->mask(), e.mask, e.what));
    }
    if (ok) undo_->setIndex(index);
    ok = ok && session_->mask() == mask;
    if (!ok) { // the policy (or the file) changed since: keep the mask, drop the history
        undo_->clear();
        if (session_->mask() != session_->policyMask()) applyMask(session_->policyMask());
        setMaskCommand(mask, tr("session mask"));
    }
    setAnimationMode(mode);
    return ok;
}

double ExplorerPanel::lambda() const {
    return lambda_->value();
}
bool ExplorerPanel::lambdaEditable() const {
    return lambda_->isEnabled();
}
void ExplorerPanel::setLambda(double v) {
    if (lambda_->isEnabled()) lambda_->setValue(v);
}
void ExplorerPanel::setFrontierLambda(double v, const std::string& unit) {
    if (!session_ || !std::isfinite(v)) return;
    frontierLambda_ = FrontierLambda{session_->policyPtr(), v, runtimeMeasureForLambdaUnit(unit)};
    applyFrontierLambda();
    refreshStats();
}

void ExplorerPanel::applyFrontierLambda() {
    rewardMeasure_ = frontierLambda_->measure;
    static const char* const kRuntimeName[] = {"mpush", "constituents", "spans kept"};
    rewardLabel_->setText(
        tr("Reward F1% − λ·%1:").arg(kRuntimeName[static_cast<int>(rewardMeasure_)]));
    lambda_->setEnabled(true);
    lambda_->setValue(frontierLambda_->value);
    lambda_->setToolTip(tr("λ from the frontier window, in %1")
                            .arg(QString::fromStdString(lambdaUnitFor(rewardMeasure_))));
}

bool ExplorerPanel::hasHandEdits() const {
    return session_ && session_->mask() != session_->policyMask();
}

widgets::AnimationMode ExplorerPanel::animationMode() const {
    return static_cast<widgets::AnimationMode>(modeBox_->currentIndex());
}

} // namespace prunescope::gui
