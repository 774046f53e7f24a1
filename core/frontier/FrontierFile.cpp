// frontier.json: evaluated policies, Pareto frontier, footnote-12 fit and lambdas (sec. 7, fn. 12).
#include "core/frontier/FrontierFile.h"

#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"

#include <cmath>
#include <filesystem>
#include <set>
#include <stdexcept>

namespace prunescope {

using nlohmann::json;

const char* runtimeMeasureName(RuntimeMeasure m) {
    switch (m) {
    case RuntimeMeasure::Mpush:
        return "mpush";
    case RuntimeMeasure::Constituents:
        return "constituents";
    case RuntimeMeasure::SpansKept:
        return "spansKept";
    }
    return "?";
}

RuntimeMeasure runtimeMeasureFromName(const std::string& name) {
    if (name == "mpush") return RuntimeMeasure::Mpush;
    if (name == "constituents") return RuntimeMeasure::Constituents;
    if (name == "spansKept") return RuntimeMeasure::SpansKept;
    throw std::invalid_argument("unknown runtime measure '" + name +
                                "' (mpush, constituents, spansKept)");
}

const char* runtimeMeasureMetricKey(RuntimeMeasure m) {
    switch (m) {
    case RuntimeMeasure::Mpush:
        return "meanMpush";
    case RuntimeMeasure::Constituents:
        return "meanConstituents";
    case RuntimeMeasure::SpansKept:
        return "meanSpansKept";
    }
    return "?";
}

std::string runtimeMeasureAxisLabel(RuntimeMeasure m) {
    switch (m) {
    case RuntimeMeasure::Mpush:
        return "mega-pushes per sentence (mpush)";
    case RuntimeMeasure::Constituents:
        return "constituents built per sentence";
    case RuntimeMeasure::SpansKept:
        return "spans kept per sentence";
    }
    return "";
}

std::string lambdaUnitFor(RuntimeMeasure m) {
    switch (m) {
    case RuntimeMeasure::Mpush:
        return "F1 percent per mpush";
    case RuntimeMeasure::Constituents:
        return "F1 percent per constituent built";
    case RuntimeMeasure::SpansKept:
        return "F1 percent per span kept";
    }
    return "";
}

RuntimeMeasure runtimeMeasureForLambdaUnit(const std::string& unit) {
    for (RuntimeMeasure m :
         {RuntimeMeasure::Mpush, RuntimeMeasure::Constituents, RuntimeMeasure::SpansKept})
        if (unit == lambdaUnitFor(m)) return m;
    return RuntimeMeasure::Mpush;
}

double parseRuntime(RuntimeMeasure m, long pushes, long constituents, int spansKept) {
    switch (m) {
    case RuntimeMeasure::Mpush:
        return static_cast<double>(pushes) / 1e6;
    case RuntimeMeasure::Constituents:
        return static_cast<double>(constituents);
    case RuntimeMeasure::SpansKept:
        return static_cast<double>(spansKept);
    }
    return 0;
}

double runtimeFromMetrics(const json& metrics, RuntimeMeasure m) {
    const char* key = runtimeMeasureMetricKey(m);
    auto it = metrics.find(key);
    if (it == metrics.end() || !it->is_number())
        throw std::invalid_argument(std::string("metrics lack the number '") + key + "'");
    return it->get<double>();
}

double accuracyFromMetrics(const json& metrics) {
    auto it = metrics.find("f1");
    if (it == metrics.end() || !it->is_number())
        throw std::invalid_argument("metrics lack the number 'f1'");
    return 100.0 * it->get<double>();
}

void refitFrontier(FrontierData& d, RuntimeMeasure m) {
    d.runtimeMeasure = m;
    d.lambdaUnit = lambdaUnitFor(m);
    std::vector<FrontierPoint> pts;
    for (auto& e : d.points) {
        e.runtime = runtimeFromMetrics(e.metrics, m);
        e.accuracy = accuracyFromMetrics(e.metrics);
        pts.push_back({e.runtime, e.accuracy, e.id});
    }
    d.frontier = paretoFrontier(pts);
    for (auto& e : d.points)
        e.onFrontier = false;
    for (int i : d.frontier)
        d.points[static_cast<size_t>(i)].onFrontier = true;
    d.fit.reset();
    try {
        d.fit = fitSigmoid(pts);
    } catch (const std::invalid_argument&) {
        // fewer than 4 points or no positive accuracy: no fit, no lambdas
    }
    const std::vector<LambdaRange> ranges = optimalLambdaRanges(pts);
    for (size_t i = 0; i < d.points.size(); ++i) {
        d.points[i].lambda =
            d.fit ? d.fit->slope(d.points[i].runtime) : std::numeric_limits<double>::quiet_NaN();
        d.points[i].lambdaRange = ranges[i];
    }
}

namespace {

json numberOrNull(double x) {
    return std::isfinite(x) ? json(x) : json(nullptr);
}

// Problems are reported at the offending value (or at the object that lacks a field).
[[noreturn]] void bad(const JsonDocument& doc, const json& at, const std::string& what) {
    doc.fail(at, what);
}

const json& field(const json& obj, const std::string& key, const std::string& where,
                  const JsonDocument& doc) {
    auto it = obj.find(key);
    if (it == obj.end()) bad(doc, obj, "missing field '" + where + key + "'");
    return *it;
}

double number(const json& obj, const std::string& key, const std::string& where,
              const JsonDocument& doc) {
    const json& v = field(obj, key, where, doc);
    if (!v.is_number()) bad(doc, v, "field '" + where + key + "' must be a number");
    const double x = v.get<double>();
    if (!std::isfinite(x)) bad(doc, v, "field '" + where + key + "' must be finite");
    return x;
}

std::string text(const json& obj, const std::string& key, const std::string& where,
                 const JsonDocument& doc) {
    const json& v = field(obj, key, where, doc);
    if (!v.is_string()) bad(doc, v, "field '" + where + key + "' must be a string");
    return v.get<std::string>();
}

const json& object(const json& obj, const std::string& key, const std::string& where,
                   const JsonDocument& doc) {
    const json& v = field(obj, key, where, doc);
    if (!v.is_object()) bad(doc, v, "field '" + where + key + "' must be an object");
    return v;
}

void checkMetrics(const json& m, const std::string& where, const JsonDocument& doc) {
    const double f1 = number(m, "f1", where, doc);
    if (f1 < 0 || f1 > 1) bad(doc, m["f1"], "field '" + where + "f1' must be in [0, 1]");
    for (RuntimeMeasure r :
         {RuntimeMeasure::Mpush, RuntimeMeasure::Constituents, RuntimeMeasure::SpansKept})
        if (number(m, runtimeMeasureMetricKey(r), where, doc) < 0)
            bad(doc, m[runtimeMeasureMetricKey(r)],
                "field '" + where + runtimeMeasureMetricKey(r) + "' must be >= 0");
}

} // namespace

std::string frontierToJson(const FrontierData& d) {
    json j = json::object();
    j["format"] = kFrontierFormat;
    j["version"] = kFrontierFormatVersion;
    j["runtimeMeasure"] = runtimeMeasureName(d.runtimeMeasure);
    j["accuracyMeasure"] = "f1";
    j["lambdaUnit"] = d.lambdaUnit;
    j["grammar"] = d.grammar;
    j["evaluation"] = d.evaluation;
    j["unpruned"] = d.unpruned;
    j["fit"] = d.fit ? json{{"ymax", d.fit->ymax},
                            {"a", d.fit->a},
                            {"b", d.fit->b},
                            {"c", d.fit->c},
                            {"mse", d.fit->mse}}
                     : json(nullptr);
    json pts = json::array();
    for (const auto& e : d.points) {
        json p = json::object();
        p["id"] = e.id;
        p["policy"] = e.policy.empty() ? json(nullptr) : json(e.policy);
        p["training"] = e.training;
        p["metrics"] = e.metrics;
        p["runtime"] = e.runtime;
        p["accuracy"] = e.accuracy;
        p["lambda"] = numberOrNull(e.lambda);
        p["lambdaRange"] = e.lambdaRange.empty ? json(nullptr)
                                               : json{{"lo", e.lambdaRange.lo},
                                                      {"hi", numberOrNull(e.lambdaRange.hi)}};
        p["onFrontier"] = e.onFrontier;
        pts.push_back(std::move(p));
    }
    j["points"] = std::move(pts);
    j["frontier"] = d.frontier;
    j["info"] = d.info;
    return j.dump(2) + "\n";
}

namespace {

// The parts of a frontier file, in the order frontierFromJson reads them.
void readFrontierFormat(const JsonDocument& doc, const json& j) {
    const std::string format = text(j, "format", "", doc);
    if (format != kFrontierFormat)
        bad(doc, j["format"], "format is '" + format + "', expected '" + kFrontierFormat + "'");
    const json& ver = field(j, "version", "", doc);
    if (!ver.is_number_integer() || ver.get<std::int64_t>() != kFrontierFormatVersion)
        bad(doc, ver,
            "unsupported version " + ver.dump() + " (this program reads version " +
                std::to_string(kFrontierFormatVersion) + ")");
}

void readFrontierMeasures(const JsonDocument& doc, const json& j, FrontierData& d) {
    const std::string rm = text(j, "runtimeMeasure", "", doc);
    try {
        d.runtimeMeasure = runtimeMeasureFromName(rm);
    } catch (const std::invalid_argument& e) {
        bad(doc, j["runtimeMeasure"], e.what());
    }
    if (text(j, "accuracyMeasure", "", doc) != "f1")
        bad(doc, j["accuracyMeasure"], "accuracyMeasure must be \"f1\"");
    d.lambdaUnit = text(j, "lambdaUnit", "", doc);
    d.grammar = text(j, "grammar", "", doc);
    d.evaluation = object(j, "evaluation", "", doc);
    d.info = object(j, "info", "", doc);
    d.unpruned = field(j, "unpruned", "", doc);
    if (!d.unpruned.is_null()) {
        if (!d.unpruned.is_object())
            bad(doc, j["unpruned"], "field 'unpruned' must be an object or null");
        checkMetrics(j["unpruned"], "unpruned.", doc);
    }
}

void readFrontierFit(const JsonDocument& doc, const json& j, FrontierData& d) {
    const json& fit = field(j, "fit", "", doc);
    if (!fit.is_null()) {
        if (!fit.is_object()) bad(doc, fit, "field 'fit' must be an object or null");
        SigmoidFit h{number(fit, "ymax", "fit.", doc), number(fit, "a", "fit.", doc),
                     number(fit, "b", "fit.", doc), number(fit, "c", "fit.", doc),
                     number(fit, "mse", "fit.", doc)};
        if (!(h.ymax > 0)) bad(doc, fit["ymax"], "fit.ymax must be > 0");
        if (h.mse < 0) bad(doc, fit["mse"], "fit.mse must be >= 0");
        d.fit = h;
    }
}

// points[i]; ids holds the ids read so far.
FrontierEntry readFrontierPoint(const JsonDocument& doc, const json& pts, size_t i,
                                const FrontierData& d, std::set<std::string>& ids) {
    const json& p = pts[i];
    const std::string w = "points[" + std::to_string(i) + "].";
    if (!p.is_object()) bad(doc, p, "points[" + std::to_string(i) + "] must be an object");
    FrontierEntry e;
    e.id = text(p, "id", w, doc);
    if (e.id.empty()) bad(doc, p["id"], w + "id must not be empty");
    if (!ids.insert(e.id).second) bad(doc, p["id"], w + "id '" + e.id + "' is repeated");
    const json& pol = field(p, "policy", w, doc);
    if (pol.is_string() && !pol.get<std::string>().empty())
        e.policy = pol.get<std::string>();
    else if (!pol.is_null())
        bad(doc, pol, "field '" + w + "policy' must be a non-empty string or null");
    e.training = object(p, "training", w, doc);
    e.metrics = object(p, "metrics", w, doc);
    checkMetrics(p["metrics"], w + "metrics.", doc);
    e.runtime = number(p, "runtime", w, doc);
    e.accuracy = number(p, "accuracy", w, doc);
    if (e.runtime != runtimeFromMetrics(e.metrics, d.runtimeMeasure))
        bad(doc, p["runtime"],
            w + "runtime does not equal metrics." + runtimeMeasureMetricKey(d.runtimeMeasure));
    if (e.accuracy != accuracyFromMetrics(e.metrics))
        bad(doc, p["accuracy"], w + "accuracy does not equal 100 * metrics.f1");
    const json& lam = field(p, "lambda", w, doc);
    if (lam.is_number() && std::isfinite(lam.get<double>()))
        e.lambda = lam.get<double>();
    else if (!lam.is_null())
        bad(doc, lam, "field '" + w + "lambda' must be a number or null");
    if (!d.fit && !lam.is_null()) bad(doc, lam, w + "lambda must be null when there is no fit");
    const json& lr = field(p, "lambdaRange", w, doc);
    if (lr.is_object()) {
        e.lambdaRange.lo = number(lr, "lo", w + "lambdaRange.", doc);
        const json& hi = field(lr, "hi", w + "lambdaRange.", doc);
        if (hi.is_null())
            e.lambdaRange.hi = std::numeric_limits<double>::infinity();
        else
            e.lambdaRange.hi = number(lr, "hi", w + "lambdaRange.", doc);
        e.lambdaRange.empty = false;
        if (!(e.lambdaRange.lo >= 0 && e.lambdaRange.lo <= e.lambdaRange.hi))
            bad(doc, lr, w + "lambdaRange must satisfy 0 <= lo <= hi");
    } else if (!lr.is_null()) {
        bad(doc, lr, "field '" + w + "lambdaRange' must be an object or null");
    }
    const json& on = field(p, "onFrontier", w, doc);
    if (!on.is_boolean()) bad(doc, on, "field '" + w + "onFrontier' must be true or false");
    e.onFrontier = on.get<bool>();
    return e;
}

// The frontier list: point indices sorted by runtime, agreeing with each point's onFrontier.
void readFrontierList(const JsonDocument& doc, const json& j, const json& pts, FrontierData& d) {
    const json& fr = field(j, "frontier", "", doc);
    if (!fr.is_array()) bad(doc, fr, "field 'frontier' must be an array");
    std::vector<bool> inFrontier(d.points.size(), false);
    for (size_t i = 0; i < fr.size(); ++i) {
        const json& v = fr[i];
        const bool isIndex =
            v.is_number_unsigned()
                ? v.get<std::uint64_t>() < d.points.size()
                : v.is_number_integer() && v.get<std::int64_t>() >= 0 &&
                      v.get<std::int64_t>() < static_cast<std::int64_t>(d.points.size());
        if (!isIndex)
            bad(doc, v,
                "frontier[" + std::to_string(i) + "] = " + v.dump() + " is not a point index");
        const int idx = v.get<int>();
        if (inFrontier[static_cast<size_t>(idx)])
            bad(doc, v, "frontier lists point " + std::to_string(idx) + " twice");
        if (i > 0 && d.points[static_cast<size_t>(idx)].runtime <
                         d.points[static_cast<size_t>(d.frontier.back())].runtime)
            bad(doc, v, "frontier is not sorted by runtime");
        inFrontier[static_cast<size_t>(idx)] = true;
        d.frontier.push_back(idx);
    }
    for (size_t i = 0; i < d.points.size(); ++i)
        if (d.points[i].onFrontier != inFrontier[i])
            bad(doc, pts[i]["onFrontier"],
                "points[" + std::to_string(i) + "].onFrontier disagrees with the frontier list");
}

} // namespace

FrontierData frontierFromJson(const std::string& input, const std::string& file) {
    const JsonDocument doc(input, file, "frontier: ");
    const json& j = doc.root();
    if (!j.is_object()) bad(doc, j, "top level must be a JSON object");
    readFrontierFormat(doc, j);
    FrontierData d;
    readFrontierMeasures(doc, j, d);
    readFrontierFit(doc, j, d);
    const json& pts = field(j, "points", "", doc);
    if (!pts.is_array()) bad(doc, pts, "field 'points' must be an array");
    std::set<std::string> ids;
    for (size_t i = 0; i < pts.size(); ++i)
        d.points.push_back(readFrontierPoint(doc, pts, i, d, ids));
    readFrontierList(doc, j, pts, d);
    return d;
}

void saveFrontier(const FrontierData& d, const std::string& path) {
    writeFileAtomically(path, frontierToJson(d));
}

FrontierData loadFrontier(const std::string& path) {
    return frontierFromJson(readFile(path), path);
}

std::string frontierPolicyPath(const std::string& frontierPath, const FrontierEntry& e) {
    if (e.policy.empty()) return "";
    const std::filesystem::path p(e.policy);
    if (p.is_absolute()) return p.string();
    return (std::filesystem::path(frontierPath).parent_path() / p).lexically_normal().string();
}

} // namespace prunescope
