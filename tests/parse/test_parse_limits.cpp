// Strict mask files and the parser's memory budget (issue 19): integers that do not fit are errors
// at their line:column (4294967303 was read as 7), and a sentence that needs more memory than the
// budget is refused before anything is allocated, with a message that says how much it needs.
#include "core/eval/CorpusEvaluator.h"
#include "core/parse/Parser.h"
#include "core/parse/PruningMask.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/TreebankReader.h"
#include "core/util/Error.h"
#include "support/InputErrors.h"
#include "support/SharedGrammar.h"

#include "support/TestSuite.h"

using namespace prunescope;

namespace {

InputError maskError(const std::string& text) {
    return testdata::inputErrorOf([&] { masksFromJsonText(text, "m.json"); });
}

std::vector<std::string> words(int n) {
    std::vector<std::string> w;
    for (int i = 0; i < n; ++i)
        w.push_back(i % 7 == 6 ? "." : (i % 2 ? "the" : "dog"));
    return w;
}

} // namespace

class TestParseLimits : public QObject {
    Q_OBJECT
  private slots:
    void masksReadStrictly_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        QTest::newRow("n wraps") << "{\"n\": 4294967303}" << 1 << 7
                                 << "4294967303 is outside [0, 4095]";
        QTest::newRow("i wraps") << "[{\"n\": 7},\n {\"n\": 7, \"pruned\": [[4294967296, 2]]}]" << 2
                                 << 23 << "is outside [0, 7]";
        QTest::newRow("k float") << "{\"n\": 7, \"pruned\": [[0, 2.0]]}" << 1 << 25
                                 << "must be an integer";
        QTest::newRow("not prunable")
            << "{\"n\": 7,\n \"pruned\": [[0, 7]]}" << 2 << 13 << "not prunable";
        QTest::newRow("no n") << "{\"pruned\": []}" << 1 << 1 << "needs an integer field 'n'";
        QTest::newRow("bad json") << "{\"n\": 7,,}" << 1 << -1 << "invalid JSON";
        QTest::newRow("overflow") << "{\"n\": 1e999}" << 1 << 7 << "number overflow";
    }
    void masksReadStrictly() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        const InputError e = maskError(text.toStdString());
        QCOMPARE(e.file(), std::string("m.json"));
        QCOMPARE(e.line(), line);
        if (column > 0) QCOMPARE(e.column(), column);
        QVERIFY2(std::string(e.what()).find(message.toStdString()) != std::string::npos, e.what());
    }
    void goodMaskFile() {
        const auto m =
            masksFromJsonText("[{\"n\": 4, \"pruned\": [[1, 3]]}, {\"n\": 3}]", "ok.json");
        QCOMPARE(m.size(), std::size_t(2));
        QVERIFY(!m[0].keep(1, 3));
        QCOMPARE(m[1].keptCount(), 2);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PruningMask::fromJson(nlohmann::json::parse(
                                                            "{\"n\": 4294967303}")));
    }

    void budgetRefusesBeforeAllocating() {
        Parser p(testdata::trainGrammar());
        p.setMemoryBudget(std::size_t{64} << 20);
        QVERIFY(p.denseBytes(40) < (std::size_t{64} << 20));
        const std::size_t need = p.denseBytes(500);
        QVERIFY(need > (std::size_t{2} << 30)); // the 500-word sentence that took 3.6 GB
        try {
            p.parse(words(500));
            QFAIL("parsed");
        } catch (const SentenceTooLarge& e) {
            QVERIFY2(std::string(e.what()).find("memory budget of 64 MiB") != std::string::npos,
                     e.what());
        }
        QCOMPARE(p.chart().memoryBytes(), std::size_t(0)); // nothing was allocated
        // The default budget refuses it too.
        Parser q(testdata::trainGrammar());
        QVERIFY_THROWS_EXCEPTION(SentenceTooLarge, q.checkFits(500));
        QVERIFY_THROWS_EXCEPTION(SentenceTooLarge, q.checkFits(kMaxSentenceLength + 1));
        q.checkFits(100);
    }
    void itemListsRespectTheBudget() {
        // A budget just above the dense part: the lazily built item lists go over it midway,
        // and the parser refuses, then parses the next sentence correctly.
        Parser ref(testdata::trainGrammar());
        const auto w = words(30);
        const ParseStats expected = ref.parse(w);
        Parser p(testdata::trainGrammar());
        p.setMemoryBudget(p.denseBytes(30) + 1024);
        QVERIFY_THROWS_EXCEPTION(SentenceTooLarge, p.parse(w));
        p.setMemoryBudget(kDefaultParserMemoryBudget);
        const ParseStats again = p.parse(w);
        QCOMPARE(again.pushes, expected.pushes);
        QCOMPARE(again.logProb, expected.logProb);
        QVERIFY(bitIdentical(p.chart(), ref.chart()));
    }
    void evaluationSkipsAndCounts() {
        // A 5000-word sentence used to abort the whole evaluation.
        std::string huge = "( (S";
        for (int i = 0; i < 5000; ++i)
            huge += " (NN w)";
        huge += ") )\n";
        std::vector<Tree> gold;
        for (const auto& t :
             readTreebankString("( (S (NP (DT The) (NN dog)) (VP (VBZ barks)) (. .)) )\n" + huge +
                                "( (S (NP (PRP It)) (VP (VBD ran)) (. .)) )\n"))
            gold.push_back(normalizeTree(t));
        const CorpusResult r = evaluateCorpus(testdata::trainGrammar(), gold, MaskFunction{});
        QCOMPARE(r.sentences.size(), std::size_t(2));
        QCOMPARE(r.skippedTooLarge, 1);
        QCOMPARE(r.skippedSentences, std::vector<int>{2});
        QCOMPARE(r.summaryJson()["skippedTooLarge"].get<int>(), 1);
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestParseLimits)
#include "test_parse_limits.moc"
