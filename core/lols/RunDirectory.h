#pragma once
// LOLS run directories (docs/lols.md "Run directory"): config.json, log.jsonl (one line per
// iteration), policies/iter-NNN.json, best.json and state/iter-NNN.bin (the aggregated dataset,
// for --resume). Every file is written atomically (temp file + fsync + rename); log.jsonl is
// appended by rewriting it whole, so a reader never sees a partial line, and readers still
// ignore a partial last line (a directory may be copied or synced while it grows).
#include "core/lols/LolsTrainer.h"
#include "core/policy/Policy.h"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope {

inline constexpr const char* kRunFormat = "prunescope-lols-run";
constexpr int kRunFormatVersion = 1;

// Complete JSON lines of a log.jsonl text, in order. A last line without '\n' or that does not
// parse is ignored (*truncatedTail = true); a bad line before the last throws InputError(file,...).
std::vector<nlohmann::json> parseLogLines(const std::string& text, const std::string& fileName,
                                          bool* truncatedTail = nullptr);

// What a reader (CLI, GUI) sees in a run directory at one moment.
struct RunDirectorySnapshot {
    nlohmann::json config;
    std::vector<LolsIterationRecord> log; // committed iterations, in order
    bool truncatedTail = false;
    int bestIteration = -1; // from the log's "best" flags (-1 if no log yet)
};
// Throws InputError if config.json is missing or malformed.
RunDirectorySnapshot readRunDirectory(const std::string& dir);

class RunDirectory {
  public:
    // Creates dir (and parents) and writes config.json; throws InputError if dir exists and is
    // not empty.
    static RunDirectory create(const std::string& dir, const nlohmann::json& config);
    // Opens an existing run directory (config.json must exist).
    static RunDirectory open(const std::string& dir);

    const std::string& path() const { return dir_; }
    std::string configPath() const;
    std::string logPath() const;
    std::string bestPath() const;
    std::string policyPath(int iteration) const; // policies/iter-NNN.json
    std::string statePath(int iteration) const;  // state/iter-NNN.bin

    nlohmann::json config() const;
    void writeConfig(const nlohmann::json& config);
    std::vector<LolsIterationRecord> log() const;

    // Commits one finished iteration: policy file, state file, best.json (if st's best is this
    // iteration), then the log line (the commit point); finally removes the previous state file.
    void commit(const LolsState& st);
    // Rebuilds the state after the last committed iteration (policy, dataset, log, best).
    LolsState restore() const;

  private:
    explicit RunDirectory(std::string dir) : dir_(std::move(dir)) {}
    std::string dir_;
};

} // namespace prunescope
