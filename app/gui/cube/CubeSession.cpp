// State of the cube explorer (CubeSession.h).
#include "app/gui/cube/CubeSession.h"

#include "core/cube/CubeTraining.h"

#include <algorithm>

namespace prunescope::gui {

void CubeSession::setModel(std::shared_ptr<const CubeModel> model) {
    model_ = std::move(model);
    weights_ = model_ ? model_->weights : HashedWeights{};
    updates_ = 0;
    if (model_) beam_ = model_->beam;
    reparse();
}

void CubeSession::setSentences(std::vector<DepSentence> sentences) {
    sentences_ = std::move(sentences);
    index_ = 0;
    reparse();
}

void CubeSession::select(int index) {
    if (sentences_.empty()) return;
    index_ = std::clamp(index, 0, static_cast<int>(sentences_.size()) - 1);
    reparse();
}

void CubeSession::setBeam(int k) {
    beam_ = std::max(1, k);
    reparse();
}

void CubeSession::setStrategy(CubeUpdateStrategy s) {
    strategy_ = s;
    choice_ = chooseCubeUpdate(gold_, strategy_);
}

void CubeSession::reparse() {
    if (!ready()) return;
    CubeOptions o;
    o.beam = beam_;
    o.singleRoot = model_->singleRoot;
    pruner_ = std::make_unique<CubePruner>(o);
    const DepSentence& s = sentence();
    scorer_ = std::make_unique<CubeScorer>(weights_, s, model_->features);
    parse_ = pruner_->parse(*scorer_);
    gold_ = s.hasTree() ? goldDerivation(*pruner_, *scorer_, s.heads)
                        : GoldDerivation{{}, "the sentence has no gold tree"};
    choice_ = chooseCubeUpdate(gold_, strategy_);
}

CubeUpdatePairs CubeSession::pairs() const {
    if (!ready() || !gold_.reachable()) return {};
    return cubeUpdatePairs(chart(), *scorer_, gold_, choice_.nodes);
}

std::optional<CubeSession::StepResult> CubeSession::applyUpdate() {
    if (!ready() || !choice_.update) return std::nullopt;
    StepResult r;
    const CubeUpdatePairs p = pairs();
    for (int n : choice_.nodes)
        r.cells.push_back(gold_.nodes[static_cast<std::size_t>(n)].cell);
    r.before = scorer_->partsScore(p.viterbiParts) - scorer_->partsScore(p.goldParts);
    r.delta = netParts(p);
    applyCubeUpdate(weights_, p);
    ++updates_;
    reparse();
    r.after = scorer_->partsScore(p.viterbiParts) - scorer_->partsScore(p.goldParts);
    return r;
}

void CubeSession::resetWeights() {
    if (!model_) return;
    weights_ = model_->weights;
    updates_ = 0;
    reparse();
}

} // namespace prunescope::gui
