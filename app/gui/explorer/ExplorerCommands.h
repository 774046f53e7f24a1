#pragma once
// The explorer's undo commands: one flip of a prune bit, or a whole new mask (reset to the policy,
// keep all, keep gold, a loaded mask). A session file stores them as plain edits
// (ExplorerSession.cpp).
#include "app/gui/explorer/ExplorerPanel.h"

#include <QUndoCommand>

namespace prunescope::gui {

class FlipCommand : public QUndoCommand {
  public:
    FlipCommand(ExplorerPanel* p, int i, int k) : p_(p), i_(i), k_(k) {
        setText(QObject::tr("flip (%1,%2)").arg(i).arg(k));
    }
    void redo() override { p_->applyFlip(i_, k_); }
    void undo() override { p_->applyUndoFlip(i_, k_); }
    int i() const { return i_; }
    int k() const { return k_; }

  private:
    ExplorerPanel* p_;
    int i_, k_;
};

class MaskCommand : public QUndoCommand {
  public:
    MaskCommand(ExplorerPanel* p, PruningMask before, PruningMask after, const QString& what)
        : p_(p), before_(std::move(before)), after_(std::move(after)) {
        setText(what);
    }
    void redo() override { p_->applyMask(after_); }
    void undo() override { p_->applyMask(before_); }
    const PruningMask& after() const { return after_; }

  private:
    ExplorerPanel* p_;
    PruningMask before_, after_;
};

} // namespace prunescope::gui
