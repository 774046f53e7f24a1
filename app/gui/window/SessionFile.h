#pragma once
// The explorer's session file (`prunescope-session`, version 1; docs/file-formats.md): the
// documents (grammar, policy, sentences), the sentence, the mask with the undo history of flips and
// mask edits, and the view settings, as one JSON file. Written atomically (core/util/AtomicFile.h);
// read with file:line:column errors (core/util/JsonDocument.h). Plain C++: MainWindowSession.cpp
// applies it to the window.
#include "core/grammar/GrammarEdit.h"
#include "core/parse/PruningMask.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace prunescope::gui {

struct SessionEdit {
    bool flip = true;
    int i = 0, k = 0; // a flip of span (i,k)
    PruningMask mask; // or a whole new mask
    std::string what; // its undo text ("keep all", "load mask", ...)
};

struct SessionView {
    std::string quantity = "keep";     // keep, inside, constituents, recall
    std::string colorMap = "viridis";  // viridis, cividis
    std::string animation = "instant"; // instant, animated, step
    bool binarizedSymbols = false;
    bool presentationFont = false;
    double chartZoom = 1, predictedZoom = 1, goldZoom = 1; // ZoomArea factors (1 = fit)
    std::optional<double> lambda;                          // only when the policy does not state λ
};

struct SessionFile {
    std::string grammar; // absolute paths (relative ones are read against the file's folder)
    // Non-empty when the grammar was edited in the app (Edit ▸ Edit Grammar) and not saved as a
    // file: the edited grammar's every rule, rebuilt on opening over `grammar` as its base
    // (grammarFromRuleLines), so a class's edits survive a saved session.
    std::vector<RuleLine> grammarRules;
    std::string policy;             // empty = none
    std::string sentences;          // treebank file or directory, or a .txt file; empty = none
    int sentenceIndex = 0;          // 0-based, in `sentences`
    bool typed = false;             // a typed sentence (then `words` is the sentence itself)
    std::vector<std::string> words; // the sentence's words (checked against `sentences` on reading)
    PruningMask mask;
    std::vector<SessionEdit> edits; // the undo stack, oldest first
    int undoIndex = 0;              // edits [0, undoIndex) are done, the rest can be redone
    SessionView view;
    // Reading only: "file:line:column" of each value a later check may refuse (keys: grammar,
    // grammarRules, policy, sentences, sentence, mask), so that an error names the session file,
    // the key and its place.
    std::map<std::string, std::string> where;
};

std::string sessionToJson(const SessionFile& s);
void writeSessionFile(const std::string& path,
                      const SessionFile& s); // atomic; InputError on failure
// Throws InputError(path, line, column, …) for bad JSON, a wrong format, a bad value, a referenced
// file that does not exist ("/grammar: no such file …"), or a mask whose length is not the
// sentence's.
SessionFile readSessionFile(const std::string& path);
// The same for the file's text (`path` names it in errors and anchors relative paths); the fuzz
// harness tests/fuzz/fuzz_session.cpp feeds it.
SessionFile sessionFromText(const std::string& text, const std::string& path);

} // namespace prunescope::gui
