// LOLS run directories: atomic writes, tolerant reads, resume (docs/lols.md).
#include "core/lols/RunDirectory.h"

#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"

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

nlohmann::json parseJsonFile(const std::string& path) {
    const std::string text = readFile(path);
    return parseJsonDocument(text, path);
}

void checkConfig(const nlohmann::json& c, const std::string& path) {
    if (!c.is_object() || c.value("format", std::string()) != kRunFormat)
        throw InputError(path, 1, 1,
                         std::string("not a run directory config (format must be \"") + kRunFormat +
                             "\")");
    if (c.value("version", 0) != kRunFormatVersion)
        throw InputError(path, 1, 1, "unsupported run directory version");
}

} // namespace

std::vector<nlohmann::json> parseLogLines(const std::string& text, const std::string& fileName,
                                          bool* truncatedTail) {
    std::vector<nlohmann::json> lines;
    if (truncatedTail) *truncatedTail = false;
    std::size_t pos = 0;
    int lineNo = 0;
    while (pos < text.size()) {
        ++lineNo;
        const std::size_t nl = text.find('\n', pos);
        const bool last = nl == std::string::npos;
        const std::string line = text.substr(pos, last ? std::string::npos : nl - pos);
        pos = last ? text.size() : nl + 1;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        try {
            if (last) throw std::runtime_error("no newline"); // still being written
            lines.push_back(nlohmann::json::parse(line));
        } catch (const std::exception& e) {
            if (pos >= text.size()) { // the last line: tolerated
                if (truncatedTail) *truncatedTail = true;
                break;
            }
            throw InputError(fileName, lineNo, 1, std::string("bad log line: ") + e.what());
        }
    }
    return lines;
}

RunDirectorySnapshot readRunDirectory(const std::string& dir) {
    RunDirectorySnapshot s;
    const RunDirectory rd = RunDirectory::open(dir);
    s.config = rd.config();
    if (fs::exists(rd.logPath())) {
        for (const auto& j :
             parseLogLines(readFile(rd.logPath()), rd.logPath(), &s.truncatedTail)) {
            s.log.push_back(LolsIterationRecord::fromJson(j));
            if (s.log.back().best) s.bestIteration = s.log.back().iteration;
        }
    }
    return s;
}

RunDirectory RunDirectory::create(const std::string& dir, const nlohmann::json& config) {
    std::error_code ec;
    if (fs::exists(dir) && !fs::is_empty(dir))
        throw InputError(dir, 0, 0, "run directory already exists and is not empty (use --resume)");
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
    nlohmann::json c = parseJsonFile(configPath());
    checkConfig(c, configPath());
    return c;
}

void RunDirectory::writeConfig(const nlohmann::json& config) {
    nlohmann::json c = config;
    c["format"] = kRunFormat;
    c["version"] = kRunFormatVersion;
    writeFileAtomically(configPath(), c.dump(2) + "\n");
}

std::vector<LolsIterationRecord> RunDirectory::log() const {
    std::vector<LolsIterationRecord> out;
    if (!fs::exists(logPath())) return out;
    for (const auto& j : parseLogLines(readFile(logPath()), logPath()))
        out.push_back(LolsIterationRecord::fromJson(j));
    return out;
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
        for (const auto& j : parseLogLines(readFile(logPath()), logPath()))
            if (j.value("iteration", -1) < st.iteration) text += j.dump() + "\n";
    }
    text += st.log.back().toJson().dump() + "\n";
    writeFileAtomically(logPath(), text);
    std::error_code ec;
    if (st.iteration > 0) fs::remove(statePath(st.iteration - 1), ec);
}

LolsState RunDirectory::restore() const {
    LolsState st;
    st.log = log();
    if (st.log.empty())
        throw InputError(logPath(), 0, 0,
                         "run directory has no committed iteration to resume from");
    for (std::size_t x = 0; x < st.log.size(); ++x)
        if (st.log[x].iteration != static_cast<int>(x))
            throw InputError(logPath(), static_cast<int>(x) + 1, 1,
                             "iterations in the log are not 0, 1, 2, ...");
    st.iteration = st.log.back().iteration;
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
