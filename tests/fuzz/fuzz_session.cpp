// Fuzz target: the explorer's session file (app/gui/window/SessionFile.h, plain C++) -> SessionFile
// -> its invariants (every edit's mask and flip fit the sentence, the undo index is in range) ->
// written and read back equal.
#include "FuzzTarget.h"

#include "app/gui/window/SessionFile.h"
#include "core/util/Error.h"

namespace {
void fuzzOne(const std::string& text) {
    using namespace prunescope;
    using namespace prunescope::gui;
    SessionFile s;
    try {
        // Referenced files are looked up relative to this (absent) folder, so only absolute paths
        // that exist (/, /tmp, ...) pass the existence check.
        s = sessionFromText(text, "/nonexistent-fuzz-dir/fuzz.prunescope-session");
    } catch (const InputError&) {
        return;
    }
    const int n = static_cast<int>(s.words.size());
    if (n == 0 || s.mask.n != n) __builtin_trap();
    if (s.undoIndex < 0 || s.undoIndex > static_cast<int>(s.edits.size())) __builtin_trap();
    for (const SessionEdit& e : s.edits) {
        if (e.flip && !PruningMask::prunable(n, e.i, e.k)) __builtin_trap();
        if (!e.flip && e.mask.n != n) __builtin_trap();
    }
    for (const RuleLine& r : s.grammarRules)
        if (!(r.probability > 0 && r.probability <= 1)) __builtin_trap();
    // What we write, we read: the same words, mask, edits and rules.
    const SessionFile back =
        sessionFromText(sessionToJson(s), "/nonexistent-fuzz-dir/back.prunescope-session");
    if (back.words != s.words || !(back.mask == s.mask) || back.edits.size() != s.edits.size() ||
        back.undoIndex != s.undoIndex || back.grammarRules.size() != s.grammarRules.size())
        __builtin_trap();
}
} // namespace

PRUNESCOPE_FUZZ_INPUT(text)
