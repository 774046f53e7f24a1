// Randomized pruning, Alg. 1 of Bouchard-Côté, Petrov & Klein (2009) (see RandomizedPruning.h).
#include "core/mcmc/RandomizedPruning.h"

#include "core/mcmc/FigureOfMerit.h"

#include <cmath>
#include <stdexcept>

namespace prunescope {

void validateRandomizedOptions(const RandomizedOptions& opt) {
    SelectionChain(opt.selection, {}, opt.selectionFraction); // throws for a bad fraction
    if (std::isnan(opt.supportThreshold))
        throw std::invalid_argument("the support threshold is not a number");
}

RandomizedPruning::RandomizedPruning(const Grammar& g) : g_(&g), io_(g) {}

void RandomizedPruning::start(std::span<const std::string> words, const std::vector<double>& fom,
                              const RandomizedOptions& opt, std::uint64_t streamA,
                              std::uint64_t streamB) {
    validateRandomizedOptions(opt);
    const int n = static_cast<int>(words.size());
    words_.assign(words.begin(), words.end());
    const SpanList support = supportOf(n, fom, opt.supportThreshold);
    rng_ = SplitMix64(opt.seed, streamA, streamB);
    // The start state ("a, s <- random initialization"): a tree drawn from the chart pruned to the
    // support M' (a cheap pass), or from the unpruned chart if that mask leaves no derivation.
    PrunedInsideStats st = io_.inside(words_, thresholdMask(n, fom, opt.supportThreshold));
    initPushes_ = st.pushes;
    if (!st.success) {
        st = io_.inside(words_, PruningMask::allKeep(n));
        initPushes_ += st.pushes;
        if (!st.success) throw NoDerivation();
    }
    tree_ = io_.sample(rng_);
    a_ = assignmentOf(tree_);
    chain_ = SelectionChain(opt.selection, support, opt.selectionFraction);
    chain_.initialize(rng_);
    mask_ = PruningMask::allKeep(n);
    sum_.reset(*g_, words_);
    last_.reset(*g_, words_);
    iterations_ = 0;
    iterationPushes_ = 0;
}

ChainIteration RandomizedPruning::step(const Progress& progress) {
    if (words_.empty()) throw std::logic_error("RandomizedPruning::step before start");
    chain_.next(rng_);
    const int n = length();
    mask_ = createMask(n, chain_.selected(), a_);
    ChainIteration it;
    for (const auto& [i, k] : chain_.selected())
        it.selectedPositive += a_[static_cast<std::size_t>(i) * (n + 1) + k];
    const PrunedInsideStats st = io_.inside(words_, mask_, progress);
    // The current tree satisfies every selected constraint, so Z_m > 0.
    if (!st.success) throw std::logic_error("randomized pruning: the mask lost the current tree");
    io_.outside(last_);
    sum_.addScaled(last_, 1.0);
    tree_ = io_.sample(rng_);
    a_ = assignmentOf(tree_);
    ++iterations_;
    iterationPushes_ += st.pushes;
    it.iteration = iterations_;
    it.pushes = st.pushes;
    it.spansKept = st.spansKept;
    it.selected = static_cast<int>(chain_.selected().size());
    it.logZ = st.logZ;
    return it;
}

void RandomizedPruning::run(int iterations, const Progress& progress) {
    progress.begin("MCMC iterations", iterations);
    for (int t = 0; t < iterations; ++t) {
        progress.throwIfCancelled();
        step(progress);
        progress.advance();
    }
}

void RandomizedPruning::estimateInto(Expectations& out) const {
    out = sum_;
    if (iterations_ == 0) return;
    const double inv = 1.0 / iterations_;
    for (auto* v : {&out.span, &out.binary, &out.unary, &out.root, &out.lexical})
        for (double& x : *v)
            x *= inv;
    out.logZ = last_.logZ; // not an average: the last mask's
}

Expectations RandomizedPruning::estimate() const {
    Expectations e;
    estimateInto(e);
    return e;
}

} // namespace prunescope
