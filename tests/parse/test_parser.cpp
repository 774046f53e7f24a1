// Pruned weighted CKY (Alg. 1), the grammar file and the corpus evaluator on real data.
#include "core/eval/CorpusEvaluator.h"
#include "core/grammar/GrammarFile.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/parse/Parser.h"
#include "core/parse/SpanBracketing.h"
#include "core/policy/GoldSpans.h"
#include "core/treebank/Binarize.h"
#include "core/treebank/TreebankReader.h"
#include "core/util/Error.h"
#include "support/SharedGrammar.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

using namespace prunescope;
using testdata::normalizedTrees;
using testdata::trainGrammar;

namespace {
// Log probability of a binarized tree under g, summed in the parser's order.
float treeLogProb(const Grammar& g, const Tree& t, int& pos, bool isRootChild) {
    (void)isRootChild;
    if (t.isPreterminal()) {
        const SymbolId x = g.symbolId(t.label);
        for (const auto& e : g.lexicalEntries(t.children[0].label, pos++))
            if (e.tag == x) return e.logProb;
        throw std::runtime_error("no lexical entry for " + t.toString());
    }
    const SymbolId x = g.symbolId(t.label);
    if (t.children.size() == 1) {
        const float c = treeLogProb(g, t.children[0], pos, false);
        const SymbolId y = g.symbolId(t.children[0].label);
        for (const auto& u : g.unary)
            if (u.parent == x && u.child == y) return c + u.logProb;
        throw std::runtime_error("no unary rule for " + t.label);
    }
    const float l = treeLogProb(g, t.children[0], pos, false);
    const float r = treeLogProb(g, t.children[1], pos, false);
    const SymbolId y = g.symbolId(t.children[0].label), z = g.symbolId(t.children[1].label);
    for (const auto& b : g.binary)
        if (b.parent == x && b.left == y && b.right == z) return binaryEdgeScore(l, r, b.logProb);
    throw std::runtime_error("no binary rule for " + t.label);
}
float rootedLogProb(const Grammar& g, const Tree& binarized) {
    int pos = 0;
    const float c = treeLogProb(g, binarized.children[0], pos, true);
    return c + g.rootLogProb[g.symbolId(binarized.children[0].label)];
}
std::vector<const Tree*> shortTrees(const std::string& split, int maxLen, std::size_t limit) {
    std::vector<const Tree*> out;
    for (const auto& t : normalizedTrees(split))
        if (t.size() <= maxLen && out.size() < limit) out.push_back(&t);
    return out;
}
} // namespace

class TestParser : public QObject {
    Q_OBJECT
  private slots:
    void grammarFileRoundTrip() {
        const Grammar& g = trainGrammar();
        const std::string text = grammarToString(g);
        Grammar back = grammarFromString(text, "roundtrip.gram");
        QCOMPARE(grammarToString(back), text);
        QCOMPARE(back.binary.size(), g.binary.size());
        for (std::size_t r = 0; r < g.binary.size(); ++r) {
            QCOMPARE(back.binary[r].logProb, g.binary[r].logProb); // bit-identical floats
            QCOMPARE(back.binary[r].parent, g.binary[r].parent);
        }
        const std::string dir = testdata::tempDir("gram");
        saveGrammar(g, dir + "/g.gram");
        QCOMPARE(grammarToString(loadGrammar(dir + "/g.gram")), text);
    }
    void grammarIsNormalized() {
        // Relative frequencies: every parent's expansions sum to one.
        const Grammar& g = trainGrammar();
        std::vector<double> mass(g.numSymbols(), 0.0);
        for (const auto& r : g.binary)
            mass[r.parent] += std::exp(double(r.logProb));
        for (const auto& r : g.unary)
            mass[r.parent] += std::exp(double(r.logProb));
        for (const auto& r : g.rootRules)
            mass[r.parent] += std::exp(double(r.logProb));
        for (const auto& entries : g.lexicon)
            for (const auto& e : entries)
                mass[e.tag] += std::exp(double(e.logProb));
        int checked = 0;
        for (int x = 0; x < g.numSymbols(); ++x) {
            if (mass[x] == 0) continue;
            QVERIFY2(std::abs(mass[x] - 1.0) < 1e-4, g.symbols[x].c_str());
            ++checked;
        }
        QVERIFY(checked > 100);
    }
    void grammarFileErrors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a grammar") << "hello world\n" << 1 << "not a PruneScope grammar";
        QTest::newRow("version") << "prunescope-grammar 7\n"
                                 << 1 << "unsupported grammar format version 7";
        QTest::newRow("truncated") << "prunescope-grammar 1\noptions {}\nsymbols 2\nROOT\n"
                                   << 4 << "unexpected end of file";
        QTest::newRow("unknown symbol") << "prunescope-grammar 1\noptions {}\nsymbols "
                                           "2\nROOT\nS\nroot ROOT\nbinary 1\nS S NP -1\n"
                                        << 8 << "unknown symbol 'NP'";
        QTest::newRow("bad number") << "prunescope-grammar 1\noptions {}\nsymbols 2\nROOT\nS\nroot "
                                       "ROOT\nbinary 1\nS S S x1\n"
                                    << 8 << "not a number";
        QTest::newRow("bad json") << "prunescope-grammar 1\noptions {oops\n"
                                  << 2 << "bad options JSON";
    }
    void grammarFileErrors() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, message);
        try {
            grammarFromString(text.toStdString(), "bad.gram");
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), std::string("bad.gram"));
            QCOMPARE(e.line(), line);
            QVERIFY2(std::string(e.what()).find(message.toStdString()) != std::string::npos,
                     e.what());
        }
        try {
            loadGrammar("/nonexistent/dir/missing.gram");
            QFAIL("no error");
        } catch (const InputError& e) {
            QVERIFY(std::string(e.what()).find("missing.gram") != std::string::npos);
        }
    }
    void allKeepMaskEqualsUnpruned() {
        const Grammar& g = trainGrammar();
        Parser a(g), b(g);
        for (const Tree* t : shortTrees("dev", 25, 40)) {
            auto w = t->words();
            PruningMask m = PruningMask::allKeep(static_cast<int>(w.size()));
            ParseStats sa = a.parse(w), sb = b.parse(w, &m);
            QCOMPARE(sa.pushes, sb.pushes);
            QCOMPARE(sa.constituents, sb.constituents);
            QCOMPARE(sa.logProb, sb.logProb);
            QVERIFY(toDense(a.chart()).pre == toDense(b.chart()).pre);
            QVERIFY(toDense(a.chart()).postWitness == toDense(b.chart()).postWitness);
            QCOMPARE(bestTree(g, a.chart(), w), bestTree(g, b.chart(), w));
        }
    }
    void reusedParserEqualsFreshParser() {
        // The parser keeps its scratch (item lists, chart capacity) across sentences and clears
        // only what the last parse wrote; lengths going up and down must not leak state.
        const Grammar& g = trainGrammar();
        Parser reused(g);
        std::vector<const Tree*> trees = shortTrees("dev", 40, 400);
        std::stable_sort(trees.begin(), trees.end(),
                         [](const Tree* a, const Tree* b) { return a->size() > b->size(); });
        QVERIFY(trees.size() > 12);
        const std::vector<const Tree*> order = {trees[0], trees.back(), trees[1],
                                                trees[trees.size() / 2], trees[2]};
        for (const Tree* t : order) {
            auto w = t->words();
            Parser fresh(g);
            const ParseStats a = reused.parse(w), b = fresh.parse(w);
            QCOMPARE(a.pushes, b.pushes);
            QCOMPARE(a.constituents, b.constituents);
            const DenseChart r = toDense(reused.chart()), f = toDense(fresh.chart());
            QVERIFY(r.pre == f.pre);
            QVERIFY(r.post == f.post);
            QVERIFY(r.preWitness == f.preWitness);
            QVERIFY(r.postWitness == f.postWitness);
        }
    }
    void memoryAtFortyWords() {
        // The memory budget: chart plus parser scratch at most 64 MiB for a 40-word sentence.
        const Grammar& g = trainGrammar();
        Parser p(g);
        const Tree* longest = nullptr;
        for (const Tree* t : shortTrees("dev", 40, 400))
            if (!longest || t->size() > longest->size()) longest = t;
        QVERIFY(longest && longest->size() >= 38);
        std::vector<std::string> w = longest->words();
        while (w.size() < 40)
            w.push_back(w[w.size() % longest->size()]);
        QVERIFY(p.parse(w).pushes > 0);
        const double mib = (p.chart().memoryBytes() + p.scratchBytes()) / 1048576.0;
        qInfo("chart %.1f MiB + scratch %.1f MiB", p.chart().memoryBytes() / 1048576.0,
              p.scratchBytes() / 1048576.0);
        QVERIFY2(mib <= 64.0, qPrintable(QString::number(mib)));
    }
    void bestScoreIsSumOfRuleLogProbs() {
        const Grammar& g = trainGrammar();
        Parser p(g);
        int parsed = 0;
        for (const Tree* t : shortTrees("dev", 30, 80)) {
            auto w = t->words();
            ParseStats st = p.parse(w);
            if (!st.success) continue;
            ++parsed;
            Tree bt = bestBinarizedTree(g, p.chart(), w);
            QCOMPARE(bt.words(), w);
            QCOMPARE(rootedLogProb(g, bt), static_cast<float>(st.logProb)); // exact: same float ops
            QCOMPARE(debinarize(bt), bestTree(g, p.chart(), w));
        }
        QVERIFY(parsed >= 75);
    }
    void goldSpanMaskStillParses() {
        // Keeping exactly the binarized gold spans must leave a derivation whenever the grammar
        // derives the gold tree: true for every training tree (its rules were counted).
        const Grammar& g = trainGrammar();
        Parser p(g);
        int checked = 0;
        for (const Tree* t : shortTrees("train", 40, 300)) {
            Tree b = binarizeLike(g, *t);
            auto w = t->words();
            PruningMask m = spanMask(b);
            ParseStats st = p.parse(w, &m);
            QVERIFY2(st.success, t->toString().c_str());
            // The gold derivation survives the mask, so the best score is at least its score.
            QVERIFY(st.logProb >= rootedLogProb(g, b) - 1e-3);
            QCOMPARE(st.spansKept, m.keptCount());
            ++checked;
        }
        QCOMPARE(checked, 300);
    }
    void pruningNeverRaisesTheScore() {
        const Grammar& g = trainGrammar();
        Parser p(g);
        std::mt19937 rng(7);
        for (const Tree* t : shortTrees("dev", 30, 40)) {
            auto w = t->words();
            const int n = static_cast<int>(w.size());
            ParseStats full = p.parse(w);
            PruningMask m = PruningMask::allKeep(n);
            std::bernoulli_distribution keep(0.6);
            for (int wd = 2; wd < n; ++wd)
                for (int i = 0; i + wd <= n; ++i)
                    m.set(i, i + wd, keep(rng));
            ParseStats pr = p.parse(w, &m);
            QVERIFY(pr.pushes <= full.pushes);
            QVERIFY(pr.constituents <= full.constituents);
            if (pr.success) QVERIFY(pr.logProb <= full.logProb);
            if (!pr.success) {
                Tree fallback = bestTree(g, p.chart(), w);
                QCOMPARE(fallback.words(), w);
                QCOMPARE(fallback.children.size(), w.size()); // flat: ROOT over preterminals
            }
        }
    }
    // SpanBracketing against a naive recursion over splits (random masks, every n <= 70, so
    // bracketings spanning two 64-bit words too), and against the parser: no bracketing means no
    // parse.
    void spanBracketingMatchesNaiveAndTheParser() {
        std::mt19937 rng(11);
        SpanBracketing fast;
        int without = 0, with = 0;
        for (int n = 1; n <= 70; ++n)
            for (double pruneP : {0.3, 0.7, 0.9, 0.97})
                for (int rep = 0; rep < 6; ++rep) {
                    PruningMask m = PruningMask::allKeep(n);
                    std::bernoulli_distribution prune(pruneP);
                    for (int w = 2; w < n; ++w)
                        for (int i = 0; i + w <= n; ++i)
                            if (prune(rng)) m.set(i, i + w, false);
                    std::vector<signed char> memo(static_cast<std::size_t>((n + 1) * (n + 1)), -1);
                    std::function<bool(int, int)> naive = [&](int i, int k) -> bool {
                        signed char& r = memo[static_cast<std::size_t>(i * (n + 1) + k)];
                        if (r >= 0) return r;
                        bool ok = k - i == 1;
                        if (!ok && (k - i == n || m.keep(i, k)))
                            for (int j = i + 1; j < k && !ok; ++j)
                                ok = naive(i, j) && naive(j, k);
                        return (r = ok);
                    };
                    const bool expected = naive(0, n);
                    QCOMPARE(fast.exists(m), expected);
                    (expected ? with : without) += 1;
                }
        QVERIFY(with > 100 && without > 100); // both answers were exercised
        QVERIFY(!fast.exists(PruningMask{})); // an empty sentence has no bracketing

        const Grammar& g = trainGrammar();
        Parser p(g);
        int failedParses = 0;
        for (const Tree* t : shortTrees("dev", 30, 40)) {
            const auto w = t->words();
            const int n = static_cast<int>(w.size());
            for (double keepP : {0.2, 0.5}) {
                PruningMask m = PruningMask::allKeep(n);
                std::bernoulli_distribution keep(keepP);
                for (int wd = 2; wd < n; ++wd)
                    for (int i = 0; i + wd <= n; ++i)
                        m.set(i, i + wd, keep(rng));
                const ParseStats st = p.parse(w, &m);
                if (!fast.exists(m)) QVERIFY(!st.success);
                if (st.success) QVERIFY(fast.exists(m));
                failedParses += !st.success;
            }
        }
        QVERIFY(failedParses > 0);
    }
    void countersOnAHandGrammar() {
        // S -> NP VP, NP -> D N, VP -> V NP ; "the dog saw the cat": pushes by hand.
        Grammar g;
        g.symbols = {"ROOT", "S", "NP", "VP", "D", "N", "V"};
        g.root = 0;
        g.binary = {
            {1, 2, 3, std::log(1.0f)}, {2, 4, 5, std::log(1.0f)}, {3, 6, 2, std::log(1.0f)}};
        g.rootRules = {{0, 1, std::log(1.0f)}};
        g.words = {"the", "dog", "saw", "cat"};
        g.lexicon = {{{4, 0.f}}, {{5, std::log(0.5f)}}, {{6, 0.f}}, {{5, std::log(0.5f)}}};
        g.finalize();
        Parser p(g);
        std::vector<std::string> w = {"the", "dog", "saw", "the", "cat"};
        ParseStats st = p.parse(w);
        QVERIFY(st.success);
        // 5 lexical + NP(0,2) + NP(3,5) + VP(2,5) + S(0,5) + ROOT = 10 pushes.
        QCOMPARE(st.pushes, 10L);
        QCOMPARE(st.constituents, 5L + 4L);
        QCOMPARE(bestTree(g, p.chart(), w).toString(),
                 std::string("(ROOT (S (NP (D the) (N dog)) (VP (V saw) (NP (D the) (N cat)))))"));
        QCOMPARE(static_cast<float>(st.logProb), 2 * std::log(0.5f));
        PruningMask m = PruningMask::allKeep(5);
        m.set(2, 5, false); // prune VP: no parse
        st = p.parse(w, &m);
        QVERIFY(!st.success);
        QCOMPARE(st.spansKept, PruningMask::prunableCount(5) - 1);
        QCOMPARE(bestTree(g, p.chart(), w).toString(),
                 std::string("(ROOT (D the) (N dog) (V saw) (D the) (N cat))"));
    }
    void badInput() {
        const Grammar& g = trainGrammar();
        Parser p(g);
        std::vector<std::string> empty;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, p.parse(empty));
        std::vector<std::string> w = {"a", "b", "c"};
        PruningMask m = PruningMask::allKeep(4);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, p.parse(w, &m));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m.set(0, 4, false)); // whole sentence
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m.set(1, 2, false)); // width 1
        // Unknown words of every shape still parse (signatures / fallback).
        std::vector<std::string> odd = {"Zzyzx", "qwrtp-ing", "1,234.5", "@#$%", "blorfed", "."};
        QVERIFY(p.parse(odd).success);
        // A 200-word sentence (heavily pruned, to keep the test quick) parses without trouble.
        std::vector<std::string> longSentence;
        for (const auto& t : normalizedTrees("dev"))
            for (const auto& x : t.words())
                if (longSentence.size() < 200) longSentence.push_back(x);
        PruningMask lm = PruningMask::allKeep(200);
        for (int wd = 2; wd < 200; ++wd)
            for (int i = 0; i + wd <= 200; ++i)
                lm.set(i, i + wd, (i % 10 == 0) || wd <= 3);
        ParseStats st = p.parse(longSentence, &lm);
        QCOMPARE(bestTree(g, p.chart(), longSentence).words(), longSentence);
        QVERIFY(st.pushes > 0);
    }
    void maskJson() {
        PruningMask m = PruningMask::allKeep(6);
        m.set(0, 2, false);
        m.set(3, 6, false);
        QCOMPARE(PruningMask::fromJson(m.toJson()), m);
        QCOMPARE(m.keptCount(), PruningMask::prunableCount(6) - 2);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PruningMask::fromJson(nlohmann::json::parse(
                                                            R"({"n":4,"pruned":[[0,4]]})")));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 PruningMask::fromJson(nlohmann::json::parse(R"({"pruned":[]})")));
    }
    void devAccuracyIsSane() {
        // Guards against silent regressions in the whole pipeline (reader, binarizer, grammar,
        // CKY, debinarizer, EVALB): a plain treebank PCFG on this sample gets ~70 F1.
        const Grammar& g = trainGrammar();
        std::vector<Tree> gold;
        for (const Tree* t : shortTrees("dev", 20, 1000))
            gold.push_back(*t);
        CorpusResult r = evaluateCorpus(g, gold, MaskFunction{});
        QVERIFY2(r.f1() > 0.65 && r.f1() < 0.90, std::to_string(r.f1()).c_str());
        QVERIFY(r.failures <= 2);
        QCOMPARE(static_cast<int>(r.sentences.size()), static_cast<int>(gold.size()));
    }
    void corpusEvaluationIsIdenticalForAnyThreadCount() {
        // evaluateCorpus parses sentences on several workers and merges them in tree order: every
        // number but the timings must be the one-thread result, skipped sentences included.
        const Grammar& g = trainGrammar();
        std::vector<Tree> gold;
        for (const Tree* t : shortTrees("dev", 25, testdata::kUnderSanitizer ? 30 : 120))
            gold.push_back(*t);
        // A budget that fits 20 words but not 25, so some sentences are refused (and listed).
        std::size_t budget = 1 << 20;
        for (;; budget += 1 << 18) {
            Parser probe(g);
            probe.setMemoryBudget(budget);
            try {
                probe.checkFits(20);
                break;
            } catch (const SentenceTooLarge&) {
            }
        }
        {
            Parser probe(g);
            probe.setMemoryBudget(budget);
            QVERIFY_THROWS_EXCEPTION(SentenceTooLarge, probe.checkFits(25));
        }
        const MaskFunction mask = [](std::span<const std::string> words) { // stateless: thread-safe
            const int n = static_cast<int>(words.size());
            PruningMask m = PruningMask::allKeep(n);
            for (int i = 0; i < n; ++i)
                for (int j = i + 2; j <= n; ++j)
                    if ((i * 7 + j * 3 + n) % 4 == 0 && PruningMask::prunable(n, i, j))
                        m.set(i, j, false);
            return m;
        };
        EvaluationOptions opt;
        opt.keepTrees = true;
        opt.memoryBudget = budget;
        opt.threads = 1;
        const CorpusResult one = evaluateCorpus(g, gold, mask, opt);
        QVERIFY(one.skippedTooLarge > 0);
        QVERIFY(!one.sentences.empty());
        QCOMPARE(one.threads, 1);
        for (int threads : {2, 3}) {
            opt.threads = threads;
            const CorpusResult many = evaluateCorpus(g, gold, mask, opt);
            QCOMPARE(many.threads, threads);
            QCOMPARE(many.skippedSentences, one.skippedSentences);
            QCOMPARE(many.sentences.size(), one.sentences.size());
            for (std::size_t k = 0; k < one.sentences.size(); ++k) {
                const SentenceResult &a = one.sentences[k], &b = many.sentences[k];
                QCOMPARE(b.length, a.length);
                QCOMPARE(b.stats.pushes, a.stats.pushes);
                QCOMPARE(b.stats.constituents, a.stats.constituents);
                QCOMPARE(b.stats.success, a.stats.success);
                QVERIFY(b.stats.logProb == a.stats.logProb);
                QCOMPARE(b.f1, a.f1);
                QVERIFY(b.tree == a.tree);
            }
            QCOMPARE(many.words, one.words);
            QCOMPARE(many.failures, one.failures);
            QCOMPARE(many.evalb.errorSentences, one.evalb.errorSentences);
            QCOMPARE(many.f1(), one.f1());
            QCOMPARE(many.evalb.averageSentenceF1(), one.evalb.averageSentenceF1());
        }
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestParser)
#include "test_parser.moc"
