// Tests for core/TreebankReader and core/Normalize on hand-made input and the shared PTB sample.
#include "core/treebank/Normalize.h"
#include "core/treebank/TreebankReader.h"
#include "core/util/Error.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>

using namespace prunescope;

namespace {

Tree parseOne(const std::string& s) {
    auto trees = readTreebankString(s);
    if (trees.size() != 1) throw std::runtime_error("expected one tree in: " + s);
    return trees[0];
}

// Collects every non-leaf label.
void collectLabels(const Tree& t, std::vector<std::string>& out) {
    if (t.isLeaf()) return;
    out.push_back(t.label);
    for (const auto& c : t.children)
        collectLabels(c, out);
}

// Words minus those under -NONE-.
void wordsNoTraces(const Tree& t, std::vector<std::string>& out) {
    if (t.isPreterminal()) {
        if (t.label != "-NONE-") out.push_back(t.children[0].label);
        return;
    }
    for (const auto& c : t.children)
        wordsNoTraces(c, out);
}

// Labeled spans the normalized tree must have: every original node that covers at least one
// non-trace word, with its normalized label and its span counted over non-trace words.
void expectedSpans(const Tree& t, int& pos, std::set<LabeledSpan>& out) {
    if (t.isLeaf()) return;
    if (t.isPreterminal() && t.label == "-NONE-") return;
    if (t.isPreterminal()) {
        out.insert({normalizeLabel(t.label), pos, pos + 1});
        ++pos;
        return;
    }
    const int begin = pos;
    for (const auto& c : t.children)
        expectedSpans(c, pos, out);
    if (pos > begin) out.insert({normalizeLabel(t.label), begin, pos});
}

std::size_t countNodes(const Tree& t) {
    std::size_t n = t.isLeaf() ? 0 : 1;
    for (const auto& c : t.children)
        n += countNodes(c);
    return n;
}

struct ErrorPos {
    bool thrown = false;
    std::string file;
    int line = -1, column = -1;
    std::string what;
};
ErrorPos errorOf(const std::string& text) {
    ErrorPos e;
    try {
        readTreebankString(text, "hand.mrg");
    } catch (const InputError& err) {
        e = {true, err.file(), err.line(), err.column(), err.what()};
    }
    return e;
}

} // namespace

class TestTreebank : public QObject {
    Q_OBJECT
  private slots:
    void readsSplitsWithExpectedCounts() {
        const auto t0 = std::chrono::steady_clock::now();
        const auto train = readTreebank(testdata::ptbDir("train"));
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        qInfo("read %zu train trees in %.3f s", train.size(), secs);
        // The data README says 2901: that counts only trees starting "( (" and misses the 33 trees
        // written "((S" / "((SINV" (wsj_0100, 0103, 0107, 0108, 0110, 0113, 0114, 0116, 0118, 0120,
        // 0125).
        QCOMPARE(train.size(), std::size_t(2934));
        QCOMPARE(readTreebank(testdata::ptbDir("dev")).size(), std::size_t(319));
        QCOMPARE(readTreebank(testdata::ptbDir("test")).size(), std::size_t(248));
        QVERIFY(secs < 5.0); // generous for Debug builds; Release is far below 1 s
        // First tree of wsj_0001: outer unlabeled bracket over S; first word "Pierre".
        QCOMPARE(train[0].label, std::string(""));
        QCOMPARE(train[0].children.size(), std::size_t(1));
        QCOMPARE(train[0].children[0].label, std::string("S"));
        QCOMPARE(train[0].words().front(), std::string("Pierre"));
        QCOMPARE(train[0].children[0].children[0].label, std::string("NP-SBJ"));
        // A single file gives the same trees as the head of the directory.
        const auto one = readTreebank(testdata::ptbDir("train") + "/wsj_0001.mrg");
        QCOMPARE(one.size(), std::size_t(2));
        QVERIFY(one[0] == train[0] && one[1] == train[1]);
    }

    void roundTripsEveryTrainTree() {
        const auto train = readTreebank(testdata::ptbDir("train"));
        for (const auto& t : train) {
            const auto again = readTreebankString(t.toString());
            QCOMPARE(again.size(), std::size_t(1));
            QVERIFY2(again[0] == t, t.toString().c_str());
        }
    }

    void readsSeveralMultiLineTrees() {
        const std::string text =
            "\n( (S\n  (NP (PRP We))\n  (VP (VBD saw) (NP (DT a) (NN kite)))\n  (. .)) )\n"
            "(\t(NP (NN hello) ) )\n\n";
        const auto trees = readTreebankString(text);
        QCOMPARE(trees.size(), std::size_t(2));
        QCOMPARE(trees[0].toString(),
                 std::string("( (S (NP (PRP We)) (VP (VBD saw) (NP (DT a) (NN kite))) (. .)))"));
        QCOMPARE(trees[1].toString(), std::string("( (NP (NN hello)))"));
        QVERIFY(readTreebankString("").empty());
        QVERIFY(readTreebankString("  \n\n \t ").empty());
        // A labeled top bracket is kept as is.
        QCOMPARE(parseOne("(S (NP (NN x)))").label, std::string("S"));
    }

    void keepsBracketTokens() {
        const Tree t = parseOne("( (NP (-LRB- -LRB-) (NN a=b|c@d) (-RRB- -RRB-) (`` ``) ($ $)) )");
        const std::vector<std::string> words = {"-LRB-", "a=b|c@d", "-RRB-", "``", "$"};
        const std::vector<std::string> tags = {"-LRB-", "NN", "-RRB-", "``", "$"};
        QVERIFY(t.words() == words);
        QVERIFY(t.tags() == tags);
        QCOMPARE(normalizeTree(t).tags(), tags);
    }

    void malformedInputsReportPosition() {
        // Unbalanced: one ')' too many on line 3, column 5.
        auto e = errorOf("( (NP\n  (NN a)))\n    )\n");
        QVERIFY(e.thrown);
        QCOMPARE(e.file, std::string("hand.mrg"));
        QCOMPARE(e.line, 3);
        QCOMPARE(e.column, 5);
        QVERIFY(QString::fromStdString(e.what).startsWith("hand.mrg:3:5: "));
        // Missing ')' at end of input: reported at the innermost unclosed '(' (line 2, col 3).
        e = errorOf("( (S (NP (NN a))\n  (VP (VBZ b)\n");
        QVERIFY(e.thrown);
        QCOMPARE(e.line, 2);
        QCOMPARE(e.column, 3);
        e = errorOf("(S\n (NN a)");
        QCOMPARE(e.line, 1);
        QCOMPARE(e.column, 1);
        // Label without a word: "(NP )" -> at the ')' (line 2, col 11).
        e = errorOf("( (S\n  (VP (NP ) (NN a))))");
        QVERIFY(e.thrown);
        QCOMPARE(e.line, 2);
        QCOMPARE(e.column, 11);
        // Empty brackets.
        e = errorOf("(S (NN a) ())");
        QVERIFY(e.thrown);
        QCOMPARE(e.line, 1);
        QCOMPARE(e.column, 12);
        // Text outside brackets, at the start of line 2.
        e = errorOf("( (NN a) )\nstray ( (NN b) )");
        QVERIFY(e.thrown);
        QCOMPARE(e.line, 2);
        QCOMPARE(e.column, 1);
        QVERIFY(QString::fromStdString(e.what).contains("stray"));
        // Two words under one tag.
        e = errorOf("(S (NN a b))");
        QVERIFY(e.thrown);
        QCOMPARE(e.column, 10);
        // A word next to subtrees.
        e = errorOf("(S (NN a) b)");
        QVERIFY(e.thrown);
        QCOMPARE(e.column, 11);
        // Unlabeled bracket inside a tree (typically a missing ')' before the next tree).
        e = errorOf("( (S (NN a)\n( (S (NN b)))");
        QVERIFY(e.thrown);
        QCOMPARE(e.line, 2);
        QCOMPARE(e.column, 1);
        // Tabs count as one column.
        e = errorOf("\t)");
        QCOMPARE(e.line, 1);
        QCOMPARE(e.column, 2);
    }

    void fileErrorsNameTheFile() {
        const std::string missing = testdata::tempDir("treebank") + "/nope.mrg";
        try {
            readTreebankFile(missing);
            QFAIL("no exception");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), missing);
            QCOMPARE(e.line(), 0);
            QVERIFY(std::string(e.what()).find("nope.mrg") != std::string::npos);
        }
        QVERIFY_THROWS_EXCEPTION(InputError, readTreebank(missing));
        QVERIFY_THROWS_EXCEPTION(InputError, readSentencesFile(missing));
        // Errors inside a file name the file.
        const std::string dir = testdata::tempDir("treebank");
        const std::string bad = dir + "/b.mrg";
        std::ofstream(bad) << "( (NN a) )\n( (NN b)\n";
        std::ofstream(dir + "/a.mrg") << "( (NN z) )\n";
        std::ofstream(dir + "/notes.txt") << "ignored";
        try {
            readTreebank(dir);
            QFAIL("no exception");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), bad);
            QCOMPARE(e.line(), 2);
        }
        std::ofstream(bad) << "( (NN b) )\n";
        const auto trees = readTreebank(dir); // a.mrg before b.mrg, notes.txt ignored
        QCOMPARE(trees.size(), std::size_t(2));
        QCOMPARE(trees[0].words()[0], std::string("z"));
        QCOMPARE(trees[1].words()[0], std::string("b"));
        std::ofstream(dir + "/empty.mrg") << "";
        QCOMPARE(readTreebankFile(dir + "/empty.mrg").size(), std::size_t(0));
        const std::string emptyDir = testdata::tempDir("treebank-empty");
        QVERIFY_THROWS_EXCEPTION(InputError, readTreebank(emptyDir));
    }

    void readsSentenceFiles() {
        const std::string path = testdata::tempDir("sentences") + "/s.txt";
        std::ofstream(path) << "The cat sat .\n\n   \n  a  b\tc \r\nlast";
        const auto s = readSentencesFile(path);
        QCOMPARE(s.size(), std::size_t(3));
        QVERIFY((s[0] == std::vector<std::string>{"The", "cat", "sat", "."}));
        QVERIFY((s[1] == std::vector<std::string>{"a", "b", "c"}));
        QVERIFY((s[2] == std::vector<std::string>{"last"}));
    }

    void normalizesLabels() {
        QCOMPARE(normalizeLabel("NP-SBJ-1"), std::string("NP"));
        QCOMPARE(normalizeLabel("NP=2"), std::string("NP"));
        QCOMPARE(normalizeLabel("PP-LOC-CLR"), std::string("PP"));
        QCOMPARE(normalizeLabel("PP-TMP=3"), std::string("PP"));
        QCOMPARE(normalizeLabel("ADVP"), std::string("PRT"));
        QCOMPARE(normalizeLabel("ADVP-TMP"), std::string("PRT"));
        QCOMPARE(normalizeLabel("PRT|ADVP"), std::string("PRT"));
        QCOMPARE(normalizeLabel("ADVP|PRT"), std::string("PRT"));
        QCOMPARE(normalizeLabel("WHADVP-1"), std::string("WHADVP"));
        QCOMPARE(normalizeLabel("NN|VB"), std::string("NN"));
        QCOMPARE(normalizeLabel("PRP$"), std::string("PRP$"));
        QCOMPARE(normalizeLabel("-NONE-"), std::string("-NONE-"));
        QCOMPARE(normalizeLabel("-LRB-"), std::string("-LRB-"));
        QCOMPARE(normalizeLabel("-RRB-"), std::string("-RRB-"));
    }

    void normalizesTreesByHand() {
        // Function tags, co-indexes, trace removal leaving an empty NP-SBJ, ADVP -> PRT.
        Tree t = parseOne("( (S (NP-SBJ-1 (-NONE- *)) (VP (VBD ran) (ADVP-TMP (RB fast)) "
                          "(NP=2 (-NONE- *T*-1))) (. .)) )");
        QCOMPARE(normalizeTree(t).toString(),
                 std::string("(ROOT (S (VP (VBD ran) (PRT (RB fast))) (. .)))"));
        // X -> X: NP over NP-SBJ collapses to one NP; chains of them too.
        t = parseOne("( (S (NP (NP-SBJ (NP (DT the) (NN cat)))) (VP (VBZ sits))) )");
        QCOMPARE(normalizeTree(t).toString(),
                 std::string("(ROOT (S (NP (DT the) (NN cat)) (VP (VBZ sits))))"));
        // X -> X created by trace removal: (VP (VP ...) (-NONE- ..)) -> VP.
        t = parseOne("( (S (VP (VP (VB go)) (S (-NONE- *)))) )");
        QCOMPARE(normalizeTree(t).toString(), std::string("(ROOT (S (VP (VB go))))"));
        // PRT|ADVP over ADVP both become PRT and collapse.
        t = parseOne("( (VP (VB give) (PRT|ADVP (ADVP (RP up)))) )");
        QCOMPARE(normalizeTree(t).toString(), std::string("(ROOT (VP (VB give) (PRT (RP up))))"));
        // Labeled root is wrapped; an existing ROOT is not doubled.
        QCOMPARE(normalizeTree(parseOne("(S-1 (NN x))")).toString(),
                 std::string("(ROOT (S (NN x)))"));
        QCOMPARE(normalizeTree(parseOne("(ROOT (S (NN x)))")).toString(),
                 std::string("(ROOT (S (NN x)))"));
        QCOMPARE(normalizeTree(parseOne("( (NN x) )")).toString(), std::string("(ROOT (NN x))"));
        // The input is not modified.
        QCOMPARE(t.toString(), std::string("( (VP (VB give) (PRT|ADVP (ADVP (RP up)))))"));
        // All traces -> InputError.
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 normalizeTree(parseOne("( (S (NP (-NONE- *)) (-NONE- 0)) )")));
        QVERIFY_THROWS_EXCEPTION(InputError, normalizeTree(parseOne("(-NONE- *)")));
    }

    void normalizesAllTrainTrees() {
        const auto train = readTreebank(testdata::ptbDir("train"));
        std::size_t prt = 0, advpBefore = 0, nodesBefore = 0, nodesAfter = 0;
        for (const auto& t : train) {
            std::vector<std::string> before;
            collectLabels(t, before);
            for (const auto& l : before)
                advpBefore += (l.rfind("ADVP", 0) == 0);
            const Tree n = normalizeTree(t);
            QCOMPARE(n.label, std::string("ROOT"));
            std::vector<std::string> labels;
            collectLabels(n, labels);
            for (std::size_t i = 1; i < labels.size(); ++i) {
                const auto& l = labels[i];
                QVERIFY2(!l.empty(), n.toString().c_str());
                QVERIFY2(l != "-NONE-" && l != "ADVP" && l != "ROOT", l.c_str());
                if (l[0] != '-')
                    QVERIFY2(l.find_first_of("-=|@+^ ") == std::string::npos, l.c_str());
                else
                    QVERIFY2(l == "-LRB-" || l == "-RRB-", l.c_str());
                prt += (l == "PRT");
            }
            std::vector<std::string> expected;
            wordsNoTraces(t, expected);
            QVERIFY(n.words() == expected);
            // Same constituents as the original minus traces and empty subtrees; only X -> X
            // duplicates (same label, same span) may disappear.
            std::set<LabeledSpan> want;
            int pos = 0;
            for (const auto& c : t.children)
                expectedSpans(c, pos, want);
            auto got = labeledSpans(n);
            got.erase(got.begin()); // ROOT
            const std::set<LabeledSpan> gotSet(got.begin(), got.end());
            QVERIFY2(gotSet == want, n.toString().c_str());
            // No X -> X edge is left.
            for (std::size_t i = 0; i + 1 < got.size(); ++i)
                if (got[i].label == got[i + 1].label && got[i].begin == got[i + 1].begin &&
                    got[i].end == got[i + 1].end)
                    QVERIFY2(false, n.toString().c_str());
            nodesBefore += countNodes(t);
            nodesAfter += countNodes(n);
        }
        QVERIFY(advpBefore > 600);
        QVERIFY(prt > 600);
        QVERIFY(nodesAfter < nodesBefore);
        qInfo("ADVP* labels before: %zu, PRT nodes after: %zu; nodes %zu -> %zu", advpBefore, prt,
              nodesBefore, nodesAfter);
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestTreebank)
#include "test_treebank.moc"
