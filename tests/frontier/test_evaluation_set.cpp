// Evaluation sets of frontier points (Vieira & Eisner 2017, sec. 7): keys that tell comparable
// points apart, old files without sentence counts, LOLS run configs, and
// the bundled frontier.
#include "core/frontier/EvaluationSet.h"
#include "core/frontier/FrontierFile.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <filesystem>

using namespace prunescope;
using nlohmann::json;

class TestEvaluationSet : public QObject {
    Q_OBJECT
  private slots:
    void keyUsesTreebankTailLengthAndCount() {
        const EvaluationSet a = evaluationSetFromJson(
            {{"treebank", "../shared/data/ptb-sample/dev"}, {"maxLength", 40}},
            {{"sentences", 300}});
        QCOMPARE(a.key(), std::string("ptb-sample/dev:40:300"));
        // The same data written from another working directory (absolute path, trailing slash).
        const EvaluationSet b =
            evaluationSetFromJson({{"treebank", "/work/shared/data/ptb-sample/dev/"},
                                   {"maxLength", 40},
                                   {"sentences", 300}});
        QCOMPARE(b.key(), a.key());
        // A run's dev subset differs by length and by count.
        const EvaluationSet c =
            lolsDevEvaluationSet({{"dev", "../shared/data/ptb-sample/dev"}, {"maxLength", 20}}, 20);
        QCOMPARE(c.key(), std::string("ptb-sample/dev:20:20"));
        QVERIFY(c.key() != a.key());
        QCOMPARE(c.label(), std::string("ptb-sample/dev, <= 20 words, 20 sentences"));
        // Same treebank and length, another count: still another set.
        QVERIFY(lolsDevEvaluationSet({{"dev", "x/ptb-sample/dev"}, {"maxLength", 40}}, 299).key() !=
                a.key());
        QCOMPARE(lolsDevEvaluationSet({{"dev", "x/ptb-sample/dev"}, {"maxLength", 40}}, 300).key(),
                 a.key());
        // No length limit and no count.
        QCOMPARE(evaluationSetFromJson({{"treebank", "dev.mrg"}, {"maxLength", 0}}).key(),
                 std::string("dev.mrg:all:?"));
    }
    void unknownWhenNotRecorded() {
        const EvaluationSet u = evaluationSetFromJson(json::object(), {{"sentences", 12}});
        QVERIFY(!u.known());
        QCOMPARE(u.key(), std::string("unknown"));
        QCOMPARE(u.label(), std::string("unknown evaluation set"));
        // Wrong types count as absent, never as a crash.
        QCOMPARE(evaluationSetFromJson({{"treebank", 3}, {"maxLength", "x"}}).key(),
                 std::string("unknown"));
    }
    void frontierPointsUseTheFileSet() {
        FrontierData d;
        d.evaluation = {{"split", "dev"}, {"treebank", "data/ptb-sample/dev"}, {"maxLength", 40}};
        FrontierEntry old; // an old file: the count only in the point's metrics
        old.metrics = {{"sentences", 300}};
        QCOMPARE(frontierEntryEvaluationSet(d, old).key(), std::string("ptb-sample/dev:40:300"));
        d.evaluation["sentences"] = 250; // the file's own count wins over the metrics
        QCOMPARE(frontierEntryEvaluationSet(d, old).key(), std::string("ptb-sample/dev:40:250"));
        d.evaluation.erase("sentences");
        d.unpruned = {{"sentences", 300}};
        QCOMPARE(frontierUnprunedEvaluationSet(d).key(), std::string("ptb-sample/dev:40:300"));
        d.evaluation = nlohmann::json::object(); // no "evaluation" recorded at all
        QCOMPARE(frontierEntryEvaluationSet(d, old).key(), std::string("unknown"));
    }
    void countsMostPointsFirst() {
        const std::vector<EvaluationSet> sets = {
            lolsDevEvaluationSet({{"dev", "a/dev"}, {"maxLength", 20}}, 20),
            lolsDevEvaluationSet({{"dev", "a/dev"}, {"maxLength", 40}}, 300),
            lolsDevEvaluationSet({{"dev", "a/dev"}, {"maxLength", 40}}, 300),
            lolsDevEvaluationSet({{"dev", "a/dev"}, {"maxLength", 20}}, 20),
            lolsDevEvaluationSet({{"dev", "a/dev"}, {"maxLength", 40}}, 300),
            EvaluationSet{}};
        const auto c = countEvaluationSets(sets);
        QCOMPARE(c.size(), std::size_t(3));
        QCOMPARE(c[0].set.key(), std::string("a/dev:40:300"));
        QCOMPARE(c[0].points, 3);
        QCOMPARE(c[1].set.key(), std::string("a/dev:20:20"));
        QCOMPARE(c[1].points, 2);
        QCOMPARE(c[2].set.key(), std::string("unknown"));
        QCOMPARE(c[2].points, 1);
    }
    void bundledFrontierIsOneSet() {
        // The shipped frontier (an old file: "sentences" only in each point's metrics).
        const std::string path = testdata::sourceDir() + "/samples/policies/frontier.json";
        const FrontierData d = loadFrontier(path);
        QVERIFY(!d.points.empty());
        for (const auto& e : d.points)
            QCOMPARE(frontierEntryEvaluationSet(d, e).key(), std::string("ptb-sample/dev:40:300"));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestEvaluationSet)
#include "test_evaluation_set.moc"
