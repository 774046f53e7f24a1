#pragma once
// A dependency decoder made of pruning stages and a final exact parse: the one place where arc
// masks from any pruner meet the parser. A stage takes the incoming ArcMask and returns a narrower
// one; stages run in order (filters, the vine pass, the first-order max-marginal pass, ...), then
// the final model parses under the last mask. Adding a pruner = adding a stage.
//
// Counters: arcsAtFirstExact is the mask entering the first stage marked `exact` (one that runs an
// exact Eisner pass itself), or the final parse's mask if there is none: the share of the n^2 arcs
// that "reach the first exact stage" (dep-eval's arcsKeptFraction).
//
// Fallback (documented, counted): if the final parse finds no tree under the last mask, it is
// re-run under the mask that entered the last stage, then the one before, and finally with every
// arc kept; `fallbacks` counts the relaxations.
#include "core/dep/ArcMask.h"
#include "core/dep/DepCorpus.h"
#include "core/dep/DepModel.h"
#include "core/dep/DepSentenceFeatures.h"

#include <functional>
#include <string>
#include <vector>

namespace prunescope {

struct StageResult {
    ArcMask mask;    // the narrowed mask (a subset of the incoming one)
    long pushes = 0; // work done by the stage (hyperedges visited)
};

struct ArcPruningStage {
    std::string name;   // "filter", "vine", "first-order", ...
    bool exact = false; // the stage runs an exact parser over the arcs it receives
    // `features` is the sentence's, shared by every stage and the final parse (arc keys built
    // once).
    std::function<StageResult(const DepSentence&, const ArcMask& incoming,
                              DepSentenceFeatures& features)>
        prune;
};

class DepPipeline {
  public:
    explicit DepPipeline(const DepModel& finalModel) : model_(&finalModel) {}
    void addStage(ArcPruningStage stage) { stages_.push_back(std::move(stage)); }
    const std::vector<ArcPruningStage>& stages() const { return stages_; }
    const DepModel& finalModel() const { return *model_; }

    // The masks after each stage (masks[0] = all arcs, masks[k] = after stage k).
    std::vector<ArcMask> masks(const DepSentence& s, long* pushes = nullptr) const;
    // Prunes and parses one sentence (the DepDecoder of evaluateDepCorpus); parser is reused.
    DepSentenceResult parse(const DepSentence& s, EisnerParser& parser) const;
    // Owns its parser; not thread-safe (one per thread). With a cancel flag (Progress::cancelFlag),
    // the final parse throws Cancelled once it is set; evaluateDepCorpus stops there, cancelled.
    DepDecoder decoder(const std::atomic<bool>* cancel = nullptr) const;

  private:
    std::vector<ArcMask> masks(const DepSentence& s, DepSentenceFeatures& f, long* pushes) const;

    const DepModel* model_;
    std::vector<ArcPruningStage> stages_;
};

} // namespace prunescope
