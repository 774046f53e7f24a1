// Strict config.json and log.jsonl readers of LOLS run directories (RunConfig.h).
#include "core/lols/RunConfig.h"

#include "core/parse/Chart.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"

#include <limits>

namespace prunescope {

using nlohmann::json;

namespace {

constexpr double kMaxDouble = std::numeric_limits<double>::max();

// The run config's own format fields (kept in sync with RunDirectory.h).
constexpr const char* kConfigFormat = "prunescope-lols-run";
constexpr int kConfigVersion = 1;

void checkLols(const JsonDocument& d, const json& l) {
    if (!l.is_object()) d.fail(l, "'/lols' must be an object");
    if (const json* v = d.optionalMember(l, "surrogate")) {
        const std::string s = d.string(*v);
        if (s != "rcp" && s != "rdp")
            d.fail(*v, "'/lols/surrogate' must be \"rcp\" or \"rdp\", not \"" + s + "\"");
    }
    if (const json* v = d.optionalMember(l, "engine")) {
        const std::string s = d.string(*v);
        if (s != "fast" && s != "naive")
            d.fail(*v, "'/lols/engine' must be \"fast\" or \"naive\", not \"" + s + "\"");
    }
    if (const json* v = d.optionalMember(l, "lambda")) d.number(*v, 0, kMaxDouble);
    if (const json* v = d.optionalMember(l, "iterations")) d.int32(*v, 0, kMaxLolsIterations);
    if (const json* v = d.optionalMember(l, "minibatch")) d.int32(*v, 1, kMaxMinibatch);
    if (const json* v = d.optionalMember(l, "cpRolloutsPerWord"))
        d.int32(*v, 0, kMaxSentenceLength);
    if (const json* v = d.optionalMember(l, "seed")) d.uint64(*v);
    if (const json* v = d.optionalMember(l, "threads")) d.int32(*v, 0, 4096);
    if (const json* v = d.optionalMember(l, "l2")) d.number(*v, 0, kMaxDouble);
    if (const json* v = d.optionalMember(l, "lbfgsMaxIterations")) d.int32(*v, 1, 1000000);
    if (const json* v = d.optionalMember(l, "lbfgsMaxIterationsAfterFirst"))
        d.int32(*v, 0, 1000000);
    if (const json* v = d.optionalMember(l, "lbfgsEpsilon")) {
        if (d.number(*v, 0, kMaxDouble) <= 0) d.fail(*v, "'/lols/lbfgsEpsilon' must be > 0");
    }
    if (const json* v = d.optionalMember(l, "lbfgsGradientReduction")) {
        if (d.number(*v, 0, 1) >= 1) d.fail(*v, "'/lols/lbfgsGradientReduction' must be < 1");
    }
    if (const json* v = d.optionalMember(l, "warmStart")) d.boolean(*v);
    if (const json* v = d.optionalMember(l, "cpWorkBudget")) d.number(*v, 0, kMaxDouble);
    if (const json* v = d.optionalMember(l, "trainEvalSentences"))
        d.int32(*v, 0, std::numeric_limits<int>::max());
}

// A number or null (null = "does not exist", e.g. the roll-in reward of iteration 0).
void numberOrNull(const JsonDocument& d, const json& obj, const char* key) {
    if (const json* v = d.optionalMember(obj, key); v && !v->is_null()) {
        if (!v->is_number())
            d.fail(*v, "'" + d.pointer(*v).to_string() + "' must be a number or null");
    }
}

void checkEvaluation(const JsonDocument& d, const json& e) {
    if (!e.is_object()) d.fail(e, "'" + d.pointer(e).to_string() + "' must be an object");
    if (const json* v = d.optionalMember(e, "sentences")) d.int32(*v, 0);
    if (const json* v = d.optionalMember(e, "failures")) d.int32(*v, 0);
    for (const char* k :
         {"reward", "accuracy", "runtime", "f1", "mpush", "constituents", "spansKept", "seconds"})
        numberOrNull(d, e, k);
}

void checkRecord(const JsonDocument& d) {
    const json& j = d.root();
    if (!j.is_object()) d.fail(j, "a log line must be a JSON object");
    d.int32(d.member(j, "iteration"), 0, kMaxLolsIterations);
    for (const char* k :
         {"trainRollInReward", "trainRollInAccuracy", "trainRollInRuntime", "objective"})
        numberOrNull(d, j, k);
    for (const char* k : {"minibatchSentences", "skippedSentences", "lbfgsIterations"})
        if (const json* v = d.optionalMember(j, k)) d.int32(*v, 0);
    for (const char* k : {"newStates", "datasetStates", "examples"})
        if (const json* v = d.optionalMember(j, k)) d.integer(*v, 0);
    checkEvaluation(d, d.member(j, "dev"));
    if (const json* t = d.optionalMember(j, "train"); t && !t->is_null()) checkEvaluation(d, *t);
    if (const json* s = d.optionalMember(j, "seconds")) {
        if (!s->is_object()) d.fail(*s, "'/seconds' must be an object");
        for (const char* k : {"rollouts", "training", "evaluation", "total"})
            if (const json* v = d.optionalMember(*s, k)) d.number(*v);
    }
    if (const json* v = d.optionalMember(j, "best")) d.boolean(*v);
}

} // namespace

json runConfigFromText(const std::string& text, const std::string& file) {
    const JsonDocument d(text, file);
    const json& c = d.root();
    if (!c.is_object()) d.fail(c, "not a run directory config (a JSON object is expected)");
    const json& format = d.member(c, "format");
    if (!format.is_string() || format.get<std::string>() != kConfigFormat)
        d.fail(format, std::string("not a run directory config (format must be \"") +
                           kConfigFormat + "\")");
    const json& version = d.member(c, "version");
    if (!version.is_number_integer() || version.get<std::int64_t>() != kConfigVersion)
        d.fail(version, "unsupported run directory version " + version.dump() +
                            " (this program reads version " + std::to_string(kConfigVersion) + ")");
    for (const char* k : {"grammar", "init", "train", "dev"})
        if (d.string(d.member(c, k)).empty())
            d.fail(c[k], std::string("'/") + k + "' must not be empty");
    if (const json* v = d.optionalMember(c, "maxLength")) d.int32(*v, 0, kMaxSentenceLength);
    if (const json* v = d.optionalMember(c, "trainLimit")) d.int32(*v, 0);
    if (const json* v = d.optionalMember(c, "devLimit")) d.int32(*v, 0);
    if (const json* q = d.optionalMember(c, "q0"); q && !q->is_null()) {
        if (!q->is_object()) d.fail(*q, "'/q0' must be an object or null");
        if (const json* v = d.optionalMember(*q, "positiveWeight")) {
            if (d.number(*v, 0, kMaxDouble) <= 0) d.fail(*v, "'/q0/positiveWeight' must be > 0");
        }
        if (const json* v = d.optionalMember(*q, "scale")) d.number(*v, 0, kMaxDouble);
    }
    checkLols(d, d.member(c, "lols"));
    return c;
}

json readRunConfig(const std::string& path) {
    return runConfigFromText(readFile(path), path);
}

std::pair<int, int> runConfigLocation(const std::string& text, const std::string& key) {
    try {
        const std::size_t off = jsonValueOffset(text, json::json_pointer("/" + key));
        if (off == std::string::npos) return {0, 0};
        return lineColumn(text, off);
    } catch (const std::exception&) {
        return {0, 0};
    }
}

std::vector<LolsIterationRecord> logRecordsFromText(const std::string& text,
                                                    const std::string& file, bool* truncatedTail) {
    std::vector<LolsIterationRecord> records;
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
        if (last) { // no newline: still being written (or cut by a copy); readers ignore it
            if (truncatedTail) *truncatedTail = true;
            break;
        }
        try {
            const JsonDocument d(line, file, "bad log line: ", lineNo);
            checkRecord(d);
            records.push_back(LolsIterationRecord::fromJson(d.root()));
        } catch (const InputError&) {
            if (pos >= text.size() && text.find_first_not_of(" \t\r\n", pos) == std::string::npos &&
                !json::accept(line)) { // an unparsable last line: tolerated as a tail
                if (truncatedTail) *truncatedTail = true;
                break;
            }
            throw;
        }
    }
    return records;
}

} // namespace prunescope
