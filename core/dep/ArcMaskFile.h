#pragma once
// An arc mask file (`dep-parse --mask`, `cube-parse --mask`; written by the explorers and
// compare-masks, docs/file-formats.md): ArcMask's JSON plus the explorer's optional "sentence".
// Every error is an InputError at the offending value's file:line:column.
#include "core/dep/ArcMask.h"

#include <string>
#include <utility>

namespace prunescope {

struct ArcMaskFile {
    ArcMask mask;
    int sentence = 0;                     // the 1-based sentence it is for, 0 if the file says not
    std::pair<int, int> sentenceAt{0, 0}; // line and column of "sentence" (for range errors)
};

// Throws InputError(path, line, column, "arc mask: ...") for a bad file, a bad mask entry or a
// "sentence" that is not a positive integer.
ArcMaskFile loadArcMaskFile(const std::string& path);

} // namespace prunescope
