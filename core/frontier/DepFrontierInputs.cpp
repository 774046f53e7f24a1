// A DepFrontier from vine-frontier and dep-eval outputs (Rush & Petrov 2012 sec. 6; Cherry &
// Bergsma 2011 sec. 5).
#include "core/frontier/DepFrontierInputs.h"

#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>

namespace prunescope {

namespace {

std::string baseName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

std::string modelLabel(const std::string& path, int order) {
    return baseName(path) + (order > 0 ? " (order " + std::to_string(order) + ")" : "");
}

// A vine-frontier point object (pointJson in app/cli/dep/CmdVineFrontier.cpp).
DepFrontierPoint vinePoint(const JsonDocument& doc, const nlohmann::json& p, std::string label) {
    DepFrontierPoint q;
    q.label = std::move(label);
    q.uas = doc.number(doc.member(p, "uas"), 0, 100);
    q.tokensPerSecond = doc.number(doc.member(p, "tokensPerSecond"), 0);
    q.arcsKept = doc.number(doc.member(p, "arcsKeptFraction"), 0, 1);
    return q;
}

std::string alphaLabel(double a) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "α=%g", a);
    return buf;
}

const nlohmann::json& arrayMember(const JsonDocument& doc, const nlohmann::json& obj,
                                  const std::string& key) {
    const auto& v = doc.member(obj, key);
    if (!v.is_array()) doc.fail(v, key + " must be an array");
    return v;
}

std::vector<double> numberArray(const JsonDocument& doc, const nlohmann::json& arr) {
    if (!arr.is_array()) doc.fail(arr, "expected an array of numbers");
    std::vector<double> v;
    for (const auto& x : arr)
        v.push_back(doc.number(x));
    return v;
}

struct DepEvalRun {
    std::string name, path, model;
    int order = 0;
    bool exhaustive = false;
    DepFrontierPoint point;
};

DepEvalRun readDepEvalRun(const DepEvalInput& in) {
    const JsonDocument doc(readFile(in.path), in.path, "dep-eval output: ");
    const auto& root = doc.root();
    DepEvalRun r;
    r.name = in.name;
    r.path = in.path;
    const auto& model = doc.member(root, "model");
    r.model = doc.string(doc.member(model, "path"));
    r.order = doc.int32(doc.member(model, "order"), 1, 3);
    r.exhaustive = arrayMember(doc, root, "stages").empty();
    r.point.label = in.name;
    r.point.uas = doc.number(doc.member(root, "uas"), 0, 100);
    r.point.tokensPerSecond = doc.number(doc.member(root, "tokensPerSecond"), 0);
    r.point.arcsKept = doc.number(doc.member(root, "arcsKeptFraction"), 0, 1);
    return r;
}

} // namespace

DepEvalInput parseDepEvalSpec(const std::string& spec) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
        throw InputError("--eval", 0, 0, "expected NAME=FILE (a dep-eval --json output): " + spec);
    return {spec.substr(0, eq), spec.substr(eq + 1)};
}

void addVineFrontierSeries(DepFrontier& f, const std::string& path) {
    const JsonDocument doc(readFile(path), path, "vine-frontier output: ");
    const auto& root = doc.root();
    const std::string model = modelLabel(doc.string(doc.member(root, "model")), 0);
    const std::vector<double> chosenAlphas = numberArray(doc, doc.member(root, "chosenAlphas"));
    const std::string colour = depFrontierColour(f.series.size());
    DepFrontierSeries sweep{
        "vine cascade (alpha sweep)", model, colour, DepFrontierStyle::Sweep, {}};
    bool chosenOnSweep = false;
    for (const auto& p : arrayMember(doc, root, "frontier")) {
        const std::vector<double> alphas = numberArray(doc, doc.member(p, "alphas"));
        if (alphas.empty()) doc.fail(p, "alphas must not be empty");
        DepFrontierPoint q = vinePoint(doc, p, alphaLabel(alphas.front()));
        q.chosen = alphas == chosenAlphas;
        chosenOnSweep = chosenOnSweep || q.chosen;
        sweep.points.push_back(q);
    }
    if (!chosenOnSweep) {
        DepFrontierPoint q = vinePoint(doc, doc.member(root, "chosen"), "chosen");
        q.chosen = true;
        sweep.points.push_back(q);
    }
    DepFrontierSeries length{"length-only vine (band sweep)",
                             model,
                             depFrontierColour(f.series.size() + 1),
                             DepFrontierStyle::Sweep,
                             {}};
    for (const auto& p : arrayMember(doc, root, "lengthVine"))
        length.points.push_back(
            vinePoint(doc, p, "b=" + std::to_string(doc.int32(doc.member(p, "band"), 0))));
    DepFrontierSeries ex{"exhaustive (vine run)", model, colour, DepFrontierStyle::Reference, {}};
    ex.points.push_back(vinePoint(doc, doc.member(root, "exhaustive"), "exhaustive"));
    f.series.push_back(std::move(sweep));
    f.series.push_back(std::move(length));
    f.series.push_back(std::move(ex));
    if (const auto* o1 = doc.optionalMember(root, "exhaustiveFirstOrder")) {
        const auto* m1 = doc.optionalMember(root, "firstOrderModel");
        DepFrontierSeries ex1{"exhaustive first order (vine run)",
                              m1 ? modelLabel(doc.string(*m1), 1)
                                 : "not recorded (the vine run's first-order model)",
                              depFrontierColour(f.series.size()),
                              DepFrontierStyle::Reference,
                              {}};
        ex1.points.push_back(vinePoint(doc, *o1, "exhaustive 1st order"));
        f.series.push_back(std::move(ex1));
    }
    f.sources.push_back(path);
}

void addDepEvalSeries(DepFrontier& f, const std::vector<DepEvalInput>& inputs) {
    std::vector<DepEvalRun> runs;
    for (const auto& in : inputs)
        runs.push_back(readDepEvalRun(in));
    std::vector<std::string> models; // in order of first appearance
    for (const auto& r : runs)
        if (std::find(models.begin(), models.end(), r.model) == models.end())
            models.push_back(r.model);
    for (const auto& m : models) {
        const DepEvalRun* first = nullptr;
        DepFrontierSeries pruned{
            "", "", depFrontierColour(f.series.size()), DepFrontierStyle::Points, {}};
        DepFrontierSeries ex{"", "", pruned.colour, DepFrontierStyle::Reference, {}};
        for (const auto& r : runs) {
            if (r.model != m) continue;
            if (!first) first = &r;
            (r.exhaustive ? ex : pruned).points.push_back(r.point);
        }
        const std::string label = modelLabel(m, first->order);
        if (ex.points.empty())
            throw InputError(
                first->path, 0, 0,
                "no exhaustive run (dep-eval without pruning stages) of model " + m +
                    " among the --eval files: every series needs its own exhaustive reference");
        pruned.name = "pruned, order " + std::to_string(first->order) + " (dep-eval)";
        ex.name = "exhaustive, order " + std::to_string(first->order) + " (dep-eval)";
        pruned.model = ex.model = label;
        if (!pruned.points.empty()) f.series.push_back(std::move(pruned));
        f.series.push_back(std::move(ex));
    }
    for (const auto& in : inputs)
        f.sources.push_back(in.path);
}

DepFrontier loadDepFrontierFiles(const std::vector<std::string>& paths) {
    if (paths.empty()) throw InputError("", 0, 0, "no files given");
    DepFrontier f;
    f.title = "Dependency parsing: speed/accuracy frontier";
    std::vector<DepEvalInput> evals;
    for (const auto& p : paths) {
        const JsonDocument doc(readFile(p), p);
        const auto& root = doc.root();
        if (!root.is_object()) doc.fail(root, "expected a JSON object");
        if (root.contains("format") && root["format"] == "prunescope-dep-frontier") {
            if (paths.size() != 1)
                throw InputError(
                    p, 0, 0, "a combined dep-frontier file opens on its own, not with other files");
            return loadDepFrontier(p);
        }
        if (root.contains("lengthVine"))
            addVineFrontierSeries(f, p);
        else if (root.contains("stages"))
            evals.push_back({std::filesystem::path(p).stem().string(), p});
        else
            throw InputError(p, 1, 1,
                             "not a dep-frontier, vine-frontier or dep-eval --json file (no "
                             "format, lengthVine or stages key)");
    }
    if (!evals.empty()) addDepEvalSeries(f, evals);
    return f;
}

} // namespace prunescope
