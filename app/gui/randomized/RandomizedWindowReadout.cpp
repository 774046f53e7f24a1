// The randomized-pruning window's readout and maps (RandomizedWindow.h): the numbers of the current
// chain state (Bouchard-Côté, Petrov & Klein 2009: the sampled mask's pushes against the exact
// parse's, the span-marginal estimate's error) and the two heat maps with their tooltips.
#include "app/gui/randomized/RandomizedWindow.h"

#include <QComboBox>
#include <QLabel>

#include <algorithm>
#include <cmath>

namespace prunescope::gui {

namespace {
QString millions(double v) {
    return QString::number(v / 1e6, 'f', v < 1e5 ? 3 : 2) + " M";
}
} // namespace

QString RandomizedWindow::readoutText() const {
    const ChainSnapshot& s = snap_;
    if (s.n == 0 || s.noDerivation) return tr("No chain.");
    const double exact = std::max<long>(s.exactPushes, 1);
    int positive = 0;
    for (const auto& [i, k] : s.selected)
        positive +=
            s.maskTree.empty() ? 0 : s.maskTree[static_cast<std::size_t>(i) * (s.n + 1) + k];
    QString t = tr("Iteration <b>%1</b> · total pushes %2 = <b>%3 × exact</b> (start %4")
                    .arg(s.iteration)
                    .arg(millions(static_cast<double>(s.pushes)))
                    .arg(s.pushes / exact, 0, 'f', 3)
                    .arg(millions(static_cast<double>(s.initPushes)));
    if (s.iteration > 0)
        t += tr("; this iteration %1 × exact").arg(s.iterationPushes / exact, 0, 'f', 3);
    t += ")<br>";
    if (s.iteration > 0)
        t += tr("Mask keeps %1 of %2 prunable spans · |s| = %3 of |M′| = %4 (%5 constituents of a, "
                "%6 not)<br>")
                 .arg(s.spansKept)
                 .arg(s.prunable)
                 .arg(s.selected.size())
                 .arg(s.support)
                 .arg(positive)
                 .arg(static_cast<int>(s.selected.size()) - positive);
    if (s.iteration > 0)
        t += tr("Span L1 to exact: <b>%1</b> (this mask alone %2) · span KL %3 · rule-count L1 "
                "%4<br>")
                 .arg(s.spanL1, 0, 'f', 3)
                 .arg(s.maskSpanL1, 0, 'f', 3)
                 .arg(s.spanKL, 0, 'f', 4)
                 .arg(s.ruleL1, 0, 'f', 3);
    else
        t += tr("|M′| = %1 of %2 prunable spans. No iteration yet.<br>")
                 .arg(s.support)
                 .arg(s.prunable);
    if (std::isfinite(s.fixedSpanL1))
        t += tr("The policy's fixed mask: span L1 %1 at %2 × exact pushes.")
                 .arg(s.fixedSpanL1, 0, 'f', 3)
                 .arg(s.fixedPushes / exact, 0, 'f', 3);
    return t;
}

void RandomizedWindow::setEstimateView(int view) {
    estimateView_ = std::clamp(view, 0, 2);
    if (view_->currentIndex() != estimateView_) view_->setCurrentIndex(estimateView_);
    refreshMaps();
}

void RandomizedWindow::refreshMaps() {
    const ChainSnapshot& s = snap_;
    const int n = maskMap_->length();
    if (n == 0 || s.n != n) {
        maskMap_->setCells({});
        estimateMap_->setCells({});
        return;
    }
    std::vector<widgets::HeatCell> left(static_cast<std::size_t>(n + 1) * (n + 1)),
        right(left.size());
    std::vector<std::uint8_t> sel(left.size(), 0);
    for (const auto& [i, k] : s.selected)
        sel[static_cast<std::size_t>(i) * (n + 1) + k] = 1;
    for (int i = 0; i < n; ++i)
        for (int k = i + 1; k <= n; ++k) {
            const std::size_t q = static_cast<std::size_t>(i) * (n + 1) + k;
            auto& L = left[q];
            L.kept = s.mask.n == n ? s.mask.keep(i, k) : true;
            L.value = static_cast<float>(s.iteration > 0 ? s.at(s.maskPosterior, i, k)
                                                         : ChainSnapshot::kNaN);
            L.gold = sel[q];
            L.best = !s.maskTree.empty() && s.maskTree[q];
            auto& R = right[q];
            const double est = s.at(s.estimate, i, k), ex = s.at(s.exact, i, k);
            R.value = static_cast<float>(estimateView_ == 0   ? est
                                         : estimateView_ == 1 ? ex
                                                              : std::abs(est - ex));
            R.best = ex >= 0.5 && PruningMask::prunable(n, i, k);
            R.gold = !s.tree.empty() && s.tree[q];
        }
    maskMap_->setCells(std::move(left));
    maskMap_->setScale(0, 1, tr("E_m[span]"), 2);
    estimateMap_->setCells(std::move(right));
    estimateMap_->setScale(0, 1, estimateView_ == 2 ? tr("|estimate − exact|") : tr("P(span)"), 2);
}

QString RandomizedWindow::cellTooltip(int i, int k, bool estimateSide) const {
    const ChainSnapshot& s = snap_;
    if (s.n == 0 || k > s.n) return {};
    const std::size_t q = static_cast<std::size_t>(i) * (s.n + 1) + k;
    QString t = tr("span (%1,%2)").arg(i).arg(k);
    if (!PruningMask::prunable(s.n, i, k))
        return t + tr(": never pruned (width 1 or the whole sentence)");
    const bool inTree = !s.maskTree.empty() && s.maskTree[q];
    bool selected = false;
    for (const auto& sp : s.selected)
        selected |= sp == std::make_pair(i, k);
    if (!estimateSide) {
        t += selected ? tr("\nselected: a = %1").arg(inTree ? "+ (required)" : "− (forbidden)")
                      : tr("\nexcluded (resampled with the tree)");
        if (s.mask.n == s.n && !s.mask.keep(i, k)) {
            if (selected && !inTree)
                t += tr("\npruned: selected and not a constituent of a");
            else
                for (const auto& [a, b] : s.selected)
                    if (s.maskTree[static_cast<std::size_t>(a) * (s.n + 1) + b] &&
                        spansCross(i, k, a, b)) {
                        t += tr("\npruned: crosses the selected constituent (%1,%2)").arg(a).arg(b);
                        break;
                    }
        }
        t += tr("\nposterior under this mask %1").arg(s.at(s.maskPosterior, i, k), 0, 'f', 4);
    }
    t += tr("\nrunning estimate %1 · exact %2")
             .arg(s.at(s.estimate, i, k), 0, 'f', 4)
             .arg(s.at(s.exact, i, k), 0, 'f', 4);
    return t;
}

} // namespace prunescope::gui
