// The arc filter's explanation (core/filters/FilterExplanation.h) on real dev sentences: its mask
// is the "filter" stage's, each arc's max event is the arg max of its listed Z_a scores and its
// margin their max minus None's, detected roles follow the definition, and coverage/reduction are
// counts.
#include "core/dep/DepPipeline.h"
#include "core/dep/DepReader.h"
#include "core/filters/FilterExplanation.h"
#include "core/filters/FilterStage.h"
#include "core/filters/FilterTrainingData.h"
#include "core/filters/IndependentTraining.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

using namespace prunescope;

class TestFilterExplanation : public QObject {
    Q_OBJECT
    std::vector<DepSentence> train_, held_;
    ArcFilter filter_;

  private slots:
    void initTestCase() {
        const auto dev = readDepTreebank(testdata::depDir("dev"));
        for (const auto& s : dev) {
            if (s.size() > 25) continue;
            (train_.size() < 40 ? train_ : held_).push_back(s);
            if (held_.size() >= 10) break;
        }
        QCOMPARE(static_cast<int>(held_.size()), 10);
        IndependentFilterOptions o;
        o.hashBits = 14;
        filter_ = trainIndependentFilter(prepareFilterTraining(train_), o);
        filter_.threshold = 0;
    }

    void explanationMatchesTheStageAndTheDefinition() {
        long filteredTotal = 0;
        for (const auto& s : held_) {
            const int n = s.size();
            const ArcFilterExplanation e = explainArcFilter(filter_, s);
            // the mask is the pipeline stage's
            DepSentenceFeatures features(s);
            const StageResult st = arcFilterStage(std::make_shared<const ArcFilter>(filter_))
                                       .prune(s, ArcMask::allKeep(n), features);
            QVERIFY(e.mask.bits == st.mask.bits);
            const ArcFilterScorer sc(filter_, s);
            long filtered = 0, goldKept = 0;
            for (int h = 0; h <= n; ++h)
                for (int m = 1; m <= n; ++m) {
                    if (h == m) continue;
                    const auto ev = arcFilterEventScores(filter_, sc, h, m);
                    QVERIFY(!ev.empty());
                    QCOMPARE(ev.back().first.kind, FilterEventKind::None);
                    float best = -std::numeric_limits<float>::infinity();
                    for (std::size_t i = 0; i + 1 < ev.size(); ++i)
                        best = std::max(best, ev[i].second);
                    QCOMPARE(e.margin[e.idx(h, m)], best - ev.back().second);
                    // the max event is listed and has the max score
                    bool listed = false;
                    for (std::size_t i = 0; i + 1 < ev.size(); ++i)
                        if (ev[i].first == e.maxEventAt(h, m)) listed = ev[i].second == best;
                    QVERIFY2(listed, qPrintable(QString::fromStdString(e.maxEventAt(h, m).name())));
                    const bool f = static_cast<double>(best - ev.back().second) > filter_.threshold;
                    QCOMPARE(e.isFiltered(h, m), f);
                    filtered += f;
                    if (s.heads[static_cast<std::size_t>(m)] == h && !f) ++goldKept;
                }
            QCOMPARE(e.filtered, filtered);
            QCOMPARE(e.totalArcs, static_cast<long>(n) * n);
            QCOMPARE(e.goldArcs, static_cast<long>(n));
            QCOMPARE(e.goldKept, goldKept);
            filteredTotal += filtered;
            // every detected role filters an arc on its own, and an undetected one none
            for (int t = 1; t <= n; ++t)
                for (int r = 0; r < kTokenRoleCount; ++r) {
                    const auto kind = static_cast<FilterEventKind>(r);
                    bool fires = false;
                    for (int h = 0; h <= n; ++h)
                        for (int m = 1; m <= n; ++m)
                            if (h != m && roleFilters(kind, t, h, m) &&
                                static_cast<double>(sc.role(kind, t)) -
                                        static_cast<double>(sc.none(h, m)) >
                                    filter_.threshold)
                                fires = true;
                    const auto& roles = e.roles[static_cast<std::size_t>(t)];
                    QCOMPARE(std::find(roles.begin(), roles.end(), kind) != roles.end(), fires);
                }
        }
        QVERIFY(filteredTotal > 0); // the trained filter filters something
    }

    void infiniteThresholdFiltersNothing() {
        const auto e = explainArcFilter(filter_, held_[0], std::numeric_limits<double>::infinity());
        QCOMPARE(e.filtered, 0L);
        QCOMPARE(e.goldKept, e.goldArcs);
        for (int t = 1; t <= e.n; ++t)
            QVERIFY(e.roles[static_cast<std::size_t>(t)].empty());
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestFilterExplanation)
#include "test_filter_explanation.moc"
