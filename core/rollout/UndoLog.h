#pragma once
// The undo list of change propagation (paper sec. 5.2, footnote 5). A flip opens a Frame (the mask
// bit, ROOT and the counters before the flip); the first time the flip touches a chart vertex its
// value and witness are recorded once in an Entry; per-cell binary push counts are recorded in a
// side list. Undoing a flip replays its entries newest first (ChangePropagator::undo). Flips stack.
#include "core/rollout/UninitializedBuffer.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace prunescope {

class UndoLog {
  public:
    struct Entry {
        std::uint32_t
            vertex;  // pre: cell*N + x; post: postBase + cell*N + x (ChangePropagator's ids)
        float value; // before the flip
        std::uint32_t witness;
        std::uint8_t queued;        // on the agenda this flip
        std::uint8_t finiteChanged; // changed between built and not built (pushes, constituents)
    };
    struct Frame {
        int i, k; // the flipped span
        std::size_t undoBegin = 0, cellUndoBegin = 0;
        float rootScore;
        std::uint32_t rootWitness;
        long pushes, constituents;
        int spansKept;
        bool bestTouched; // the flip touched the roll-in's best derivation or ROOT
    };

    // Room for vertex ids < count (the per-vertex index is never cleared, see touched()).
    void reserveVertices(std::size_t count) { index_.ensure(count); }
    // Forgets every frame and entry (the chart is then the new roll-in).
    void clear();

    // Opens a flip: f's undoBegin and cellUndoBegin are set to the current ends.
    void open(Frame f);
    bool hasFrames() const { return !frames_.empty(); }
    const std::vector<Frame>& frames() const { return frames_; }
    Frame& top() { return frames_.back(); }
    const Frame& top() const { return frames_.back(); }

    // Whether v has an entry in the open flip, and its index if so.
    bool touched(std::uint32_t v) const {
        const std::uint32_t idx = index_[v];
        return idx >= flipBegin_ && idx < entries_.size() && entries_[idx].vertex == v;
    }
    std::uint32_t indexOf(std::uint32_t v) const { return index_[v]; }
    // Records v's value and witness (call once per flip, when !touched(v)); returns its index.
    std::uint32_t record(std::uint32_t v, float value, std::uint32_t witness) {
        entries_.push_back(Entry{v, value, witness, 0, 0});
        return index_[v] = static_cast<std::uint32_t>(entries_.size() - 1);
    }
    Entry& operator[](std::size_t idx) { return entries_[idx]; }
    const Entry& operator[](std::size_t idx) const { return entries_[idx]; }
    // The open flip's entry of v (requires touched(v)).
    const Entry& entryOf(std::uint32_t v) const { return entries_[index_[v]]; }

    // Records cell c's binary push count before a change.
    void recordCell(int c, long oldPushes) { cellUndo_.emplace_back(c, oldPushes); }

    // Closes the most recent flip: calls restore(entry) for its entries newest first, then
    // restoreCell(cell, oldPushes) for its cell records newest first, and returns its frame.
    template <class Restore, class RestoreCell>
    Frame close(Restore restore, RestoreCell restoreCell) {
        const Frame f = frames_.back();
        frames_.pop_back();
        for (std::size_t idx = entries_.size(); idx-- > f.undoBegin;)
            restore(entries_[idx]);
        entries_.resize(f.undoBegin);
        for (std::size_t idx = cellUndo_.size(); idx-- > f.cellUndoBegin;)
            restoreCell(cellUndo_[idx].first, cellUndo_[idx].second);
        cellUndo_.resize(f.cellUndoBegin);
        flipBegin_ = entries_.size();
        return f;
    }

  private:
    std::vector<Entry> entries_;
    UninitializedBuffer<std::uint32_t> index_;   // per vertex: its entry if touched this flip
    std::vector<std::pair<int, long>> cellUndo_; // (cell, old binary pushes)
    std::vector<Frame> frames_;
    std::size_t flipBegin_ = 0; // entries_ index where the open flip starts
};

} // namespace prunescope
