// One sentence through a pipeline, with masks, tree and max-marginals (DepInspection.h).
#include "core/dep/DepInspection.h"

#include "core/dep/DepEval.h"

#include <cmath>
#include <stdexcept>

namespace prunescope {

DepInspection inspectDepSentence(const DepPipeline& pipeline, const DepSentence& s,
                                 EisnerParser& parser, const ArcMask* givenMask) {
    DepInspection r;
    r.n = s.size();
    if (givenMask && givenMask->n != r.n)
        throw std::invalid_argument("the arc mask is for " + std::to_string(givenMask->n) +
                                    " tokens, but the sentence has " + std::to_string(r.n));
    for (const auto& st : pipeline.stages())
        r.stageNames.push_back(st.name);
    r.stageMasks = pipeline.masks(s, &r.pushes);
    const auto N = static_cast<std::size_t>(r.n + 1);
    r.prunedBy.assign(N * N, -1);
    for (std::size_t k = 1; k < r.stageMasks.size(); ++k)
        for (int h = 0; h <= r.n; ++h)
            for (int m = 1; m <= r.n; ++m)
                if (h != m && r.prunedByAt(h, m) < 0 && r.stageMasks[k - 1].keep(h, m) &&
                    !r.stageMasks[k].keep(h, m))
                    r.prunedBy[static_cast<std::size_t>(h) * N + static_cast<std::size_t>(m)] =
                        static_cast<int>(k - 1);
    const DepModel& model = pipeline.finalModel();
    DepParse p;
    if (givenMask) {
        r.givenMask = true;
        r.finalMask = *givenMask;
        p = parseWithModel(model, s, &r.finalMask, parser);
        r.pushes += p.stats.pushes;
    } else {
        // DepPipeline::parse's fallback: relax to earlier masks, finally keep every arc.
        for (std::size_t k = r.stageMasks.size(); k-- > 0;) {
            p = parseWithModel(model, s, k == 0 ? nullptr : &r.stageMasks[k], parser);
            r.pushes += p.stats.pushes;
            r.finalMask = r.stageMasks[k];
            if (p.stats.success) break;
            ++r.fallbacks;
        }
    }
    r.success = p.stats.success;
    r.heads = std::move(p.heads);
    r.score = r.success ? p.stats.score : kHyperNegInf;
    const DepScorer scorer(model, s);
    r.maxMarginals =
        arcMaxMarginals(scorer.arcScores(&r.finalMask), &r.finalMask, model.singleRoot);
    return r;
}

nlohmann::json depInspectionJson(const DepSentence& s, const DepInspection& r) {
    nlohmann::json words = nlohmann::json::array(), tags = nlohmann::json::array(),
                   heads = nlohmann::json::array();
    for (int m = 1; m <= r.n; ++m) {
        words.push_back(s.words[static_cast<std::size_t>(m)]);
        tags.push_back(s.tags[static_cast<std::size_t>(m)]);
        heads.push_back(r.heads[static_cast<std::size_t>(m)]);
    }
    nlohmann::json j{{"words", words}, {"tags", tags}, {"heads", heads}, {"success", r.success}};
    j["score"] = r.success ? nlohmann::json(r.score) : nlohmann::json(nullptr);
    nlohmann::json stages = nlohmann::json::array();
    for (std::size_t k = 0; k < r.stageNames.size(); ++k)
        stages.push_back(
            {{"name", r.stageNames[k]}, {"arcsKept", r.stageMasks[k + 1].keptCount()}});
    j["stages"] = stages;
    j["arcs"] = ArcMask::totalArcs(r.n);
    j["arcsKept"] = r.finalMask.keptCount();
    j["givenMask"] = r.givenMask;
    j["fallbacks"] = r.fallbacks;
    j["pushes"] = r.pushes;
    nlohmann::json rows = nlohmann::json::array();
    for (int h = 0; h <= r.n; ++h) {
        nlohmann::json row = nlohmann::json::array();
        for (int m = 0; m <= r.n; ++m) {
            const double v = m >= 1 && h != m ? r.maxMarginals(h, m) : kHyperNegInf;
            row.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr));
        }
        rows.push_back(row);
    }
    j["maxMarginals"] = {{"best", std::isfinite(r.maxMarginals.best)
                                      ? nlohmann::json(r.maxMarginals.best)
                                      : nlohmann::json(nullptr)},
                         {"value", rows}};
    if (!r.stageNames.empty()) {
        nlohmann::json pb = nlohmann::json::array();
        for (int h = 0; h <= r.n; ++h) {
            nlohmann::json row = nlohmann::json::array();
            for (int m = 0; m <= r.n; ++m) {
                const int k = m >= 1 && h != m ? r.prunedByAt(h, m) : -1;
                row.push_back(k >= 0 ? nlohmann::json(r.stageNames[static_cast<std::size_t>(k)])
                                     : nlohmann::json(nullptr));
            }
            pb.push_back(row);
        }
        j["prunedBy"] = pb;
    }
    if (s.hasTree() && r.success) {
        const AttachmentScore a = scoreAttachment(s, r.heads);
        j["uas"] = a.uas();
        j["uasWithPunct"] = a.uasWithPunct();
    }
    return j;
}

} // namespace prunescope
