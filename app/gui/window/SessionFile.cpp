// The session file (see SessionFile.h).
#include "app/gui/window/SessionFile.h"

#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace prunescope::gui {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kFormat = "prunescope-session";
constexpr int kVersion = 1;

std::string absolute(const std::string& p) {
    return p.empty() ? p : fs::absolute(fs::path(p)).lexically_normal().string();
}

// A path of the file: relative ones against the session file's folder.
std::string resolve(const std::string& p, const std::string& sessionPath) {
    fs::path q(p);
    if (q.is_relative()) q = fs::absolute(fs::path(sessionPath)).parent_path() / q;
    return q.lexically_normal().string();
}

// The message, prefixed with the value's JSON pointer ("/grammar: …"), at the value's line:column.
[[noreturn]] void failAt(const JsonDocument& doc, const json& v, const std::string& message) {
    doc.fail(v, doc.pointer(v).to_string() + ": " + message);
}

std::string oneOf(const JsonDocument& doc, const json& v,
                  std::initializer_list<const char*> names) {
    const std::string s = doc.string(v);
    std::string list;
    for (const char* n : names) {
        if (s == n) return s;
        list += std::string(list.empty() ? "" : ", ") + n;
    }
    failAt(doc, v, "must be one of " + list + " (got '" + s + "')");
}

std::string place(const JsonDocument& doc, const json& v) {
    auto [line, col] = doc.location(v);
    return doc.file() + ":" + std::to_string(line) + ":" + std::to_string(col);
}

} // namespace

std::string sessionToJson(const SessionFile& s) {
    json edits = json::array();
    for (const SessionEdit& e : s.edits) {
        if (e.flip)
            edits.push_back({{"flip", {e.i, e.k}}});
        else
            edits.push_back({{"mask", e.mask.toJson()}, {"what", e.what}});
    }
    json view = {{"quantity", s.view.quantity},
                 {"colorMap", s.view.colorMap},
                 {"animation", s.view.animation},
                 {"binarizedSymbols", s.view.binarizedSymbols},
                 {"presentationFont", s.view.presentationFont},
                 {"zoom",
                  {{"chart", s.view.chartZoom},
                   {"predicted", s.view.predictedZoom},
                   {"gold", s.view.goldZoom}}}};
    if (s.view.lambda) view["lambda"] = *s.view.lambda;
    json rules = json::array();
    for (const RuleLine& r : s.grammarRules)
        rules.push_back({{"rule", r.text()}, {"p", r.probability}});
    json j = {{"format", kFormat},
              {"version", kVersion},
              {"grammar", absolute(s.grammar)},
              {"grammarRules", s.grammarRules.empty() ? json(nullptr) : rules},
              {"policy", s.policy.empty() ? json(nullptr) : json(absolute(s.policy))},
              {"sentences", s.sentences.empty() ? json(nullptr) : json(absolute(s.sentences))},
              {"sentence", {{"index", s.sentenceIndex}, {"typed", s.typed}, {"words", s.words}}},
              {"mask", s.mask.toJson()},
              {"history", {{"edits", edits}, {"index", s.undoIndex}}},
              {"view", view}};
    return j.dump(2) + "\n";
}

void writeSessionFile(const std::string& path, const SessionFile& s) {
    writeFileAtomically(path, sessionToJson(s));
}

SessionFile readSessionFile(const std::string& path) {
    return sessionFromText(readFile(path), path);
}

namespace {

// "grammarRules": the edited grammar's rules, or nothing (null or absent).
void readGrammarRules(const JsonDocument& doc, SessionFile& s) {
    const json* rules = doc.optionalMember(doc.root(), "grammarRules");
    if (!rules || rules->is_null()) return;
    if (!rules->is_array() || rules->empty())
        failAt(doc, *rules, "must be null or a non-empty array of {\"rule\", \"p\"}");
    s.where["grammarRules"] = place(doc, *rules);
    for (const json& r : *rules) {
        const json& p = doc.member(r, "p");
        const double probability = doc.number(p, 0, 1);
        if (!(probability > 0)) failAt(doc, p, "a rule's probability must be in (0, 1]");
        try {
            s.grammarRules.push_back(parseRuleLine(doc.string(doc.member(r, "rule")), probability));
        } catch (const std::invalid_argument& e) {
            failAt(doc, r["rule"], e.what());
        }
    }
}

// "sentence": its index or typed words; every word one token.
void readSentence(const JsonDocument& doc, SessionFile& s) {
    const json& sentence = doc.member(doc.root(), "sentence");
    s.where["sentence"] = place(doc, sentence);
    s.sentenceIndex = doc.int32(doc.member(sentence, "index"), 0);
    s.typed = doc.boolean(doc.member(sentence, "typed"));
    const json& words = doc.member(sentence, "words");
    if (!words.is_array() || words.empty())
        failAt(doc, words, "must be a non-empty array of words");
    for (const json& w : words) {
        s.words.push_back(doc.string(w));
        // A word is one token: an empty one or one holding a space would be split otherwise when
        // the typed sentence is parsed again, and the mask would not fit it (issue 46).
        const std::string& t = s.words.back();
        if (t.empty()) failAt(doc, w, "a word must not be empty");
        if (std::any_of(t.begin(), t.end(), [](unsigned char c) { return std::isspace(c) != 0; }))
            failAt(doc, w, "a word must not hold a space (\"" + t + "\")");
    }
    if (!s.typed && s.sentences.empty())
        failAt(doc, sentence, "a sentence of a file needs \"sentences\"");
}

PruningMask readMask(const JsonDocument& doc, const json& v) {
    try {
        return PruningMask::fromJson(v);
    } catch (const std::exception& e) {
        failAt(doc, v, e.what());
    }
}

// "history": the undo stack of flips and whole masks, each for the sentence's length.
void readHistory(const JsonDocument& doc, SessionFile& s) {
    const json* history = doc.optionalMember(doc.root(), "history");
    if (!history) return;
    const json& edits = doc.member(*history, "edits");
    if (!edits.is_array()) failAt(doc, edits, "must be an array");
    for (const json& e : edits) {
        SessionEdit edit;
        if (const json* f = doc.optionalMember(e, "flip")) {
            if (!f->is_array() || f->size() != 2) failAt(doc, *f, "must be [i, k]");
            edit.i = doc.int32((*f)[0], 0, s.mask.n);
            edit.k = doc.int32((*f)[1], 0, s.mask.n);
            if (!PruningMask::prunable(s.mask.n, edit.i, edit.k))
                failAt(doc, *f, "not a prunable span of the sentence");
        } else {
            edit.flip = false;
            edit.mask = readMask(doc, doc.member(e, "mask"));
            if (edit.mask.n != s.mask.n)
                failAt(doc, e["mask"], "the mask is not for the sentence's length");
            if (const json* w = doc.optionalMember(e, "what")) edit.what = doc.string(*w);
        }
        s.edits.push_back(std::move(edit));
    }
    s.undoIndex = doc.int32(doc.member(*history, "index"), 0, static_cast<int>(s.edits.size()));
}

// "view": every key optional.
void readView(const JsonDocument& doc, SessionView& v) {
    const json* view = doc.optionalMember(doc.root(), "view");
    if (!view) return;
    if (const json* x = doc.optionalMember(*view, "quantity"))
        v.quantity = oneOf(doc, *x, {"keep", "inside", "constituents", "recall", "marginal"});
    if (const json* x = doc.optionalMember(*view, "colorMap"))
        v.colorMap = oneOf(doc, *x, {"viridis", "cividis"});
    if (const json* x = doc.optionalMember(*view, "animation"))
        v.animation = oneOf(doc, *x, {"instant", "animated", "step"});
    if (const json* x = doc.optionalMember(*view, "binarizedSymbols"))
        v.binarizedSymbols = doc.boolean(*x);
    if (const json* x = doc.optionalMember(*view, "presentationFont"))
        v.presentationFont = doc.boolean(*x);
    if (const json* z = doc.optionalMember(*view, "zoom")) {
        if (const json* x = doc.optionalMember(*z, "chart")) v.chartZoom = doc.number(*x, 1, 8);
        if (const json* x = doc.optionalMember(*z, "predicted"))
            v.predictedZoom = doc.number(*x, 1, 8);
        if (const json* x = doc.optionalMember(*z, "gold")) v.goldZoom = doc.number(*x, 1, 8);
    }
    if (const json* x = doc.optionalMember(*view, "lambda")) v.lambda = doc.number(*x, 0, 1e9);
}

} // namespace

SessionFile sessionFromText(const std::string& text, const std::string& path) {
    const JsonDocument doc(text, path);
    const json& root = doc.root();
    SessionFile s;
    if (doc.string(doc.member(root, "format")) != kFormat)
        failAt(doc, root["format"], std::string("not a ") + kFormat + " file");
    doc.int32(doc.member(root, "version"), kVersion, kVersion);
    // Referenced files: present (a session that opens must not lose the current documents halfway).
    auto file = [&](const char* key, bool required) -> std::string {
        const json* v = doc.optionalMember(root, key);
        if (!v || v->is_null()) {
            if (required) doc.member(root, key); // "missing key"
            return {};
        }
        const std::string p = resolve(doc.string(*v), path);
        s.where[key] = place(doc, *v);
        if (!fs::exists(p)) failAt(doc, *v, "no such file or directory: " + p);
        return p;
    };
    s.grammar = file("grammar", true);
    readGrammarRules(doc, s);
    s.policy = file("policy", false);
    s.sentences = file("sentences", false);
    readSentence(doc, s);
    const json& mask = doc.member(root, "mask");
    s.where["mask"] = place(doc, mask);
    s.mask = readMask(doc, mask);
    if (s.mask.n != static_cast<int>(s.words.size()))
        failAt(doc, mask,
               "the mask is for " + std::to_string(s.mask.n) + " words but the sentence has " +
                   std::to_string(s.words.size()));
    readHistory(doc, s);
    readView(doc, s.view);
    return s;
}

} // namespace prunescope::gui
