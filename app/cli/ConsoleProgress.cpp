// The CLI's progress printer and Ctrl-C handling (see ConsoleProgress.h).
#include "app/cli/ConsoleProgress.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace prunescope::cli {

namespace {

std::atomic<int> gSignals{0};
struct sigaction gOldInt {
}, gOldTerm{};

extern "C" void onSignal(int) {
    if (gSignals.fetch_add(1) >= 1)
        std::_Exit(130); // async-signal-safe: a second Ctrl-C stops at once
}

} // namespace

bool ConsoleProgress::stdoutIsTerminal() {
    return isatty(STDOUT_FILENO) == 1 && isatty(STDERR_FILENO) == 1;
}

std::string ConsoleProgress::format(const ProgressUpdate& u, const std::string& stepName) {
    std::string s;
    if (u.step >= 0) {
        s += stepName + " " + std::to_string(u.step);
        if (u.steps > 0) s += "/" + std::to_string(u.steps);
        s += " \xc2\xb7 "; // middle dot
    }
    s += u.phase.empty() ? std::string("working") : u.phase;
    if (u.total > 0) {
        s += " " + std::to_string(u.done) + "/" + std::to_string(u.total) + " (" +
             std::to_string(static_cast<int>(100.0 * u.fraction())) + "%)";
    } else if (u.done > 0) {
        s += " " + std::to_string(u.done);
    }
    if (u.cancelling) s += " \xc2\xb7 cancelling\xe2\x80\xa6";
    return s;
}

ConsoleProgress::ConsoleProgress(std::string command, std::string stepName, bool quiet)
    : command_(std::move(command)), stepName_(std::move(stepName)),
      terminal_(isatty(STDERR_FILENO) == 1), quiet_(quiet),
      progress_([this](const ProgressUpdate& u) { show(u); }, std::chrono::milliseconds(100)) {
    // Off a terminal the first status line waits 10 s too: a command that fails on bad input at
    // once prints its one `error:` line and nothing else (the CLI's error contract, issue 19).
    lastLine_ = std::chrono::steady_clock::now();
    gSignals = 0;
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &gOldInt);
    sigaction(SIGTERM, &sa, &gOldTerm);
    watcher_ = std::thread([this] {
        while (!stop_.load()) {
            if (gSignals.load() > 0 && !progress_.cancelled()) {
                progress_.log(command_ + ": cancelling (press Ctrl-C again to stop at once)");
                progress_.requestCancel();
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
}

ConsoleProgress::~ConsoleProgress() {
    stop_ = true;
    watcher_.join();
    sigaction(SIGINT, &gOldInt, nullptr);
    sigaction(SIGTERM, &gOldTerm, nullptr);
    if (statusShown_) std::fputs("\r\033[K", stderr);
}

void ConsoleProgress::show(const ProgressUpdate& u) { // serialized by Progress
    if (quiet_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!u.message.empty()) {
        if (statusShown_) std::fputs("\r\033[K", stderr);
        statusShown_ = false;
        std::fprintf(stderr, "%s\n", u.message.c_str());
        std::fflush(stderr);
        return;
    }
    const std::string line = command_ + ": " + format(u, stepName_);
    if (terminal_) {
        std::fprintf(stderr, "\r\033[K%s", line.c_str());
        statusShown_ = true;
    } else {
        if (now - lastLine_ < std::chrono::seconds(10) && !u.cancelling) return;
        lastLine_ = now;
        std::fprintf(stderr, "%s\n", line.c_str());
    }
    std::fflush(stderr);
}

} // namespace prunescope::cli
