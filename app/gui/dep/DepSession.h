#pragma once
// The state behind the dependency view, without Qt: a dependency model, sentences (gold trees
// optional), the pruning stages with one alpha each, and the user's flipped arc bits; for the
// current sentence, the analysis of core/dep/DepInspection.h (masks per stage, best tree,
// max-marginals) — the code `prunescope-cli dep-parse` runs.
//
// Flips override the pipeline's final mask: the view parses under
//   finalMask = (the mask the pipeline would parse under) with each flipped arc set as the user
//   chose,
// exactly (no fallback), i.e. `dep parse --mask-file` with the exported mask (maskJson()). Flips
// are kept when an alpha changes and cleared when the sentence changes.
//
// Work is split for background use: request() copies what a computation needs, compute() runs it
// on any thread, apply() stores the result if it is still current.
#include "core/dep/DepInspection.h"
#include "core/dep/DepModel.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace prunescope::gui {

// Pruning stages the user can tune: their names, default alphas, and how to append them to a
// pipeline for given alphas (a cascade file's stages, or the model's own max-marginal pass).
struct DepStageSet {
    std::string source;             // shown to the user ("model max-marginals", a cascade path)
    std::vector<std::string> names; // one per stage, as the pipeline names them
    std::vector<double> alphas;     // defaults, one per stage
    std::function<void(DepPipeline&, std::span<const double>)> append;
};

// The model's first-order max-marginal pass as one stage ("max-marginal", MaxMarginalPruning.h).
DepStageSet modelMaxMarginalStages(std::shared_ptr<const DepModel> model, double alpha);

struct DepAnalysis {
    int generation = -1;
    DepInspection inspection;
    ArcMask pipelineMask; // what the pipeline parses under without flips (after fallbacks)
    std::string error;    // a failure (e.g. the sentence is too long for the memory budget)
};

class DepSession {
  public:
    void setModel(std::shared_ptr<const DepModel> model);
    void setSentences(std::vector<DepSentence> sentences);
    // nullptr = no stages (exhaustive). Resets the alphas to the set's defaults and the flips.
    void setStages(std::shared_ptr<const DepStageSet> stages);
    void setAlpha(int stage, double alpha);
    void select(int index); // clamps; clears the flips
    // Flips arc (h, m) of the mask shown (the current analysis's final mask).
    void flip(int h, int m);
    void clearFlips();

    bool ready() const { return model_ && !sentences_.empty(); }
    const DepModel* model() const { return model_.get(); }
    std::shared_ptr<const DepModel> modelPtr() const { return model_; }
    const DepStageSet* stages() const { return stages_.get(); }
    const std::vector<double>& alphas() const { return alphas_; }
    const std::vector<DepSentence>& sentences() const { return sentences_; }
    int index() const { return index_; }
    const DepSentence& sentence() const { return sentences_[static_cast<std::size_t>(index_)]; }
    bool isFlipped(int h, int m) const { return flips_.count({h, m}) > 0; }
    int flipCount() const { return static_cast<int>(flips_.size()); }

    struct Request {
        int generation = 0;
        std::shared_ptr<const DepModel> model;
        std::shared_ptr<const DepStageSet> stages;
        std::vector<double> alphas;
        DepSentence sentence;
        std::map<std::pair<int, int>, bool> flips; // arc -> keep
    };
    Request request() const;
    // cancel (BackgroundTask's Progress::cancelFlag): a set flag stops the final parse mid-sentence
    // with Cancelled (an exhaustive third-order parse of a long sentence takes seconds).
    static DepAnalysis compute(const Request& r, const std::atomic<bool>* cancel = nullptr);
    // Stores a's result if it answers the latest request; returns whether it did.
    bool apply(DepAnalysis a);
    void recomputeSync() { apply(compute(request())); }
    bool current() const { return analysis_.generation == generation_; }

    const DepAnalysis& analysis() const { return analysis_; }
    const DepInspection& inspection() const { return analysis_.inspection; }
    bool hasAnalysis() const {
        return analysis_.generation >= 0 && analysis_.error.empty() &&
               analysis_.inspection.n == sentence().size();
    }
    // The final mask as JSON (ArcMask::toJson plus "sentence": 1-based index, "words", "file"):
    // `dep-parse --input <treebank> --mask FILE` parses that sentence under it.
    nlohmann::json maskJson() const;

  private:
    void changed() { ++generation_; }

    std::shared_ptr<const DepModel> model_;
    std::shared_ptr<const DepStageSet> stages_;
    std::vector<double> alphas_;
    std::vector<DepSentence> sentences_;
    int index_ = 0, generation_ = 0;
    std::map<std::pair<int, int>, bool> flips_;
    DepAnalysis analysis_;
};

} // namespace prunescope::gui
