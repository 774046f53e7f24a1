// State of the dependency view (DepSession.h).
#include "app/gui/dep/DepSession.h"

#include "core/dep/MaxMarginalPruning.h"

#include <algorithm>

namespace prunescope::gui {

DepStageSet modelMaxMarginalStages(std::shared_ptr<const DepModel> model, double alpha) {
    DepStageSet s;
    s.source = "the model's first-order max-marginals";
    s.names = {"max-marginal"};
    s.alphas = {alpha};
    s.append = [model](DepPipeline& p, std::span<const double> a) {
        p.addStage(modelMaxMarginalStage(*model, a[0]));
    };
    return s;
}

void DepSession::setModel(std::shared_ptr<const DepModel> model) {
    model_ = std::move(model);
    changed();
}

void DepSession::setSentences(std::vector<DepSentence> sentences) {
    sentences_ = std::move(sentences);
    index_ = 0;
    flips_.clear();
    changed();
}

void DepSession::setStages(std::shared_ptr<const DepStageSet> stages) {
    stages_ = std::move(stages);
    alphas_ = stages_ ? stages_->alphas : std::vector<double>{};
    flips_.clear();
    changed();
}

void DepSession::setAlpha(int stage, double alpha) {
    if (stage < 0 || stage >= static_cast<int>(alphas_.size())) return;
    alphas_[static_cast<std::size_t>(stage)] = alpha;
    changed();
}

void DepSession::select(int index) {
    if (sentences_.empty()) return;
    index_ = std::clamp(index, 0, static_cast<int>(sentences_.size()) - 1);
    flips_.clear();
    changed();
}

void DepSession::flip(int h, int m) {
    // Decided from the flips and the pipeline's mask (not the shown analysis, which may be one
    // request behind while a background computation runs).
    if (!ready() || analysis_.pipelineMask.n != sentence().size() ||
        !ArcMask::valid(sentence().size(), h, m))
        return;
    const bool base = analysis_.pipelineMask.keep(h, m);
    const auto it = flips_.find({h, m});
    const bool shown = it != flips_.end() ? it->second : base;
    if (!shown == base)
        flips_.erase({h, m});
    else
        flips_[{h, m}] = !shown;
    changed();
}

void DepSession::clearFlips() {
    flips_.clear();
    changed();
}

DepSession::Request DepSession::request() const {
    Request r;
    r.generation = generation_;
    r.model = model_;
    r.stages = stages_;
    r.alphas = alphas_;
    if (ready()) r.sentence = sentence();
    r.flips = flips_;
    return r;
}

DepAnalysis DepSession::compute(const Request& r, const std::atomic<bool>* cancel) {
    DepAnalysis a;
    a.generation = r.generation;
    if (!r.model || r.sentence.size() < 1) return a;
    try {
        DepPipeline pipeline(*r.model);
        if (r.stages) r.stages->append(pipeline, r.alphas);
        EisnerParser parser(r.model->eisnerOptions());
        parser.setCancelFlag(cancel);
        a.inspection = inspectDepSentence(pipeline, r.sentence, parser);
        a.pipelineMask = a.inspection.finalMask;
        if (!r.flips.empty()) {
            ArcMask m = a.pipelineMask;
            for (const auto& [arc, keep] : r.flips)
                m.set(arc.first, arc.second, keep);
            a.inspection = inspectDepSentence(pipeline, r.sentence, parser, &m);
        }
    } catch (const Cancelled&) {
        throw; // superseded: the task ends cancelled, not with an error to show
    } catch (const std::exception& e) {
        a.error = e.what();
    }
    return a;
}

bool DepSession::apply(DepAnalysis a) {
    if (a.generation != generation_) return false;
    analysis_ = std::move(a);
    return true;
}

nlohmann::json DepSession::maskJson() const {
    nlohmann::json j = inspection().finalMask.toJson();
    j["sentence"] = index_ + 1;
    nlohmann::json words = nlohmann::json::array();
    for (int m = 1; m <= sentence().size(); ++m)
        words.push_back(sentence().words[static_cast<std::size_t>(m)]);
    j["words"] = words;
    if (!sentence().file.empty()) j["file"] = sentence().file;
    return j;
}

} // namespace prunescope::gui
