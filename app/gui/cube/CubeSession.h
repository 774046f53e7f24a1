#pragma once
// The state behind the cube explorer window, without Qt: a model's weights (a working copy the
// user can update), sentences with gold trees, the beam and the update strategy; for the current
// sentence, the cube-pruned chart, the gold derivation in it and the strategy's choice (core/cube).
// "Apply update" performs one perceptron step of the chosen strategy on the working weights and
// re-parses, so the user can step through training on one sentence and watch the violations move.
#include "core/cube/CubeExplain.h"
#include "core/cube/CubeModel.h"

#include <memory>
#include <optional>
#include <vector>

namespace prunescope::gui {

class CubeSession {
  public:
    // The model (its weights become the working weights) and the sentences (gold trees needed for
    // the gold view; sentences without trees are parsed only).
    void setModel(std::shared_ptr<const CubeModel> model);
    void setSentences(std::vector<DepSentence> sentences);
    bool ready() const { return model_ && !sentences_.empty(); }
    const CubeModel* model() const { return model_.get(); }
    const std::vector<DepSentence>& sentences() const { return sentences_; }

    void select(int index); // clamps; re-parses
    void setBeam(int k);    // re-parses
    void setStrategy(CubeUpdateStrategy s);
    int index() const { return index_; }
    int beam() const { return beam_; }
    CubeUpdateStrategy strategy() const { return strategy_; }
    const DepSentence& sentence() const { return sentences_[static_cast<std::size_t>(index_)]; }

    // The current analysis (valid when ready()).
    const CubeChart& chart() const { return pruner_->chart(); }
    const CubeParse& parse() const { return parse_; }
    const CubeScorer& scorer() const { return *scorer_; }
    const GoldDerivation& gold() const { return gold_; }
    const CubeUpdateChoice& choice() const { return choice_; }
    CubeUpdatePairs pairs() const; // of the current choice
    CubePartsDelta delta() const { return netParts(pairs()); }

    // One perceptron step of the strategy on the working weights, then a re-parse. Returns the
    // nodes updated and the summed violation of their subtree pairs before and after (the same
    // subtrees re-scored with the new weights); nothing if the strategy does not update here.
    struct StepResult {
        std::vector<CubeCell> cells;
        double before = 0, after = 0;
        CubePartsDelta delta;
    };
    std::optional<StepResult> applyUpdate();
    void resetWeights();
    int updatesApplied() const { return updates_; }
    const HashedWeights& weights() const { return weights_; }

  private:
    void reparse();

    std::shared_ptr<const CubeModel> model_;
    HashedWeights weights_;
    std::vector<DepSentence> sentences_;
    int index_ = 0, beam_ = 4, updates_ = 0;
    CubeUpdateStrategy strategy_ = CubeUpdateStrategy::PMax;
    std::unique_ptr<CubePruner> pruner_;
    std::unique_ptr<CubeScorer> scorer_;
    CubeParse parse_;
    GoldDerivation gold_;
    CubeUpdateChoice choice_;
};

} // namespace prunescope::gui
