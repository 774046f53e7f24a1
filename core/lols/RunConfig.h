#pragma once
// Strict reading of a LOLS run directory's config.json and log.jsonl (docs/lols.md "Run
// directory"): every key has its type and range checked before anything uses it, and every
// problem is an InputError at the file:line:column of the offending value (a wrong type used to
// surface as a bare nlohmann type_error; minibatch 0, λ < 0, l2 < 0 or 10^12 iterations were
// accepted). What the run's results depend on beyond these numbers is in RunFingerprint.h.
#include "core/lols/LolsTrainer.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace prunescope {

// Limits of the numbers a config may hold (docs/lols.md).
constexpr int kMaxLolsIterations = 100000;
constexpr int kMaxMinibatch = 10000000;

// Validates config.json's text (format, version, paths, maxLength, limits, q0, lols.*); returns
// the parsed config. Keys the program does not know are kept (forward compatible).
nlohmann::json runConfigFromText(const std::string& text, const std::string& file);
nlohmann::json readRunConfig(const std::string& path);

// The line:column of a top-level key's value in config.json (for errors about that input), or
// (0, 0) if it is not there.
std::pair<int, int> runConfigLocation(const std::string& text, const std::string& key);

// The records of log.jsonl's complete lines, each validated (types and ranges) and named by line
// on error. A last line without '\n' or that does not parse is ignored (*truncatedTail = true): a
// directory copied while it grows. A bad line before the last is an InputError.
std::vector<LolsIterationRecord>
logRecordsFromText(const std::string& text, const std::string& file, bool* truncatedTail = nullptr);

} // namespace prunescope
