// The randomized-pruning window's worker-side state (see RandomizedChain.h).
#include "app/gui/randomized/RandomizedChain.h"

#include "core/mcmc/FigureOfMerit.h"
#include "core/policy/PolicyMask.h"
#include "core/policy/SpanFeatures.h"

namespace prunescope::gui {

ChainSnapshot RandomizedChain::prepare(const RandomizedSentence& s, const RandomizedOptions& opt,
                                       const Progress& progress) {
    chain_.reset();
    sentence_ = s;
    const auto& g = *s.grammar;
    const int n = static_cast<int>(s.words.size());
    PrunedInsideOutside io(g);
    progress.begin("exact inside-outside", 1);
    const auto st = io.inside(s.words, PruningMask::allKeep(n), progress);
    exactPushes_ = st.pushes;
    if (!st.success) {
        ChainSnapshot snap;
        snap.n = n;
        snap.noDerivation = true;
        return snap;
    }
    io.outside(exact_);
    progress.advance();
    std::vector<double> fom(static_cast<std::size_t>(n + 1) * (n + 1), 1.0);
    fixedL1_ = ChainSnapshot::kNaN;
    fixedPushes_ = 0;
    if (s.policy) {
        fom = policyFigureOfMerit(*s.policy, s.words);
        const auto fs =
            io.inside(s.words, policyMask(*s.policy, SentenceFeatures(s.words)), progress);
        Expectations fixed;
        io.outside(fixed);
        fixedPushes_ = fs.pushes;
        fixedL1_ = spanL1(fixed, exact_);
    }
    support_ = static_cast<int>(supportOf(n, fom, opt.supportThreshold).size());
    chain_ = std::make_unique<RandomizedPruning>(g);
    chain_->start(s.words, fom, opt);
    maskTree_ = chain_->assignment();
    lastPushes_ = 0;
    return snapshot();
}

ChainSnapshot RandomizedChain::step(int count, const Progress& progress) {
    for (int t = 0; t < count; ++t) {
        progress.throwIfCancelled();
        maskTree_ = chain_->assignment(); // the tree the next mask is built from
        lastPushes_ = chain_->step(progress).pushes;
    }
    return snapshot();
}

ChainSnapshot RandomizedChain::snapshot() const {
    ChainSnapshot s;
    const RandomizedPruning& c = *chain_;
    s.n = c.length();
    s.iteration = c.iterations();
    s.pushes = c.pushes();
    s.initPushes = c.initPushes();
    s.exactPushes = exactPushes_;
    s.prunable = PruningMask::prunableCount(s.n);
    s.support = support_;
    s.selected = c.iterations() > 0 ? c.selection().selected() : SpanList{};
    s.maskTree = maskTree_;
    s.tree = c.assignment();
    s.mask = c.mask();
    s.spansKept = s.mask.keptCount();
    s.exact = exact_.span;
    s.fixedSpanL1 = fixedL1_;
    s.fixedPushes = fixedPushes_;
    if (c.iterations() > 0) {
        const Expectations est = c.estimate();
        s.estimate = est.span;
        s.maskPosterior = c.lastExpectations().span;
        s.spanL1 = spanL1(est, exact_);
        s.spanKL = spanKL(est, exact_);
        s.ruleL1 = ruleL1(est, exact_);
        s.maskSpanL1 = spanL1(c.lastExpectations(), exact_);
        s.iterationPushes = lastPushes_;
    }
    return s;
}

} // namespace prunescope::gui
