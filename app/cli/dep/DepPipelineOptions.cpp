// Pruning stages from the command line.
#include "app/cli/dep/DepPipelineOptions.h"
#include "app/cli/Options.h"

#include "core/filters/ArcFilterFile.h"
#include "core/filters/FilterStage.h"
#include "core/vine/VineCascade.h"

#include <cmath>

namespace prunescope::cli {

namespace {
// --filter FILE: the arc filter (Cherry & Bergsma 2011) as the first stage, at its operating point.
void addFilterOption(CLI::App& sub, DepStageOptions& o) {
    sub.add_option(
        "--filter", o.filter,
        "Arc filter (from filter-train) applied before any other stage, at its operating point");
}
void addFilterStage(DepPipeline& pipeline, const DepStageOptions& o, nlohmann::json& info) {
    if (o.filter.empty()) return;
    auto f = std::make_shared<const ArcFilter>(loadArcFilter(o.filter));
    info.push_back({{"stage", "filter"},
                    {"path", o.filter},
                    {"kind", arcFilterKindName(f->kind)},
                    {"threshold", std::isinf(f->threshold) ? nlohmann::json("inf")
                                                           : nlohmann::json(f->threshold)}});
    pipeline.addStage(arcFilterStage(std::move(f)));
}

// --cascade FILE [--alpha A1,A2], --length-vine B: the vine cascade (Rush & Petrov 2012).
void addVineOptions(CLI::App& sub, DepStageOptions& o) {
    sub.add_option("--cascade", o.cascade,
                   "Vine cascade (from vine-train): vine and first-order pruning stages in front "
                   "of the model");
    sub.add_option("--alpha", o.alphas,
                   "With --cascade: alpha per pruning stage (comma-separated; default: the "
                   "cascade's dev-chosen ones)")
        ->delimiter(',')
        ->check(CLI::Range(-1e6, 1.0));
    sub.add_option(
           "--length-vine", o.lengthVine,
           "Length-only vine (no learning): keep root arcs and arcs of length <= B (0 = off)")
        ->check(CLI::Range(0, 1000))
        ->capture_default_str();
}
void addVineStages(DepPipeline& pipeline, DepStageOptions& o, nlohmann::json& info) {
    if (o.lengthVine > 0) {
        pipeline.addStage(lengthVineStage(o.lengthVine));
        info.push_back({{"name", "length-vine"}, {"band", o.lengthVine}});
    }
    if (!o.alphas.empty() && o.cascade.empty()) throw UsageError("--alpha needs --cascade");
    if (o.cascade.empty()) return;
    auto c = std::make_shared<VineCascade>(loadVineCascade(o.cascade));
    const std::vector<double> alphas = o.alphas.empty() ? c->alphas : o.alphas;
    if (alphas.size() != c->stages.size())
        throw std::invalid_argument("--alpha: the cascade " + o.cascade + " has " +
                                    std::to_string(c->stages.size()) + " pruning stages, got " +
                                    std::to_string(alphas.size()) + " alphas");
    appendCascadeStages(pipeline, *c, alphas);
    for (std::size_t k = 0; k < c->stages.size(); ++k) {
        nlohmann::json s = {
            {"name", c->stages[k].name}, {"alpha", alphas[k]}, {"cascade", o.cascade}};
        if (c->stages[k].kind == CascadeStageKind::Vine)
            s["band"] = c->stages[k].band,
            s["structure"] = vineStructureName(c->stages[k].structure);
        info.push_back(s);
    }
    o.keepAlive = c;
}
} // namespace

void addDepStageOptions(CLI::App& sub, DepStageOptions& o) {
    addFilterOption(sub, o);
    addVineOptions(sub, o);
}

nlohmann::json addDepStages(DepPipeline& pipeline, DepStageOptions& o) {
    nlohmann::json info = nlohmann::json::array();
    addFilterStage(pipeline, o, info); // the filter first: it is the cheapest and runs on every arc
    addVineStages(pipeline, o, info);
    return info;
}

} // namespace prunescope::cli
