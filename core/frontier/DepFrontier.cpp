// The dependency frontier's combined JSON (Rush & Petrov 2012 sec. 6; Cherry & Bergsma 2011 sec.
// 5).
#include "core/frontier/DepFrontier.h"

#include "core/util/AtomicFile.h"
#include "core/util/JsonDocument.h"

#include <nlohmann/json.hpp>

namespace prunescope {

namespace {

constexpr const char* kDepFrontierFormat = "prunescope-dep-frontier";

DepFrontierStyle parseStyle(const JsonDocument& doc, const nlohmann::json& v) {
    const std::string s = doc.string(v);
    if (s == "sweep") return DepFrontierStyle::Sweep;
    if (s == "points") return DepFrontierStyle::Points;
    if (s == "reference") return DepFrontierStyle::Reference;
    doc.fail(v, "style must be sweep, points or reference, not \"" + s + "\"");
}

DepFrontierPoint parseDepFrontierPoint(const JsonDocument& doc, const nlohmann::json& p) {
    DepFrontierPoint q;
    q.label = doc.string(doc.member(p, "label"));
    q.uas = doc.number(doc.member(p, "uas"), 0, 100);
    q.tokensPerSecond = doc.number(doc.member(p, "tokensPerSecond"), 0);
    if (const auto* a = doc.optionalMember(p, "arcsKept")) q.arcsKept = doc.number(*a, 0, 1);
    if (const auto* c = doc.optionalMember(p, "chosen")) q.chosen = doc.boolean(*c);
    return q;
}

} // namespace

std::string depFrontierStyleName(DepFrontierStyle s) {
    switch (s) {
    case DepFrontierStyle::Sweep:
        return "sweep";
    case DepFrontierStyle::Points:
        return "points";
    case DepFrontierStyle::Reference:
        return "reference";
    }
    return "points";
}

std::string depFrontierColour(std::size_t i) {
    static const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                     "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
    return kPalette[i % 8];
}

std::string depFrontierJson(const DepFrontier& f) {
    nlohmann::json series = nlohmann::json::array();
    for (const auto& s : f.series) {
        nlohmann::json pts = nlohmann::json::array();
        for (const auto& p : s.points) {
            nlohmann::json j = {{"label", p.label},
                                {"uas", p.uas},
                                {"tokensPerSecond", p.tokensPerSecond},
                                {"chosen", p.chosen}};
            if (p.arcsKept >= 0) j["arcsKept"] = p.arcsKept;
            pts.push_back(j);
        }
        series.push_back({{"name", s.name},
                          {"model", s.model},
                          {"colour", s.colour},
                          {"style", depFrontierStyleName(s.style)},
                          {"points", pts}});
    }
    const nlohmann::json j = {{"format", kDepFrontierFormat},
                              {"version", 1},
                              {"title", f.title},
                              {"arcsPanel", f.arcsPanel},
                              {"zoomPanel", f.zoomPanel},
                              {"paretoLine", f.paretoLine},
                              {"sources", f.sources},
                              {"series", series}};
    return j.dump(2) + "\n";
}

DepFrontier parseDepFrontierJson(const std::string& text, const std::string& file) {
    const JsonDocument doc(text, file, "dependency frontier: ");
    const auto& root = doc.root();
    const auto& format = doc.member(root, "format");
    if (doc.string(format) != kDepFrontierFormat)
        doc.fail(format, std::string("format must be \"") + kDepFrontierFormat + "\"");
    const auto& version = doc.member(root, "version");
    if (doc.int32(version) != 1)
        doc.fail(version, "unsupported version (this build reads version 1)");
    DepFrontier f;
    f.title = doc.string(doc.member(root, "title"));
    if (const auto* a = doc.optionalMember(root, "arcsPanel")) f.arcsPanel = doc.boolean(*a);
    if (const auto* z = doc.optionalMember(root, "zoomPanel")) f.zoomPanel = doc.boolean(*z);
    if (const auto* p = doc.optionalMember(root, "paretoLine")) f.paretoLine = doc.boolean(*p);
    if (const auto* src = doc.optionalMember(root, "sources")) {
        if (!src->is_array()) doc.fail(*src, "sources must be an array of file names");
        for (const auto& s : *src)
            f.sources.push_back(doc.string(s));
    }
    const auto& series = doc.member(root, "series");
    if (!series.is_array()) doc.fail(series, "series must be an array");
    for (const auto& s : series) {
        DepFrontierSeries out;
        out.name = doc.string(doc.member(s, "name"));
        out.model = doc.string(doc.member(s, "model"));
        out.colour = doc.string(doc.member(s, "colour"));
        out.style = parseStyle(doc, doc.member(s, "style"));
        const auto& pts = doc.member(s, "points");
        if (!pts.is_array()) doc.fail(pts, "points must be an array");
        for (const auto& p : pts)
            out.points.push_back(parseDepFrontierPoint(doc, p));
        f.series.push_back(std::move(out));
    }
    return f;
}

DepFrontier loadDepFrontier(const std::string& path) {
    return parseDepFrontierJson(readFile(path), path);
}

void saveDepFrontier(const DepFrontier& f, const std::string& path) {
    writeFileAtomically(path, depFrontierJson(f));
}

} // namespace prunescope
