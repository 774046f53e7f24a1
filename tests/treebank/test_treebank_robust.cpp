// Bad treebanks (issue 19): deep nesting is refused at the offending bracket instead of
// overflowing the stack, and errors found after reading (a tree left empty by normalization, a
// label with a reserved marker) name the file, line and column of the tree.
#include "core/treebank/Binarize.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/TreebankReader.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "support/InputErrors.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

using namespace prunescope;

namespace {

std::string nested(int depth) {
    std::string s = "( ";
    for (int d = 0; d < depth; ++d)
        s += "(X ";
    s += "(NN w)";
    for (int d = 0; d < depth; ++d)
        s += ")";
    return s + " )\n";
}

InputError normalizedError(const std::string& text, const std::string& name) {
    const std::string path = testdata::tempDir("treebank-robust") + "/" + name;
    writeFileAtomically(path, text);
    return testdata::inputErrorOf([&] { readNormalizedTreebank(path); });
}

} // namespace

class TestTreebankRobust : public QObject {
    Q_OBJECT
  private slots:
    void deepNestingIsRefusedAtTheBracket() {
        // 50,000 levels overflowed the stack in normalization; now the reader stops at the limit.
        try {
            readTreebankString("\n" + nested(50000), "deep.mrg");
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), std::string("deep.mrg"));
            QCOMPARE(e.line(), 2);
            QCOMPARE(e.column(), 3 + 3 * (kMaxTreeDepth - 1)); // the '(' one level too deep
            QVERIFY2(std::string(e.what()).find("nested deeper than") != std::string::npos,
                     e.what());
        }
    }
    void nestingUpToTheLimitWorks() {
        const auto trees = readTreebankString(nested(kMaxTreeDepth - 2), "ok.mrg");
        QCOMPARE(trees.size(), std::size_t(1));
        const Tree n = normalizeTree(trees[0]); // X -> X collapses
        QCOMPARE(n.toString(), std::string("(ROOT (X (NN w)))"));
        const Tree b =
            binarize(readTreebankString("(S " + nested(kMaxTreeDepth - 3).substr(2))[0], {});
        QVERIFY(!b.children.empty());
    }
    void sourcesGiveEachTreesPlace() {
        std::vector<TreeSource> where;
        const auto trees = readTreebankString("(S (A a))\n\n  ( (S (B b)) )\n", "two.mrg", &where);
        QCOMPARE(trees.size(), std::size_t(2));
        QCOMPARE(where.size(), std::size_t(2));
        QCOMPARE(where[1].file, std::string("two.mrg"));
        QCOMPARE(where[1].line, 3);
        QCOMPARE(where[1].column, 3);
    }
    void emptyAfterNormalizationNamesTheTree() {
        const InputError e =
            normalizedError("(S (NN ok))\n(S (NP (NN fine)))\n  ( (-NONE- *T*) )\n", "traces.mrg");
        QVERIFY2(std::string(e.what()).find("traces.mrg:3:3:") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("empty after normalization") != std::string::npos,
                 e.what());
    }
    void reservedMarkerNamesTheTree() {
        // Was std::invalid_argument("binarize: label contains a reserved marker") with no place.
        const InputError e =
            normalizedError("(S (NN ok))\n( (S+VP (NN x) (NN y)) )\n", "marker.mrg");
        QCOMPARE(e.line(), 2);
        QCOMPARE(e.column(), 1);
        QVERIFY2(std::string(e.what()).find("reserved marker") != std::string::npos, e.what());
        QVERIFY(std::string(normalizedError("( (S (@NN x) (NN y)) )\n", "tag.mrg").what())
                    .find("tag.mrg:1:1:") != std::string::npos);
    }
    void labelOfOnlyAFunctionTagNamesTheTree() {
        // Found by fuzz_treebank: "=R" normalized to an empty label, which binarization folded
        // into the unary chain below it, so debinarize(binarize(t)) lost a node.
        const InputError root = normalizedError("(S (NN ok))\n(=R (Sz (NP .)))\n", "tag-only.mrg");
        QCOMPARE(root.line(), 2);
        QCOMPARE(root.column(), 1);
        QVERIFY2(std::string(root.what()).find("label '=R' is empty") != std::string::npos,
                 root.what());
        const InputError inner = normalizedError("( (S (|X (NN a)) (VP (VB b))) )\n", "bar.mrg");
        QVERIFY2(std::string(inner.what()).find("bar.mrg:1:1: label '|X' is empty") !=
                     std::string::npos,
                 inner.what());
        const InputError tag = normalizedError("( (S (=1 a) (VB b)) )\n", "pos.mrg");
        QVERIFY2(std::string(tag.what()).find("label '=1' is empty") != std::string::npos,
                 tag.what());
        // Labels that start with '-' are kept whole (-NONE-, -LRB-), function tags still cut.
        QCOMPARE(
            normalizeTree(
                readTreebankString("( (S (-LRB- -LRB-) (NP-SBJ=2 (NN x))) )\n", "ok.mrg").at(0))
                .toString(),
            std::string("(ROOT (S (-LRB- -LRB-) (NP (NN x))))"));
    }
    void readNormalizedTreebankReturnsSources() {
        const std::string path = testdata::tempDir("treebank-sources") + "/s.mrg";
        writeFileAtomically(path, "(S (NN a))\n(S (NN b))\n");
        std::vector<TreeSource> where;
        QCOMPARE(readNormalizedTreebank(path, 0, {}, &where).size(), std::size_t(2));
        QCOMPARE(where.at(1).line, 2);
    }
    void sentencesFromText() {
        const auto s = readSentencesString("a b\n\n  c\td \r\n");
        QCOMPARE(s.size(), std::size_t(2));
        QCOMPARE(s[1], (std::vector<std::string>{"c", "d"}));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestTreebankRobust)
#include "test_treebank_robust.moc"
