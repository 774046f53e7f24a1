// Tests for core/Evalb: EVALB (COLLINS.prm) labeled bracket scoring, hand-worked and on PTB dev.
#include "core/eval/Evalb.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/TreebankReader.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <algorithm>
#include <functional>

using namespace prunescope;

namespace {

Tree T(const std::string& s) {
    std::vector<Tree> ts = readTreebankString(s);
    if (ts.size() != 1) throw std::runtime_error("expected one tree: " + s);
    return ts[0];
}

BracketCounts C(long m, long g, long t) {
    return BracketCounts{m, g, t};
}
std::string show(const BracketCounts& c) {
    return std::to_string(c.matched) + "/" + std::to_string(c.gold) + "/" + std::to_string(c.test);
}
#define COMPARE_COUNTS(actual, expected)                                                           \
    QCOMPARE(QString::fromStdString(show(actual)), QString::fromStdString(show(expected)))

// Independent of Evalb.cpp: is this word's tag one of COLLINS.prm's deleted preterminals?
bool punctOrTrace(const std::string& tag) {
    static const std::vector<std::string> del{"-NONE-", ",", ":", "``", "''", "."};
    return std::find(del.begin(), del.end(), tag) != del.end();
}
int keptWords(const Tree& t) {
    if (t.isPreterminal()) return punctOrTrace(t.label) ? 0 : 1;
    int n = 0;
    for (const auto& c : t.children)
        n += keptWords(c);
    return n;
}

const char* kCat =
    "(ROOT (S (NP (DT The) (NN cat)) (VP (VBD sat) (PP (IN on) (NP (DT the) (NN mat)))) (. .)))";
const char* kKim = "(ROOT (S (NP (NNP Kim)) (VP (VBD saw) (NP (DT the) (NN dog)) (PP (IN with) (NP "
                   "(NNS binoculars))))))";

} // namespace

class TestEvalb : public QObject {
    Q_OBJECT
  private slots:
    void identicalTrees() {
        // S[0,6) NP[0,2) VP[2,6) PP[3,6) NP[4,6); the period and the preterminals are not scored.
        BracketCounts c = evalbSentence(T(kCat), T(kCat));
        COMPARE_COUNTS(c, C(5, 5, 5));
        QCOMPARE(c.precision(), 1.0);
        QCOMPARE(c.recall(), 1.0);
        QCOMPARE(c.f1(), 1.0);
        std::vector<LabeledSpan> expect{
            {"S", 0, 6}, {"NP", 0, 2}, {"VP", 2, 6}, {"PP", 3, 6}, {"NP", 4, 6}};
        QVERIFY(evalbBrackets(T(kCat)) == expect);
    }
    void oneWrongLabel() {
        Tree test = T("(ROOT (S (NP (DT The) (NN cat)) (VP (VBD sat) (SBAR (IN on) (NP (DT the) "
                      "(NN mat)))) (. .)))");
        BracketCounts c = evalbSentence(T(kCat), test);
        COMPARE_COUNTS(c, C(4, 5, 5));
        QCOMPARE(c.precision(), 0.8);
        QCOMPARE(c.recall(), 0.8);
        QVERIFY(std::abs(c.f1() - 0.8) < 1e-12);
    }
    void oneWrongSpan() {
        // Gold NP[2,4) (the dog); test NP[2,6) (the dog with binoculars).
        Tree test = T("(ROOT (S (NP (NNP Kim)) (VP (VBD saw) (NP (DT the) (NN dog) (PP (IN with) "
                      "(NP (NNS binoculars)))))))");
        COMPARE_COUNTS(evalbSentence(T(kKim), test), C(5, 6, 6));
        // An extra bracket (NP[2,6) over the gold NP[2,4)) costs precision only.
        Tree extra = T("(ROOT (S (NP (NNP Kim)) (VP (VBD saw) (NP (NP (DT the) (NN dog)) (PP (IN "
                       "with) (NP (NNS binoculars)))))))");
        BracketCounts c = evalbSentence(T(kKim), extra);
        COMPARE_COUNTS(c, C(6, 6, 7));
        QVERIFY(std::abs(c.f1() - 12.0 / 13.0) < 1e-12);
    }
    void punctuationShiftsSpans() {
        Tree gold = T("(ROOT (S (S (NP (NNP Kim)) (VP (VBD won))) (, ,) (CC but) (S (NP (NNP Lee)) "
                      "(VP (VBD lost))) (. .)))");
        // Test attaches the comma and period inside the conjuncts: raw spans differ, EVALB spans
        // don't.
        Tree test = T("(ROOT (S (S (NP (NNP Kim)) (VP (VBD won)) (, ,)) (CC but) (S (NP (NNP Lee)) "
                      "(VP (VBD lost)) (. .))))");
        std::vector<LabeledSpan> expect{{"S", 0, 5}, {"S", 0, 2},  {"NP", 0, 1}, {"VP", 1, 2},
                                        {"S", 3, 5}, {"NP", 3, 4}, {"VP", 4, 5}};
        QVERIFY(evalbBrackets(gold) == expect);
        QVERIFY(evalbBrackets(test) == expect);
        QVERIFY(labeledSpans(gold)[2] == (LabeledSpan{"S", 0, 2}));
        QVERIFY(labeledSpans(test)[2] == (LabeledSpan{"S", 0, 3})); // raw: includes the comma
        COMPARE_COUNTS(evalbSentence(gold, test), C(7, 7, 7));
        QCOMPARE(evalbWords(gold), (std::vector<std::string>{"Kim", "won", "but", "Lee", "lost"}));
        // Punctuation tags that are not in COLLINS.prm (-LRB-, $, #) keep their words.
        Tree paren =
            T("(ROOT (S (NP (NNP Kim) (-LRB- -LRB-) (CD 3) (-RRB- -RRB-)) (VP (VBD won)) (. .)))");
        QCOMPARE(evalbWords(paren).size(), std::size_t(5));
        QVERIFY(evalbBrackets(paren)[1] == (LabeledSpan{"NP", 0, 4}));
    }
    void bracketOfOnlyPunctuationIsDropped() {
        Tree gold = T("(ROOT (S (NP (NNP Kim)) (VP (VBD left)) (PRN (: --) (, ,)) (. .)))");
        Tree test = T("(ROOT (S (NP (NNP Kim)) (VP (VBD left)) (: --) (, ,) (. .)))");
        QCOMPARE(evalbBrackets(gold).size(), std::size_t(3)); // S NP VP; PRN became empty
        COMPARE_COUNTS(evalbSentence(gold, test), C(3, 3, 3));
        COMPARE_COUNTS(evalbSentence(test, gold), C(3, 3, 3));
        // Trace-only constituents vanish the same way, and the trace word is removed.
        Tree trace = T("(ROOT (S (NP-SBJ (-NONE- *)) (VP (VB Go) (ADVP (-NONE- *T*-1))) (. .)))");
        std::vector<LabeledSpan> expect{{"S", 0, 1}, {"VP", 0, 1}};
        QVERIFY(evalbBrackets(trace) == expect);
        QCOMPARE(evalbLength(trace), 2); // DELETE_LABEL_FOR_LENGTH -NONE-: "Go" and "." count
        QCOMPARE(evalbWords(trace), std::vector<std::string>{"Go"});
    }
    void duplicateUnaryBracketsMultiset() {
        Tree twice = T("(ROOT (S (NP (NP (NNS dogs))) (VP (VBP bark))))");
        Tree once = T("(ROOT (S (NP (NNS dogs)) (VP (VBP bark))))");
        COMPARE_COUNTS(evalbSentence(twice, once), C(3, 4, 3));
        COMPARE_COUNTS(evalbSentence(once, twice), C(3, 3, 4));
        COMPARE_COUNTS(evalbSentence(twice, twice), C(4, 4, 4));
        Tree thrice = T("(ROOT (S (NP (NP (NP (NNS dogs)))) (VP (VBP bark))))");
        COMPARE_COUNTS(evalbSentence(twice, thrice), C(4, 4, 5));
        // A unary chain with different labels: each label matched once.
        Tree sVp = T("(ROOT (S (VP (VB Go))))");
        Tree vpS = T("(ROOT (VP (S (VB Go))))");
        COMPARE_COUNTS(evalbSentence(sVp, vpS), C(2, 2, 2));
    }
    void advpPrtEquivalence() {
        Tree gold = T("(ROOT (S (NP (PRP He)) (VP (VBD gave) (PRT (RP up)))))");
        Tree advp = T("(ROOT (S (NP (PRP He)) (VP (VBD gave) (ADVP (RB up)))))");
        Tree pp = T("(ROOT (S (NP (PRP He)) (VP (VBD gave) (PP (IN up)))))");
        COMPARE_COUNTS(evalbSentence(gold, advp), C(4, 4, 4));
        COMPARE_COUNTS(evalbSentence(advp, gold), C(4, 4, 4));
        COMPARE_COUNTS(evalbSentence(gold, pp), C(3, 4, 4));
        EvalbOptions strict = EvalbOptions::collins();
        strict.equivalentLabels.clear();
        COMPARE_COUNTS(evalbSentence(gold, advp, strict), C(3, 4, 4));
    }
    void rootLabelNotCounted() {
        Tree root = T("(ROOT (S (NP (NNP Kim)) (VP (VBD left))))");
        Tree top = T("(TOP (S (NP (NNP Kim)) (VP (VBD left))))");
        Tree ptb = T("( (S (NP (NNP Kim)) (VP (VBD left))) )"); // PTB's unlabeled wrapper
        Tree bare = T("(S (NP (NNP Kim)) (VP (VBD left)))");    // no wrapper: S is scored
        for (const Tree* t : {&root, &top, &ptb, &bare}) {
            COMPARE_COUNTS(evalbSentence(root, *t), C(3, 3, 3));
            QVERIFY(evalbBrackets(*t)[0] == (LabeledSpan{"S", 0, 2}));
        }
        Tree flat = T("(ROOT (NP (NNP Kim)) (VP (VBD left)))"); // root over two phrases, no S
        COMPARE_COUNTS(evalbSentence(root, flat), C(2, 3, 2));
    }
    void functionTagsStripped() {
        Tree gold = T("(ROOT (S (NP-SBJ-1 (NNP Kim)) (VP (VBD left) (NP-TMP=2 (NN today)))))");
        Tree test = T("(ROOT (S (NP (NNP Kim)) (VP (VBD left) (NP (NN today)))))");
        COMPARE_COUNTS(evalbSentence(gold, test), C(4, 4, 4));
        QCOMPARE(evalbBrackets(gold)[1].label, std::string("NP"));
        QCOMPARE(evalbLabel("NP-SBJ-1"), std::string("NP"));
        QCOMPARE(evalbLabel("NP=2"), std::string("NP"));
        QCOMPARE(evalbLabel("PRT|ADVP"), std::string("PRT|ADVP"));
    }
    void punctuationTaggedDifferently() {
        // evalb.c deletes words by each tree's OWN tags; if that leaves different lengths the pair
        // is an error sentence (we throw EvalbMismatch and CorpusEvaluation::addPair counts it).
        Tree gold = T("(ROOT (S (NP (NNP Kim)) (VP (VBD left)) (. .)))");
        Tree nn = T("(ROOT (S (NP (NNP Kim)) (VP (VBD left) (NN .))))");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, evalbSentence(gold, nn));
        try {
            evalbSentence(gold, nn);
        } catch (const EvalbMismatch& e) {
            QCOMPARE(int(e.kind()), int(EvalbMismatch::Kind::Length));
        }
        // Both tags deleted ('.' vs ':'): no mismatch, scored normally.
        Tree colon = T("(ROOT (S (NP (NNP Kim)) (VP (VBD left) (: .))))");
        COMPARE_COUNTS(evalbSentence(gold, colon), C(3, 3, 3));
        // The gold tags a real word as punctuation: the mismatch goes the other way.
        Tree goldOdd = T("(ROOT (S (NP (NNP Kim)) (VP (VBD left) (, so))))");
        Tree testOdd = T("(ROOT (S (NP (NNP Kim)) (VP (VBD left) (RB so))))");
        QVERIFY_THROWS_EXCEPTION(EvalbMismatch, evalbSentence(goldOdd, testOdd));
        std::string why;
        QVERIFY(!tryEvalbSentence(gold, nn, EvalbOptions::collins(), &why).has_value());
        QVERIFY(why.find("length mismatch (gold 2 words, test 3 words") != std::string::npos);
        COMPARE_COUNTS(*tryEvalbSentence(gold, colon), C(3, 3, 3));
        CorpusEvaluation corpus;
        QVERIFY(!corpus.addPair(gold, nn));
        QVERIFY(corpus.addPair(gold, colon));
        QCOMPARE(corpus.errorSentences, 1);
        QCOMPARE(corpus.sentences, 1);
        COMPARE_COUNTS(corpus.total, C(3, 3, 3));
    }
    void wordMismatchThrows() {
        Tree a = T("(ROOT (S (NP (NNP Kim)) (VP (VBD left))))");
        Tree b = T("(ROOT (S (NP (NNP Lee)) (VP (VBD left))))");
        Tree c = T("(ROOT (S (NP (NNP Kim)) (VP (VBD left) (RB early))))");
        try {
            evalbSentence(a, b);
            QFAIL("no throw");
        } catch (const EvalbMismatch& e) {
            QCOMPARE(int(e.kind()), int(EvalbMismatch::Kind::Word));
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, evalbSentence(a, c));
        Tree mixed{"ROOT",
                   {Tree{"S", {Tree{"NP", {Tree{"NNP", {Tree{"Kim", {}}}}}}, Tree{"left", {}}}}}};
        QVERIFY_THROWS_EXCEPTION(EvalbMismatch, evalbBrackets(mixed));
    }
    void emptyAndOneWordSentences() {
        Tree one = T("(ROOT (NN Hello))");
        BracketCounts c = evalbSentence(one, one);
        COMPARE_COUNTS(c, C(0, 0, 0));
        QCOMPARE(c.precision(), 0.0); // EVALB prints 0.00 for 0/0 recall and precision
        QCOMPARE(c.recall(), 0.0);
        QCOMPARE(c.f1(), 0.0);
        QVERIFY(c.exactMatch()); // ...and counts it as a complete match
        QCOMPARE(sentenceF1(one, one), 1.0);
        Tree intj = T("(ROOT (INTJ (UH Hello)))");
        COMPARE_COUNTS(evalbSentence(intj, one), C(0, 1, 0));
        QCOMPARE(sentenceF1(intj, one), 0.0);
        QCOMPARE(sentenceF1(one, intj), 0.0);
        Tree empty; // no words at all
        COMPARE_COUNTS(evalbSentence(empty, empty), C(0, 0, 0));
        QVERIFY_THROWS_EXCEPTION(EvalbMismatch, evalbSentence(one, empty));
        Tree onlyPunct = T("(ROOT (S (. .)))");
        COMPARE_COUNTS(evalbSentence(onlyPunct, onlyPunct), C(0, 0, 0));
    }
    void corpusAccumulation() {
        CorpusEvaluation e;
        e.add(C(5, 5, 5));
        e.add(C(4, 6, 5));
        e.add(C(0, 0, 0));
        COMPARE_COUNTS(e.total, C(9, 11, 10));
        QCOMPARE(e.sentences, 3);
        QCOMPARE(e.exactMatches, 2);
        QVERIFY(std::abs(e.total.precision() - 0.9) < 1e-12);
        QVERIFY(std::abs(e.total.recall() - 9.0 / 11.0) < 1e-12);
        QVERIFY(std::abs(e.total.f1() - 2 * 0.9 * (9.0 / 11) / (0.9 + 9.0 / 11)) < 1e-12);
        double f2 = 2 * 0.8 * (4.0 / 6) / (0.8 + 4.0 / 6);
        QVERIFY(std::abs(e.averageSentenceF1() - (1.0 + f2 + 1.0) / 3) < 1e-12);
        QVERIFY(std::abs(e.exactMatchRate() - 2.0 / 3) < 1e-12);
        QCOMPARE(CorpusEvaluation{}.averageSentenceF1(), 0.0);
    }
    // For each tree: self-evaluation is perfect, and relabeling one phrase of a copy removes
    // exactly one match (one fewer (label, span) in the test multiset) if EVALB scores it.
    static void checkSelfAndRelabel(const std::vector<Tree>& trees, CorpusEvaluation& self,
                                    CorpusEvaluation& perturbed, long& relabeledScored) {
        for (std::size_t k = 0; k < trees.size(); ++k) {
            const Tree& t = trees[k];
            BracketCounts c = evalbSentence(t, t);
            QVERIFY(c.gold > 0);
            COMPARE_COUNTS(c, C(c.gold, c.gold, c.gold));
            QCOMPARE(c.f1(), 1.0);
            self.add(c);
            QCOMPARE(int(evalbWords(t).size()), keptWords(t));
            // Relabel the (k mod m)-th phrase node below the root (preorder) of a copy.
            Tree copy = t;
            std::vector<Tree*> phrases;
            std::function<void(Tree&)> walk = [&](Tree& u) {
                if (u.isLeaf() || u.isPreterminal()) return;
                phrases.push_back(&u);
                for (auto& ch : u.children)
                    walk(ch);
            };
            for (auto& ch : copy.children)
                walk(ch);
            QVERIFY(!phrases.empty());
            Tree* victim = phrases[k % phrases.size()];
            bool scored =
                keptWords(*victim) > 0; // phrases over only punctuation/traces are dropped
            victim->label = "ZZZ";
            BracketCounts p = evalbSentence(t, copy);
            COMPARE_COUNTS(p, C(c.gold - (scored ? 1 : 0), c.gold, c.gold));
            relabeledScored += scored ? 1 : 0;
            auto bs = evalbBrackets(copy);
            QCOMPARE(long(std::count_if(bs.begin(), bs.end(),
                                        [](const LabeledSpan& s) { return s.label == "ZZZ"; })),
                     scored ? 1L : 0L);
            perturbed.add(p);
        }
        QCOMPARE(self.total.f1(), 1.0);
        QCOMPARE(self.exactMatches, int(trees.size()));
        QCOMPARE(perturbed.total.matched, self.total.matched - relabeledScored);
    }
    void devTreebankRaw() {
        std::vector<Tree> trees = readTreebank(testdata::ptbDir("dev"));
        QCOMPARE(int(trees.size()), 319);
        CorpusEvaluation self, perturbed;
        long relabeled = 0;
        checkSelfAndRelabel(trees, self, perturbed, relabeled);
        if (QTest::currentTestFailed()) return;
        QVERIFY(relabeled > 250);
        qInfo("dev raw: %d sentences, %ld scored brackets; %ld relabeled -> P=R=F1=%.4f, avg "
              "sentence F1 %.4f",
              self.sentences, self.total.gold, relabeled, perturbed.total.f1(),
              perturbed.averageSentenceF1());
    }
    void devTreebankNormalized() {
        const std::vector<Tree> raw = readTreebank(testdata::ptbDir("dev"));
        const std::vector<Tree> norm = readNormalizedTreebank(testdata::ptbDir("dev"));
        CorpusEvaluation self, perturbed, rawVsNorm;
        long relabeled = 0;
        checkSelfAndRelabel(norm, self, perturbed, relabeled);
        if (QTest::currentTestFailed()) return;
        for (std::size_t k = 0; k < raw.size(); ++k) {
            // Normalization only deletes traces (EVALB deletes them too), strips function tags
            // (EVALB too), maps ADVP to PRT (EQ_LABEL) and merges X -> X unaries: every normalized
            // bracket matches a raw one; the raw-only ones are the merged duplicates.
            QCOMPARE(evalbWords(norm[k]), evalbWords(raw[k]));
            BracketCounts c = evalbSentence(raw[k], norm[k]);
            QCOMPARE(c.matched, c.test);
            rawVsNorm.add(c);
        }
        QVERIFY(rawVsNorm.total.gold > rawVsNorm.total.test);
        qInfo("dev normalized: %ld scored brackets (raw %ld); %ld relabeled -> F1 %.4f",
              self.total.gold, rawVsNorm.total.gold, relabeled, perturbed.total.f1());
    }
    void rewardF1DefinedWhenPunctuationTagsDiffer() {
        // The parser tagged the final "." as NN: EVALB rejects the pair (length mismatch),
        // but the reward F1 scores it with gold's punctuation decisions. Regression test for
        // a crash of GUI flips and rCP rollouts on such parses.
        Tree gold = T("(ROOT (S (NP (DT The) (NN dog)) (VP (VBZ barks)) (. .)))");
        Tree test = T("(ROOT (S (NP (DT The) (NN dog)) (VP (VBZ barks) (NP (NN .)))))");
        QVERIFY(!tryEvalbSentence(gold, test).has_value());
        BracketCounts c = rewardBracketCounts(gold, test);
        // gold: S(0,3) NP(0,2) VP(2,3); test (with "." deleted by gold's tag): S(0,3) NP(0,2)
        // VP(2,3); the NP over "." covers only punctuation and is dropped.
        QCOMPARE(c.gold, 3L);
        QCOMPARE(c.test, 3L);
        QCOMPARE(c.matched, 3L);
        QCOMPARE(sentenceF1(gold, test), 1.0);
        // Different words are still an error.
        Tree other = T("(ROOT (S (NP (DT The) (NN cat)) (VP (VBZ barks)) (. .)))");
        QVERIFY_THROWS_EXCEPTION(EvalbMismatch, sentenceF1(gold, other));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestEvalb)
#include "test_evalb.moc"
