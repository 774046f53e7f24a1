// Training arc filters on real data (core/filters, Cherry & Bergsma 2011 sec. 2-4): the latent
// SVM's objective (2) never increases over alternations; a cancel stops within 1 s and keeps the
// finished alternations; the independent SVMs learn something; the operating point reaches its
// coverage; at threshold +inf the filter keeps every arc and the parse equals the unfiltered one.
#include "core/dep/DepPipeline.h"
#include "core/dep/DepReader.h"
#include "core/dep/DepTraining.h"
#include "core/filters/FilterEval.h"
#include "core/filters/FilterStage.h"
#include "core/filters/IndependentTraining.h"
#include "core/filters/LatentSvmTraining.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <chrono>

using namespace prunescope;

namespace {
std::vector<DepSentence> slice(const std::vector<DepSentence>& v, std::size_t from,
                               std::size_t count) {
    std::vector<DepSentence> out;
    for (std::size_t i = from; i < v.size() && out.size() < count; ++i)
        if (v[i].size() <= 30) out.push_back(v[i]);
    return out;
}
} // namespace

class TestFilterTraining : public QObject {
    Q_OBJECT
    std::vector<DepSentence> train_, held_;
    FilterTrainingData data_;
    ArcFilter independent_;
    IndependentFilterOptions indOpt_;
    JointFilterOptions jointOpt_;

  private slots:
    void initTestCase() {
        const auto dev = readDepTreebank(testdata::depDir("dev"));
        train_ = slice(dev, 0, 80);
        held_ = slice(dev, 150, 40);
        QVERIFY(train_.size() == 80 && held_.size() == 40);
        data_ = prepareFilterTraining(train_);
        indOpt_.hashBits = 16;
        indOpt_.useVine = false;
        independent_ = trainIndependentFilter(data_, indOpt_);
        jointOpt_.hashBits = 16;
        jointOpt_.c0 = 1.0;
        jointOpt_.c1 = 0.01;
        jointOpt_.maxAlternations = 4;
        jointOpt_.solverIterations = 15;
        jointOpt_.convergence = 0; // run every alternation
    }

    void independentSvmsLearnRoles() {
        // NaH on training tokens: most true NaH tokens get a positive score, most heads a negative
        // one
        int agree = 0, total = 0;
        for (const auto& s : train_) {
            const ArcFilterScorer sc(independent_, s);
            for (int t = 1; t <= s.size(); ++t) {
                bool isHead = false;
                for (int m = 1; m <= s.size(); ++m)
                    isHead |= s.heads[static_cast<std::size_t>(m)] == t;
                agree += (sc.role(FilterEventKind::NaH, t) > 0) == !isHead;
                ++total;
            }
        }
        QVERIFY2(agree > 0.9 * total, qPrintable(QString("%1 of %2").arg(agree).arg(total)));
        QVERIFY(independent_.training["subclassifiers"].contains("NaH"));
        QVERIFY(!independent_.useNone);
    }

    void objectiveNeverIncreases() {
        const JointTrainResult r = trainJointFilter(data_, &independent_, jointOpt_);
        QVERIFY(!r.cancelled);
        QCOMPARE(r.alternations.size(), std::size_t(4));
        double prev = std::numeric_limits<double>::infinity();
        for (const auto& a : r.alternations) {
            QVERIFY2(a.objectiveAfter <= a.objectiveBefore,
                     qPrintable(QString::number(a.alternation)));
            QVERIFY(a.objectiveBefore <= prev);
            prev = a.objectiveAfter;
        }
        // it actually optimizes: the first step lowers (2) from the independent start
        QVERIFY(r.alternations.front().objectiveAfter <
                0.99 * r.alternations.front().objectiveBefore);
        // the reported objective is (2) at the returned (float) weights
        const double at = latentSvmObjective(data_, r.filter, jointOpt_);
        QVERIFY(std::abs(at - r.alternations.back().objectiveAfter) <= 1e-3 * std::abs(at) + 1e-6);
        // the joint filter beats the identical-start zero-threshold rule on its own objective
        QVERIFY(at < latentSvmObjective(data_, independent_, jointOpt_));
    }

    void cancelStopsWithinOneSecondAndKeepsAlternations() {
        std::chrono::steady_clock::time_point requested;
        Progress p([](const ProgressUpdate&) {});
        const auto cancelAfterFirst = [&](const JointTrainResult& r) {
            if (r.alternations.size() == 1) {
                requested = std::chrono::steady_clock::now();
                p.requestCancel();
            }
        };
        JointFilterOptions o = jointOpt_;
        o.maxAlternations = 10;
        const JointTrainResult r = trainJointFilter(data_, &independent_, o, p, cancelAfterFirst);
        const double waited =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - requested).count();
        QVERIFY(r.cancelled);
        QCOMPARE(r.alternations.size(), std::size_t(1));
        QVERIFY2(waited < 1.0, qPrintable(QString::number(waited)));
        // the kept filter is the first alternation's
        JointFilterOptions one = jointOpt_;
        one.maxAlternations = 1;
        const JointTrainResult ref = trainJointFilter(data_, &independent_, one);
        QCOMPARE(r.filter.weights, ref.filter.weights);
    }

    void operatingPointReachesCoverage() {
        const JointTrainResult r = trainJointFilter(data_, &independent_, jointOpt_);
        const FilterMargins m = collectMargins(r.filter, held_);
        for (const double target : {0.95, 0.99, 0.995, 1.0}) {
            const double th = thresholdForCoverage(m, target);
            const FilterCounts c = countsAt(m, th);
            QVERIFY(c.coverage() >= target - 1e-12);
            QVERIFY(c.reduction() > 0);
        }
        // the curve is monotone: more coverage, less reduction
        const auto curve = coverageCurve(m);
        for (std::size_t i = 1; i < curve.size(); ++i) {
            QVERIFY(curve[i].coverage >= curve[i - 1].coverage);
            QVERIFY(curve[i].reduction <= curve[i - 1].reduction);
        }
        const FilterCounts inf = countsAt(m, std::numeric_limits<double>::infinity());
        QCOMPARE(inf.coverage(), 1.0);
        QCOMPARE(inf.filtered, 0L);
    }

    void infiniteThresholdParsesLikeNoFilter() {
        DepTrainOptions t;
        t.order = 1;
        t.epochs = 1;
        t.hashBits = 18;
        const DepModel model = trainDepModel(train_, held_, t).model;
        JointFilterOptions o = jointOpt_;
        o.maxAlternations = 2;
        auto filter =
            std::make_shared<const ArcFilter>(trainJointFilter(data_, &independent_, o).filter);
        DepPipeline plain(model), filtered(model), tight(model);
        filtered.addStage(arcFilterStage(filter, std::numeric_limits<double>::infinity()));
        tight.addStage(arcFilterStage(filter, 0.0));
        EisnerParser p1, p2, p3;
        long tightKept = 0, all = 0;
        for (const auto& s : held_) {
            const auto a = plain.parse(s, p1);
            const auto b = filtered.parse(s, p2);
            QCOMPARE(b.heads, a.heads);
            QCOMPARE(b.arcsFinal, ArcMask::totalArcs(s.size()));
            const auto c = tight.parse(s, p3);
            tightKept += c.arcsFinal;
            all += ArcMask::totalArcs(s.size());
        }
        QVERIFY(tightKept < all); // a finite threshold does filter
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestFilterTraining)
#include "test_filter_training.moc"
