// Fingerprints of a LOLS run's inputs (RunFingerprint.h).
#include "core/lols/RunFingerprint.h"

#include "core/treebank/TreebankReader.h"
#include "core/util/AtomicFile.h"
#include "core/util/ContentHash.h"

#include <filesystem>
#include <map>

namespace prunescope {

using nlohmann::json;

namespace {

json fileEntry(const std::string& path, const std::string& name) {
    const std::string bytes = readFile(path);
    return {{"name", name}, {"bytes", bytes.size()}, {"hash", contentHash(bytes)}};
}

json treebankEntry(const std::string& path) {
    json files = json::array();
    const bool dir = std::filesystem::is_directory(path);
    for (const std::string& f : treebankFiles(path))
        files.push_back(
            fileEntry(f, dir ? std::filesystem::path(f).filename().string() : std::string()));
    return {{"path", path}, {"files", files}};
}

// A digest of the selected sentences (their words, in order): what the state's indices index.
std::string sentencesHash(const std::vector<LolsSentence>& s) {
    std::string all;
    for (const LolsSentence& x : s) {
        for (const std::string& w : x.words) {
            all += w;
            all += ' ';
        }
        all += '\n';
    }
    return contentHash(all);
}

std::string sizeText(const json& f) {
    return f.contains("bytes") ? f["bytes"].dump() + " bytes" : "?";
}

void compareTreebank(const std::string& key, const json& a, const json& b,
                     std::vector<FingerprintChange>& out) {
    std::map<std::string, json> before, after;
    for (const auto& f : a.value("files", json::array()))
        before[f.value("name", "")] = f;
    for (const auto& f : b.value("files", json::array()))
        after[f.value("name", "")] = f;
    const std::string where = b.value("path", std::string());
    std::vector<std::string> parts;
    for (const auto& [name, f] : before) {
        const std::string shown = name.empty() ? where : name;
        auto it = after.find(name);
        if (it == after.end())
            parts.push_back(shown + " removed");
        else if (it->second.value("hash", "") != f.value("hash", ""))
            parts.push_back(shown + " changed (" + sizeText(f) + " -> " + sizeText(it->second) +
                            ")");
    }
    for (const auto& [name, f] : after)
        if (!before.count(name)) parts.push_back((name.empty() ? where : name) + " added");
    if (parts.empty()) return;
    std::string what = key + " treebank " + where + ": ";
    for (std::size_t i = 0; i < parts.size() && i < 5; ++i)
        what += (i ? ", " : "") + parts[i];
    if (parts.size() > 5) what += ", and " + std::to_string(parts.size() - 5) + " more files";
    out.push_back({key, what});
}

// The settings the run's results depend on: config.json's "lols" (but "iterations", which
// --resume may raise, and "threads", which never change results) and "q0".
json settingsOf(const json& config) {
    json lols = config.value("lols", json::object());
    if (lols.is_object()) {
        lols.erase("iterations");
        lols.erase("threads");
    }
    return {{"lols", lols}, {"q0", config.value("q0", json())}};
}

void compareSettings(const json& a, const json& b, std::vector<FingerprintChange>& out) {
    if (!a.contains("settings") || !b.contains("settings")) return;
    const json la = a["settings"].value("lols", json::object()),
               lb = b["settings"].value("lols", json::object());
    if (la.is_object() && lb.is_object()) {
        std::vector<std::string> keys;
        for (const auto& [k, v] : la.items())
            keys.push_back(k);
        for (const auto& [k, v] : lb.items())
            if (!la.contains(k)) keys.push_back(k);
        for (const std::string& k : keys)
            if (la.value(k, json()) != lb.value(k, json()))
                out.push_back({"lols", "lols." + k + ": " + la.value(k, json()).dump() + " -> " +
                                           lb.value(k, json()).dump()});
    } else if (la != lb) {
        out.push_back({"lols", "lols settings changed"});
    }
    if (a["settings"].value("q0", json()) != b["settings"].value("q0", json()))
        out.push_back({"q0", "q0: " + a["settings"].value("q0", json()).dump() + " -> " +
                                 b["settings"].value("q0", json()).dump()});
}

} // namespace

json runInputFilesFingerprint(const json& config) {
    const std::string grammar = config.at("grammar").get<std::string>();
    json g = fileEntry(grammar, "");
    g["path"] = grammar;
    g.erase("name");
    return {{"format", kInputsFormat},
            {"version", kInputsFormatVersion},
            {"grammar", g},
            {"train", treebankEntry(config.at("train").get<std::string>())},
            {"dev", treebankEntry(config.at("dev").get<std::string>())},
            {"maxLength", config.value("maxLength", 40)},
            {"trainLimit", config.value("trainLimit", 0)},
            {"devLimit", config.value("devLimit", 0)},
            {"settings", settingsOf(config)}};
}

json runInputsFingerprint(const json& config, const std::vector<LolsSentence>& train,
                          const std::vector<LolsSentence>& dev) {
    json f = runInputFilesFingerprint(config);
    f["trainSentences"] = train.size();
    f["devSentences"] = dev.size();
    f["trainSentencesHash"] = sentencesHash(train);
    f["devSentencesHash"] = sentencesHash(dev);
    return f;
}

std::vector<FingerprintChange> fingerprintChanges(const json& a, const json& b) {
    std::vector<FingerprintChange> out;
    for (const char* key : {"maxLength", "trainLimit", "devLimit"})
        if (a.value(key, json()) != b.value(key, json()))
            out.push_back({key, std::string(key) + ": " + a.value(key, json()).dump() + " -> " +
                                    b.value(key, json()).dump()});
    const json ga = a.value("grammar", json::object()), gb = b.value("grammar", json::object());
    // Contents, not paths: a run whose data moved (and whose config.json was edited to match)
    // resumes.
    if (ga.value("hash", "") != gb.value("hash", ""))
        out.push_back({"grammar", "grammar " + gb.value("path", std::string()) +
                                      ": content changed (" + sizeText(ga) + " -> " + sizeText(gb) +
                                      ")"});
    for (const char* key : {"train", "dev"})
        compareTreebank(key, a.value(key, json::object()), b.value(key, json::object()), out);
    compareSettings(a, b, out);
    // The sentences themselves (what the saved indices point at), if nothing above explains it.
    for (const char* key : {"train", "dev"}) {
        const std::string count = std::string(key) + "Sentences", hash = count + "Hash";
        if (!a.contains(count) || !b.contains(count)) continue; // a files-only fingerprint
        if (a.value(count, json()) != b.value(count, json()) ||
            a.value(hash, json()) != b.value(hash, json()))
            out.push_back(
                {std::string(key),
                 std::string(key) + " sentences selected: " + a.value(count, json()).dump() +
                     " -> " + b.value(count, json()).dump() +
                     (a.value(count, json()) == b.value(count, json()) ? " (different sentences)"
                                                                       : "")});
    }
    return out;
}

FingerprintCheck checkRunFingerprint(const json& config, const json& current) {
    FingerprintCheck c;
    if (!config.is_object() || !config.contains("fingerprint")) return c;
    c.recorded = true;
    c.changes = fingerprintChanges(config["fingerprint"], current);
    return c;
}

std::string FingerprintCheck::message() const {
    if (changes.empty()) return {};
    std::string m = "the inputs changed since the run started: ";
    for (std::size_t i = 0; i < changes.size() && i < 4; ++i)
        m += (i ? "; " : "") + changes[i].what;
    if (changes.size() > 4) m += "; and " + std::to_string(changes.size() - 4) + " more";
    return m;
}

} // namespace prunescope
