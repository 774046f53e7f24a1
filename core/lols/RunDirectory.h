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

// What a reader (CLI, GUI) sees in a run directory at one moment.
struct RunDirectorySnapshot {
    nlohmann::json config;
    std::vector<LolsIterationRecord> log; // committed iterations, in order
    bool truncatedTail = false;
    int bestIteration = -1; // from the log's "best" flags (-1 if no log yet)
};
// The one reader of run directories for every caller (CLI, GUI): config.json through the strict
// readRunConfig and log.jsonl through logRecordsFromText (RunConfig.h, what fuzz_runconfig and
// fuzz_log test). Throws InputError at file:line:column if either is missing or malformed.
RunDirectorySnapshot readRunDirectory(const std::string& dir);

class RunDirectory {
  public:
    // Creates dir (and parents) and writes config.json; throws InputError if dir exists and is
    // not empty (a directory holding only what a create killed before config.json left behind,
    // empty policies/ and state/ and temporaries, is reused), or if the strict reader would
    // refuse config (readRunConfig's ranges).
    static RunDirectory create(const std::string& dir, const nlohmann::json& config);
    // Opens an existing run directory (config.json must exist).
    static RunDirectory open(const std::string& dir);

    const std::string& path() const { return dir_; }
    std::string configPath() const;
    std::string logPath() const;
    std::string bestPath() const;
    std::string policyPath(int iteration) const; // policies/iter-NNN.json
    std::string statePath(int iteration) const;  // state/iter-NNN.bin

    nlohmann::json config() const; // readRunConfig (strict)
    void writeConfig(const nlohmann::json& config);
    // logRecordsFromText (strict); *truncatedTail = a cut last line was ignored.
    std::vector<LolsIterationRecord> log(bool* truncatedTail = nullptr) const;
    // Removes the temporaries (.NAME.tmp.XXXXXX) a killed writer left in the directory, policies/
    // and state/; the run's writer calls it before resuming. Returns how many.
    int removeStaleTemporaries() const;

    // Commits one finished iteration: policy file, state file, best.json (if st's best is this
    // iteration), then the log line (the commit point); finally removes the previous state file.
    void commit(const LolsState& st);
    // Rebuilds the state after the last committed iteration (policy, dataset, log, best). Throws
    // InputError naming log.jsonl's line if that iteration's state file is gone (e.g. the log's
    // last line was cut after a later commit deleted it).
    LolsState restore() const;

  private:
    explicit RunDirectory(std::string dir) : dir_(std::move(dir)) {}
    std::string dir_;
};

} // namespace prunescope
