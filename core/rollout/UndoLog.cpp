#include "core/rollout/UndoLog.h"

namespace prunescope {

void UndoLog::clear() {
    entries_.clear();
    cellUndo_.clear();
    frames_.clear();
    flipBegin_ = 0;
}

void UndoLog::open(Frame f) {
    f.undoBegin = entries_.size();
    f.cellUndoBegin = cellUndo_.size();
    frames_.push_back(f);
    flipBegin_ = entries_.size();
}

} // namespace prunescope
