// LOLS run directories: atomic writes, strict reads (RunConfig.h), resume (docs/lols.md).
#include "core/lols/RunDirectory.h"

#include "core/lols/RunConfig.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"

#include <cstdio>
#include <filesystem>

namespace fs = std::filesystem;

namespace prunescope {

namespace {

std::string threeDigits(int iteration) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%03d", iteration);
    return buf;
}

// log.jsonl's complete lines as written (validated by the strict reader first), for the commit
// that rewrites the log whole.
std::vector<std::string> committedLogLines(const std::string& text, const std::string& file) {
    logRecordsFromText(text, file); // throws InputError at file:line on a bad line
    std::vector<std::string> lines;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) break; // a cut last line: not committed
        const std::string line = text.substr(pos, nl - pos);
        pos = nl + 1;
        if (line.find_first_not_of(" \t\r") != std::string::npos && nlohmann::json::accept(line))
            lines.push_back(line);
    }
    return lines;
}

// A directory that a `lols` killed while it created the run left behind: nothing but empty
// policies/ and state/ folders and temporary files (config.json was never renamed into place).
bool isLeftOfKilledCreate(const std::string& dir) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        if (e.is_directory(ec) && (name == "policies" || name == "state") &&
            fs::is_empty(e.path(), ec))
            continue;
        if (e.is_regular_file(ec) && name.size() > 1 && name[0] == '.' &&
            name.find(".tmp.") != std::string::npos)
            continue;
        return false;
    }
    return !ec;
}

} // namespace

RunDirectorySnapshot readRunDirectory(const std::string& dir) {
    RunDirectorySnapshot s;
    const RunDirectory rd = RunDirectory::open(dir);
    s.config = rd.config();
    if (fs::exists(rd.logPath())) {
        s.log = logRecordsFromText(readFile(rd.logPath()), rd.logPath(), &s.truncatedTail);
        for (const LolsIterationRecord& r : s.log)
            if (r.best) s.bestIteration = r.iteration;
    }
    return s;
}

RunDirectory RunDirectory::create(const std::string& dir, const nlohmann::json& config) {
    std::error_code ec;
    // The strict reader must accept what is written (a value out of its ranges is refused here,
    // before the directory exists, not on the first resume).
    nlohmann::json c = config;
    c["format"] = kRunFormat;
    c["version"] = kRunFormatVersion;
    runConfigFromText(c.dump(2) + "\n", (fs::path(dir) / "config.json").string());
    if (fs::exists(dir) && !fs::is_empty(dir)) {
        if (!isLeftOfKilledCreate(dir))
            throw InputError(dir, 0, 0,
                             "run directory already exists and is not empty (use --resume)");
        RunDirectory(dir).removeStaleTemporaries(); // a create killed before config.json
    }
    fs::create_directories(fs::path(dir) / "policies", ec);
    if (!ec) fs::create_directories(fs::path(dir) / "state", ec);
    if (ec) throw InputError(dir, 0, 0, "cannot create run directory: " + ec.message());
    RunDirectory rd(dir);
    rd.writeConfig(config);
    return rd;
}

RunDirectory RunDirectory::open(const std::string& dir) {
    RunDirectory rd(dir);
    if (!fs::exists(rd.configPath()))
        throw InputError(rd.configPath(), 0, 0, "not a run directory (no config.json)");
    return rd;
}

std::string RunDirectory::configPath() const {
    return (fs::path(dir_) / "config.json").string();
}
std::string RunDirectory::logPath() const {
    return (fs::path(dir_) / "log.jsonl").string();
}
std::string RunDirectory::bestPath() const {
    return (fs::path(dir_) / "best.json").string();
}
std::string RunDirectory::policyPath(int it) const {
    return (fs::path(dir_) / "policies" / ("iter-" + threeDigits(it) + ".json")).string();
}
std::string RunDirectory::statePath(int it) const {
    return (fs::path(dir_) / "state" / ("iter-" + threeDigits(it) + ".bin")).string();
}

nlohmann::json RunDirectory::config() const {
    return readRunConfig(configPath());
}

int RunDirectory::removeStaleTemporaries() const {
    int n = 0;
    for (const char* sub : {"", "policies", "state"})
        n += prunescope::removeStaleTemporaries((fs::path(dir_) / sub).string());
    return n;
}

void RunDirectory::writeConfig(const nlohmann::json& config) {
    nlohmann::json c = config;
    c["format"] = kRunFormat;
    c["version"] = kRunFormatVersion;
    writeFileAtomically(configPath(), c.dump(2) + "\n");
}

std::vector<LolsIterationRecord> RunDirectory::log(bool* truncatedTail) const {
    if (truncatedTail) *truncatedTail = false;
    if (!fs::exists(logPath())) return {};
    return logRecordsFromText(readFile(logPath()), logPath(), truncatedTail);
}

void RunDirectory::commit(const LolsState& st) {
    if (st.log.empty() || st.log.back().iteration != st.iteration)
        throw std::invalid_argument(
            "RunDirectory::commit: state has no record of its last iteration");
    fs::create_directories(fs::path(dir_) / "policies");
    fs::create_directories(fs::path(dir_) / "state");
    savePolicy(st.policy, policyPath(st.iteration));
    writeFileAtomically(statePath(st.iteration), st.data.serialize());
    if (st.bestIteration == st.iteration) savePolicy(st.policy, bestPath());
    // The commit point: the log is rewritten whole (previous complete lines + this one).
    std::string text;
    if (fs::exists(logPath())) {
        for (const std::string& line : committedLogLines(readFile(logPath()), logPath()))
            if (nlohmann::json::parse(line).value("iteration", -1) < st.iteration)
                text += line + "\n";
    }
    text += st.log.back().toJson().dump() + "\n";
    writeFileAtomically(logPath(), text);
    std::error_code ec;
    if (st.iteration > 0) fs::remove(statePath(st.iteration - 1), ec);
}

LolsState RunDirectory::restore() const {
    LolsState st;
    bool cut = false;
    st.log = log(&cut);
    if (st.log.empty())
        throw InputError(logPath(), 0, 0,
                         "run directory has no committed iteration to resume from");
    for (std::size_t x = 0; x < st.log.size(); ++x)
        if (st.log[x].iteration != static_cast<int>(x))
            throw InputError(logPath(), static_cast<int>(x) + 1, 1,
                             "iterations in the log are not 0, 1, 2, ...");
    st.iteration = st.log.back().iteration;
    std::error_code ec;
    if (!fs::exists(statePath(st.iteration), ec))
        throw InputError(logPath(), static_cast<int>(st.log.size()), 1,
                         "cannot resume after iteration " + std::to_string(st.iteration) + ": " +
                             statePath(st.iteration) + " is gone" +
                             (cut ? " (the log's last line is cut: a later iteration was committed "
                                    "and its record lost; restore log.jsonl from a copy)"
                                  : ""));
    st.policy = loadPolicy(policyPath(st.iteration));
    st.data =
        AggregatedDataset::deserialize(readFile(statePath(st.iteration)), statePath(st.iteration));
    st.bestIteration = 0;
    st.bestDevReward = st.log.front().dev.reward;
    for (const auto& r : st.log)
        if (r.best) {
            st.bestIteration = r.iteration;
            st.bestDevReward = r.dev.reward;
        }
    return st;
}

} // namespace prunescope
