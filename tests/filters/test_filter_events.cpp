// Filtering events (core/filters, Cherry & Bergsma 2011 sec. 2-3): Z_a on the paper's Figure 1
// sentence, the role truth values printed there, every role filters no gold arc exactly when it
// holds, and the O(n^2) arc maximum equals the max over the naive Z_a on random sentences.
#include "core/filters/ArcFilter.h"
#include "core/filters/TokenRoleEvents.h"
#include "core/util/Random.h"

#include "support/TestSuite.h"

#include <algorithm>
#include <set>

using namespace prunescope;

namespace {
// Figure 1: "Bob ate the pizza with his salad fork" (the paper's own example sentence), gold tree
// Bob <- ate (root), the <- pizza <- ate, with <- ate, his <- fork, salad <- fork, fork <- with.
DepSentence figure1() {
    DepSentence s = makeDepSentence({"Bob", "ate", "the", "pizza", "with", "his", "salad", "fork"},
                                    {"NNP", "VBD", "DT", "NN", "IN", "PRP$", "NN", "NN"});
    s.heads = {-1, 2, 0, 4, 2, 2, 8, 8, 5};
    return s;
}
std::set<std::string> names(const std::vector<FilterEvent>& z) {
    std::set<std::string> s;
    for (const auto& e : z)
        s.insert(e.name());
    return s;
}
DepSentence randomSentence(int n, SplitMix64& rng) {
    std::vector<std::string> w, t;
    const char* tags[] = {"DT", "NN", "VBD", "IN", "JJ", "NNS", ",", "RB"};
    for (int i = 0; i < n; ++i) {
        w.push_back("w" + std::to_string(rng.below(20)));
        t.push_back(tags[rng.below(8)]);
    }
    return makeDepSentence(w, t);
}
} // namespace

class TestFilterEvents : public QObject {
    Q_OBJECT
  private slots:
    void figure1TokenRoleEvents() {
        // Z_{the3 -> his6} = {NaH3, HtR*6, HtR56, HtR16, HtL16} among the token roles the figure
        // draws
        const auto z = filteringEvents(8, 3, 6, /*withRoot=*/false, /*withVine=*/false);
        QCOMPARE(names(z), (std::set<std::string>{"NaH3", "HtR*6", "HtR56", "HtR16", "HtL16"}));
    }
    void figure1WithRootAndVine() {
        // Root (not drawn in Figure 1) adds "his6 is the root" and the projectivity events of the
        // spanned tokens 4, 5; sec. 3 adds Vine_a (docs/filters.md).
        const auto z = filteringEvents(8, 3, 6);
        QCOMPARE(names(z), (std::set<std::string>{"NaH3", "HtR*6", "HtR56", "HtR16", "HtL16",
                                                  "Root4", "Root5", "Root6", "Vine(3,6)"}));
    }
    void figure1TruthValues() {
        const DepSentence s = figure1();
        QVERIFY(s.hasTree());
        const TokenRoleEvents e = tokenRoleEvents(s.heads);
        // (T) NaH3, (T) HtR*6, (T) HtR56, (F) HtR16, (F) HtL16 as printed in the figure
        QVERIFY(e.holds(FilterEventKind::NaH, 3));
        QVERIFY(e.holds(FilterEventKind::HtRStar, 6));
        QVERIFY(e.holds(FilterEventKind::HtR5, 6));
        QVERIFY(!e.holds(FilterEventKind::HtR1, 6));
        QVERIFY(!e.holds(FilterEventKind::HtL1, 6));
        QVERIFY(e.holds(FilterEventKind::Root, 2));
        QVERIFY(!e.holds(FilterEventKind::Root, 4));
        QVERIFY(!e.holds(FilterEventKind::NaH, 2));
        QVERIFY(e.holds(FilterEventKind::HtL1, 4) == false && e.holds(FilterEventKind::HtR1, 3));
    }
    void trueRolesNeverFilterGoldArcs() {
        const DepSentence s = figure1();
        const TokenRoleEvents e = tokenRoleEvents(s.heads);
        for (int t = 1; t <= 8; ++t)
            for (int r = 0; r < kTokenRoleCount; ++r) {
                bool filtersGold = false;
                for (int m = 1; m <= 8; ++m)
                    filtersGold |= roleFilters(static_cast<FilterEventKind>(r), t,
                                               s.heads[static_cast<std::size_t>(m)], m);
                QCOMPARE(e.holds(static_cast<FilterEventKind>(r), t), !filtersGold);
            }
    }
    void everyArcHasAnEvent() {
        for (int n = 1; n <= 6; ++n)
            for (int h = 0; h <= n; ++h)
                for (int m = 1; m <= n; ++m)
                    if (h != m) QVERIFY(!filteringEvents(n, h, m, false, false).empty());
    }
    void fastMaxEqualsNaiveMax() {
        SplitMix64 rng(7);
        for (int trial = 0; trial < 40; ++trial) {
            ArcFilter f = ArcFilter::zeros(ArcFilterKind::Joint, 12);
            f.useRoot = trial % 3 != 0;
            f.useVine = trial % 2 == 0;
            f.useNone = trial % 4 != 1;
            for (float& w : f.weights)
                w = static_cast<float>(rng.uniform() * 2 - 1);
            const DepSentence s = randomSentence(1 + static_cast<int>(rng.below(14)), rng);
            const ArcFilterScorer sc(f, s);
            for (int h = 0; h <= s.size(); ++h)
                for (int m = 1; m <= s.size(); ++m) {
                    if (h == m) continue;
                    FilterEvent best;
                    const float fast = sc.margin(h, m, &best);
                    QCOMPARE(fast, naiveMargin(sc, f, h, m));
                    // the arg max is in Z_a and scores the max
                    const auto z = filteringEvents(s.size(), h, m, f.useRoot, f.useVine);
                    QVERIFY(std::find(z.begin(), z.end(), best) != z.end());
                    QCOMPARE(sc.score(best) - sc.none(h, m), fast);
                }
        }
    }
    void maskKeepsArcsAtOrBelowThreshold() {
        SplitMix64 rng(3);
        ArcFilter f = ArcFilter::zeros(ArcFilterKind::Joint, 12);
        for (float& w : f.weights)
            w = static_cast<float>(rng.uniform() - 0.5);
        const DepSentence s = randomSentence(9, rng);
        const ArcFilterScorer sc(f, s);
        QCOMPARE(sc.mask(std::numeric_limits<double>::infinity()).keptCount(),
                 ArcMask::totalArcs(9));
        const ArcMask m0 = sc.mask(0.0);
        for (int h = 0; h <= 9; ++h)
            for (int m = 1; m <= 9; ++m)
                if (h != m) QCOMPARE(m0.keep(h, m), sc.margin(h, m) <= 0.0f);
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestFilterEvents)
#include "test_filter_events.moc"
