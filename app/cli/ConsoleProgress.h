#pragma once
// The CLI face of core's progress/cancel contract (core/util/Progress.h), one for every command
// that runs long work: progress goes to stderr (stdout stays for results), and Ctrl-C / SIGTERM
// become a cancel request.
//  - On a terminal: one status line rewritten in place, at most ~10 times a second
//    ("lols: iteration 3/10 · rollouts 45/100 (45%)").
//  - Elsewhere (pipes, logs, tests): the status line at most every 10 s, so long phases show life
//    without flooding a log.
//  - Log lines (Progress::log) are always printed on a line of their own.
//  - The first SIGINT/SIGTERM requests a cancel (the command stops within 1 s and keeps what is
//    finished, e.g. committed LOLS iterations); a second one exits at once with status 130.
//  - quiet (a command's --quiet): nothing is printed, Ctrl-C still cancels.
// Usage:   ConsoleProgress console("lols", "iteration");
//          runLols(rd, in, opt, console.progress());
#include "core/util/Progress.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

namespace prunescope::cli {

class ConsoleProgress {
  public:
    // command: the prefix of every status line; stepName: what ProgressUpdate::step counts.
    explicit ConsoleProgress(std::string command, std::string stepName = "step",
                             bool quiet = false);
    ~ConsoleProgress(); // clears the status line, restores the signal handlers
    ConsoleProgress(const ConsoleProgress&) = delete;
    ConsoleProgress& operator=(const ConsoleProgress&) = delete;

    const Progress& progress() const { return progress_; }
    // True when stdout and stderr are one terminal: a command that prints results as it goes
    // (parse, dep parse, cube parse) then passes quiet, so no status line lands inside its output.
    static bool stdoutIsTerminal();
    // The status text of an update (tested; no prefix).
    static std::string format(const ProgressUpdate& u, const std::string& stepName);

  private:
    void show(const ProgressUpdate& u);
    std::string command_, stepName_;
    bool terminal_ = false;
    bool quiet_ = false;
    bool statusShown_ = false;
    std::chrono::steady_clock::time_point lastLine_{};
    Progress progress_;
    std::atomic<bool> stop_{false};
    std::thread watcher_; // turns a received signal into progress_.requestCancel()
};

} // namespace prunescope::cli
