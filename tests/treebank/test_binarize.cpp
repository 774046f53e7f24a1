// Tests for core/Binarize (binarization, chain collapsing, annotation, inverse) and
// core/UnknownWords.
#include "core/treebank/Binarize.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/TreebankReader.h"
#include "core/treebank/UnknownWords.h"
#include "core/util/Error.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <set>

using namespace prunescope;

namespace {

const std::vector<Tree>& normalizedTrain() {
    static const std::vector<Tree> trees = readNormalizedTreebank(testdata::ptbDir("train"));
    return trees;
}

Tree firstTree(const std::string& s) {
    return readTreebankString(s).at(0);
}

std::string bin(const std::string& normalized, int h, bool v2) {
    return binarize(firstTree(normalized), BinarizeOptions{h, v2}).toString();
}

// Checks the structural invariants below the root; returns an empty string or a description.
std::string checkNode(const Tree& t) {
    if (t.isLeaf()) return "leaf at a node position";
    if (t.isPreterminal()) return {};
    if (t.children.size() == 2) {
        for (const auto& c : t.children) {
            if (c.isLeaf()) return "binary node with a leaf child: " + t.label;
            if (auto e = checkNode(c); !e.empty()) return e;
        }
        return {};
    }
    if (t.children.size() == 1) {
        const Tree& c = t.children[0];
        if (c.isLeaf()) return "unexpected leaf";
        if (t.label[0] == '@') return "unary '@' node: " + t.label;
        if (!c.isPreterminal() && c.children.size() != 2)
            return "unary over unary: " + t.label + " -> " + c.label;
        return checkNode(c);
    }
    return "node with " + std::to_string(t.children.size()) + " children: " + t.label;
}

void collectLabelSet(const Tree& t, std::set<std::string>& out) {
    if (t.isLeaf()) return;
    out.insert(t.label);
    for (const auto& c : t.children)
        collectLabelSet(c, out);
}

} // namespace

class TestBinarize : public QObject {
    Q_OBJECT
  private slots:
    void handWorkedNaryNp() {
        const std::string np = "(ROOT (NP (DT the) (JJ big) (JJ red) (NN dog)))";
        QCOMPARE(bin(np, 1, false),
                 std::string("(ROOT (NP (@NP|JJ (@NP|JJ (DT the) (JJ big)) (JJ red)) (NN dog)))"));
        QCOMPARE(bin(np, -1, false),
                 std::string(
                     "(ROOT (NP (@NP|DT_JJ_JJ (@NP|DT_JJ (DT the) (JJ big)) (JJ red)) (NN dog)))"));
        QCOMPARE(bin(np, 0, false),
                 std::string("(ROOT (NP (@NP (@NP (DT the) (JJ big)) (JJ red)) (NN dog)))"));
        QCOMPARE(bin(np, 2, true), std::string("(ROOT (NP^ROOT (@NP^ROOT|JJ_JJ (@NP^ROOT|DT_JJ (DT "
                                               "the) (JJ big)) (JJ red)) (NN dog)))"));
        // Binary and unary-over-preterminal nodes are unchanged without annotation.
        const std::string s = "(ROOT (S (NP (PRP it)) (VP (VBZ works))))";
        QCOMPARE(bin(s, 2, false), s);
        QCOMPARE(bin(s, 2, true),
                 std::string("(ROOT (S^ROOT (NP^S (PRP it)) (VP^S (VBZ works))))"));
        for (int h : {-1, 0, 1, 2})
            for (bool v : {false, true})
                QCOMPARE(debinarize(firstTree(bin(np, h, v))), firstTree(np));
    }

    void handWorkedUnaryChains() {
        QCOMPARE(bin("(ROOT (S (VP (VB go))))", 2, false), std::string("(ROOT (S+VP (VB go)))"));
        QCOMPARE(bin("(ROOT (S (VP (VB go))))", 2, true),
                 std::string("(ROOT (S+VP^ROOT (VB go)))"));
        const std::string deep = "(ROOT (S (SBAR (S (NP (DT a) (NN b)) (VP (VBZ c))))))";
        QCOMPARE(bin(deep, 2, false),
                 std::string("(ROOT (S+SBAR (S (NP (DT a) (NN b)) (VP (VBZ c)))))"));
        QCOMPARE(bin(deep, 2, true),
                 std::string("(ROOT (S+SBAR^ROOT (S^SBAR (NP^S (DT a) (NN b)) (VP^S (VBZ c)))))"));
        const std::string four = "(ROOT (S (VP (NP (PRT (RB up))))))";
        QCOMPARE(bin(four, 1, false), std::string("(ROOT (S+VP+NP+PRT (RB up)))"));
        // A chain inside an n-ary node, above a 3-child node; a unary NP over QP is not a chain.
        const std::string mixed =
            "(ROOT (S (NP (NX (QP (CD 1) (CC or) (CD 2)))) (VP (VBZ is)) (. .)))";
        QCOMPARE(bin(mixed, 1, false), std::string("(ROOT (S (@S|VP (NP+NX (QP (@QP|CC (CD 1) (CC "
                                                   "or)) (CD 2))) (VP (VBZ is))) (. .)))"));
        QCOMPARE(bin(mixed, -1, true), std::string("(ROOT (S^ROOT (@S^ROOT|NP_VP (NP+NX^S (QP^NX "
                                                   "(@QP^NX|CD_CC (CD 1) (CC or)) (CD 2))) "
                                                   "(VP^S (VBZ is))) (. .)))"));
        QCOMPARE(bin("(ROOT (NP (QP (CD 1) (CC or) (CD 2))))", 0, false),
                 std::string("(ROOT (NP (QP (@QP (CD 1) (CC or)) (CD 2))))"));
        for (const auto& s : {deep, four, mixed})
            for (bool v : {false, true})
                QCOMPARE(debinarize(firstTree(bin(s, 2, v))), firstTree(s));
        // Annotated chain labels of both styles are understood by debinarize.
        QCOMPARE(debinarize(firstTree("(ROOT (S^ROOT+VP^S (VB go)))")).toString(),
                 std::string("(ROOT (S (VP (VB go))))"));
        QCOMPARE(stripAnnotation("S^ROOT+VP^S"), std::string("S+VP"));
        QCOMPARE(stripAnnotation("NP^S"), std::string("NP"));
    }

    // What the explorer's cells show (ChartPresentation): the n-ary label of a binarized symbol.
    void unbinarizedLabels() {
        QCOMPARE(unbinarizedLabel("@NP|DT_NN"), std::string("NP"));
        QCOMPARE(unbinarizedLabel("@NP^S|DT_NN"), std::string("NP"));
        QCOMPARE(unbinarizedLabel("@ROOT|."), std::string("ROOT"));
        QCOMPARE(unbinarizedLabel("@VP"), std::string("VP"));
        QCOMPARE(unbinarizedLabel("S^ROOT+VP^S"), std::string("S"));
        QCOMPARE(unbinarizedLabel("NP^S"), std::string("NP"));
        QCOMPARE(unbinarizedLabel("NN"), std::string("NN"));
        QCOMPARE(unbinarizedLabel("-NONE-"), std::string("-NONE-"));
        // Every node of a debinarized tree carries the unbinarized label of its binarized top node.
        const Tree t = firstTree(bin("(ROOT (S (NP (DT a) (JJ b) (NN c)) (VP (VB d))))", 1, true));
        QCOMPARE(unbinarizedLabel(t.children[0].label), std::string("S"));
        QCOMPARE(unbinarizedLabel(t.children[0].children[0].label), std::string("NP"));
    }

    void naryRootStaysUnary() {
        const std::string r = "(ROOT (NP (NN a)) (VP (VB b)) (. .))";
        QCOMPARE(bin(r, 1, false),
                 std::string("(ROOT (@ROOT|. (@ROOT|VP (NP (NN a)) (VP (VB b))) (. .)))"));
        QCOMPARE(debinarize(firstTree(bin(r, 1, true))), firstTree(r));
    }

    void rejectsMarkerCharacters() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 binarize(firstTree("(ROOT (A+B (NN x) (NN y)))"), {}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 binarize(firstTree("(ROOT (S (@X (NN x))))"), {}));
        // Words may contain any marker.
        const Tree t = firstTree("(ROOT (S (NN @a+b^c|d) (NN x_y) (NN z)))");
        QCOMPARE(debinarize(binarize(t, {-1, true})), t);
    }

    void roundTripsAllTrainTrees() {
        const auto& train = normalizedTrain();
        QCOMPARE(train.size(), std::size_t(2934)); // see test_treebank for why not 2901
        const std::vector<BinarizeOptions> options = {
            {-1, false}, {1, false}, {2, true}, {0, false}};
        std::vector<std::size_t> labelCounts;
        for (const auto& opt : options) {
            std::set<std::string> labels;
            // Under a sanitizer every 4th tree (28 s there for all of them; the Release run checks
            // all).
            for (std::size_t ti = 0; ti < train.size(); ti += testdata::kSanitizerStride) {
                const Tree& t = train[ti];
                const Tree b = binarize(t, opt);
                QCOMPARE(b.label, std::string("ROOT"));
                QCOMPARE(b.children.size(), std::size_t(1));
                const std::string err = checkNode(b.children[0]);
                QVERIFY2(err.empty(), (err + " in " + b.toString()).c_str());
                QVERIFY(b.words() == t.words());
                QVERIFY(b.tags() == t.tags());
                const Tree d = debinarize(b);
                QVERIFY2(d == t, (t.toString() + "\n  vs\n" + d.toString()).c_str());
                collectLabelSet(b, labels);
            }
            labelCounts.push_back(labels.size());
            qInfo("h=%d v=%d: %zu distinct labels", opt.horizontalMarkov,
                  opt.parentAnnotation ? 2 : 1, labels.size());
        }
        // More sibling history, more symbols: h=0 < h=1 < h=-1; parent annotation adds more again.
        QVERIFY(labelCounts[3] < labelCounts[1]);
        QVERIFY(labelCounts[1] < labelCounts[0]);
        QVERIFY(labelCounts[2] > labelCounts[1]);
    }

    void normalizedLabelsHaveNoMarkers() {
        std::set<std::string> labels;
        for (const auto& t : normalizedTrain())
            collectLabelSet(t, labels);
        labels.erase("ROOT");
        for (const auto& l : labels)
            QVERIFY2(l.find_first_of("@+^|") == std::string::npos, l.c_str());
        QVERIFY(labels.count("NP") && labels.count("PRT") && !labels.count("ADVP"));
    }

    void optionsJson() {
        const BinarizeOptions o{-1, true};
        const auto j = toJson(o);
        QCOMPARE(j.at("horizontalMarkov").get<int>(), -1);
        QCOMPARE(j.at("parentAnnotation").get<bool>(), true);
        QVERIFY(binarizeOptionsFromJson(j) == o);
        QVERIFY(binarizeOptionsFromJson(nlohmann::json::object()) == BinarizeOptions{});
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 binarizeOptionsFromJson({{"horizontalMarkov", "two"}}));
        QVERIFY_THROWS_EXCEPTION(InputError, binarizeOptionsFromJson({{"horizontalMarkov", -2}}));
        QVERIFY_THROWS_EXCEPTION(InputError, binarizeOptionsFromJson({{"parentAnnotation", 1}}));
    }

    void unknownSignatures() {
        QCOMPARE(unknownSignature("Foobar", 0), std::string("UNK-INITC"));
        QCOMPARE(unknownSignature("Foobar", 3), std::string("UNK-CAPS"));
        QCOMPARE(unknownSignature("NASA", 0), std::string("UNK-ALLCAPS"));
        QCOMPARE(unknownSignature("NASA", 4), std::string("UNK-ALLCAPS"));
        QCOMPARE(unknownSignature("walking", 2), std::string("UNK-LC-ing"));
        QCOMPARE(unknownSignature("Running", 0), std::string("UNK-INITC-ing"));
        QCOMPARE(unknownSignature("1,234.50", 1), std::string("UNK-ALLNUM"));
        QCOMPARE(unknownSignature("1987-88", 1), std::string("UNK-ALLNUM-DASH"));
        QCOMPARE(unknownSignature("12-year-old", 1), std::string("UNK-LC-NUM-DASH"));
        QCOMPARE(unknownSignature("1980s", 1), std::string("UNK-LC-NUM-s"));
        QCOMPARE(unknownSignature("3M", 2), std::string("UNK-CAPS-NUM"));
        QCOMPARE(unknownSignature("cats", 2), std::string("UNK-LC-s"));
        QCOMPARE(unknownSignature("glass", 2), std::string("UNK-LC"));
        QCOMPARE(unknownSignature("happiness", 3), std::string("UNK-LC-ness"));
        QCOMPARE(unknownSignature("quickly", 1), std::string("UNK-LC-ly"));
        QCOMPARE(unknownSignature("nation", 1), std::string("UNK-LC-ion"));
        QCOMPARE(unknownSignature("fly", 1), std::string("UNK-LC"));
        QCOMPARE(unknownSignature("McDonald", 5), std::string("UNK-CAPS"));
        QCOMPARE(unknownSignature("--", 1), std::string("UNK-DASH"));
        QCOMPARE(unknownSignature("%", 1), std::string("UNK"));
        QCOMPARE(unknownSignature("", 0), std::string("UNK"));
        QCOMPARE(unknownSignature("\xC3\xBC"
                                  "ber",
                                  1),
                 std::string("UNK-LC-er")); // non-ASCII bytes are "other"
        auto known = [](const std::string& w) { return w == "the"; };
        QCOMPARE(unknownSignature("The", 0, known), std::string("UNK-INITC-KNOWNLC"));
        QCOMPARE(unknownSignature("Tho", 0, known), std::string("UNK-INITC"));
        QCOMPARE(unknownSignature("The", 1, known), std::string("UNK-CAPS"));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestBinarize)
#include "test_binarize.moc"
