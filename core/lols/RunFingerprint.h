#pragma once
// What a LOLS run's saved state depends on besides config.json's numbers (docs/lols.md "Resume
// integrity"): state/iter-NNN.bin stores sentence indices and spans into the training sentences
// that config.json selects, so resuming with another treebank, another grammar or an edited
// maxLength/trainLimit would mix two datasets (and used to crash). A run records inputs.json when
// it starts; a resume recomputes it and refuses, naming what changed.
#include "core/lols/Lols.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace prunescope {

inline constexpr const char* kInputsFormat = "prunescope-lols-inputs";
constexpr int kInputsFormatVersion = 1;

// {"format", "version", "grammar": {path, bytes, hash}, "train"/"dev": {path, files: [{name,
// bytes, hash}]}, "maxLength", "trainLimit", "devLimit", "trainSentences", "devSentences",
// "trainSentencesHash", "devSentencesHash"} for a config and the sentences it selected.
nlohmann::json runInputsFingerprint(const nlohmann::json& config,
                                    const std::vector<LolsSentence>& train,
                                    const std::vector<LolsSentence>& dev);

// The differences between a recorded and a current fingerprint, one readable line each, with the
// config.json key each one concerns ("train", "maxLength", ...). Empty when they agree.
struct FingerprintChange {
    std::string key;
    std::string what;
};
std::vector<FingerprintChange> fingerprintChanges(const nlohmann::json& recorded,
                                                  const nlohmann::json& current);

} // namespace prunescope
