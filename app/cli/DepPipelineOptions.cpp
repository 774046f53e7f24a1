// Pruning stages from the command line.
#include "app/cli/DepPipelineOptions.h"

#include "core/vine/VineCascade.h"

namespace prunescope::cli {

void addDepStageOptions(CLI::App& sub, DepStageOptions& o) {
    sub.add_option("--cascade", o.cascade, "Vine cascade (from vine-train): vine and first-order pruning stages in front of the model");
    sub.add_option("--alpha", o.alphas, "With --cascade: alpha per pruning stage (comma-separated; default: the cascade's dev-chosen ones)")
        ->delimiter(',');
    sub.add_option("--length-vine", o.lengthVine, "Length-only vine (no learning): keep root arcs and arcs of length <= B (0 = off)")
        ->check(CLI::Range(0, 1000))
        ->capture_default_str();
}

nlohmann::json addDepStages(DepPipeline& pipeline, DepStageOptions& o) {
    nlohmann::json info = nlohmann::json::array();
    if (o.lengthVine > 0) {
        pipeline.addStage(lengthVineStage(o.lengthVine));
        info.push_back({{"name", "length-vine"}, {"band", o.lengthVine}});
    }
    if (!o.alphas.empty() && o.cascade.empty()) throw std::invalid_argument("--alpha needs --cascade");
    if (!o.cascade.empty()) {
        auto c = std::make_shared<VineCascade>(loadVineCascade(o.cascade));
        const std::vector<double> alphas = o.alphas.empty() ? c->alphas : o.alphas;
        if (alphas.size() != c->stages.size())
            throw std::invalid_argument("--alpha: the cascade " + o.cascade + " has " + std::to_string(c->stages.size()) +
                                        " pruning stages, got " + std::to_string(alphas.size()) + " alphas");
        appendCascadeStages(pipeline, *c, alphas);
        for (std::size_t k = 0; k < c->stages.size(); ++k) {
            nlohmann::json s = {{"name", c->stages[k].name}, {"alpha", alphas[k]}, {"cascade", o.cascade}};
            if (c->stages[k].kind == CascadeStageKind::Vine) s["band"] = c->stages[k].band;
            info.push_back(s);
        }
        o.keepAlive = c;
    }
    return info;
}

} // namespace prunescope::cli
