#pragma once
// What a LOLS run's saved state depends on besides config.json's numbers (docs/lols.md "Resume
// integrity"): state/iter-NNN.bin stores sentence indices and spans into the training sentences
// that config.json selects, so resuming with another treebank, another grammar, an edited
// maxLength/trainLimit or edited settings would mix two datasets. A run records the fingerprint in
// config.json ("fingerprint") when it starts; a resume recomputes it and refuses, naming what
// changed; a run from before the fingerprint resumes with a warning (checkRunFingerprint).
#include "core/lols/Lols.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace prunescope {

inline constexpr const char* kInputsFormat = "prunescope-lols-inputs";
constexpr int kInputsFormatVersion = 1;

// {"format", "version", "grammar": {path, bytes, hash}, "train"/"dev": {path, files: [{name,
// bytes, hash}]}, "maxLength", "trainLimit", "devLimit", "trainSentences", "devSentences",
// "trainSentencesHash", "devSentencesHash", "settings": {lols (without iterations, threads), q0}}
// for a config and the sentences it selected. runLols records it in config.json ("fingerprint")
// when a run starts and refuses to resume when fingerprintChanges finds a difference.
nlohmann::json runInputsFingerprint(const nlohmann::json& config,
                                    const std::vector<LolsSentence>& train,
                                    const std::vector<LolsSentence>& dev);

// The same without the sentences (no treebank is parsed: the files' hashes and the settings), for
// readers of a finished run (lols-plot, frontier-best) that only check.
nlohmann::json runInputFilesFingerprint(const nlohmann::json& config);

// The differences between a recorded and a current fingerprint, one readable line each, with the
// config.json key each one concerns ("train", "maxLength", "lols", ...). Empty when they agree.
// Sentence counts and hashes are compared only when both fingerprints have them.
struct FingerprintChange {
    std::string key;
    std::string what;
};
std::vector<FingerprintChange> fingerprintChanges(const nlohmann::json& recorded,
                                                  const nlohmann::json& current);

// What a writer (runLols) or a reader (lols-plot, frontier-best) found: config.json has no
// fingerprint (a run from before it), or it has one and these are the changes (empty: none).
struct FingerprintCheck {
    bool recorded = false;
    std::vector<FingerprintChange> changes;
    std::string message() const; // "the inputs changed since the run started: A; B" (or "")
};
// Compares config["fingerprint"] with `current` (runInputsFingerprint or runInputFilesFingerprint).
FingerprintCheck checkRunFingerprint(const nlohmann::json& config, const nlohmann::json& current);

} // namespace prunescope
