// Split-merge training (Petrov et al. 2006; core/grammar/SplitMerge.h) against its contracts: the
// scaled inside pass against a naive unscaled one over the written fine grammar, likelihood kept
// by a zero-perturbation split and by merging every split right after it, EM never lowering the
// training likelihood, bit-identical results for 1 and 2 threads, the fine grammar file's round
// trip and projection, resuming from a checkpoint, a parse of dev with an SM-1 grammar, bad input.
#include "core/eval/CorpusEvaluator.h"
#include "core/grammar/GrammarFile.h"
#include "core/grammar/SplitMerge.h"
#include "core/treebank/Binarize.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/UnknownWords.h"
#include "core/util/Error.h"

#include "support/TestData.h"
#include "support/TestSuite.h"

#include <cmath>
#include <filesystem>

using namespace prunescope;

namespace {

// The first n WSJ sample training trees, normalized (read once).
const std::vector<Tree>& trainTrees(std::size_t n) {
    static const std::vector<Tree> all = readNormalizedTreebank(testdata::ptbDir("train"));
    static std::map<std::size_t, std::vector<Tree>> cut;
    auto& v = cut[n];
    if (v.empty()) v.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
    return v;
}

GrammarOptions markov0() {
    GrammarOptions o;
    o.binarize.horizontalMarkov = 0;
    return o;
}

struct Setup {
    Grammar base;
    LatentGrammar latent;
    LatentTrees trees;
};
Setup setup(std::size_t n) {
    Setup s;
    s.base = estimatePcfgFromNormalized(trainTrees(n), markov0());
    s.latent = latentFromBase(s.base);
    s.trees = compileLatentTrees(s.base, s.latent, trainTrees(n));
    return s;
}

bool close(double a, double b, double rel) {
    return std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b));
}

// Naive: the unscaled inside probability of a binarized gold tree summed over every refinement
// of every node, rules looked up by name in the fine Grammar (log-sum-exp per node).
double naiveInside(const Grammar& f, const Tree& t, int& pos, std::vector<double>& out) {
    std::vector<SymbolId> refs;
    for (SymbolId x = 0; x < static_cast<SymbolId>(f.symbols.size()); ++x)
        if (f.baseLabel[x] == t.label) refs.push_back(x);
    out.assign(f.symbols.size(), -INFINITY);
    auto lse = [](double a, double b) {
        if (a == -INFINITY) return b;
        if (b == -INFINITY) return a;
        const double m = std::max(a, b);
        return m + std::log(std::exp(a - m) + std::exp(b - m));
    };
    if (t.isPreterminal()) {
        for (const auto& e : f.lexicalEntries(t.children[0].label, pos))
            if (f.baseLabel[e.tag] == t.label) out[e.tag] = e.logProb;
        ++pos;
        return 0;
    }
    if (t.children.size() == 1) {
        std::vector<double> c;
        naiveInside(f, t.children[0], pos, c);
        const auto& rules = t.label == "ROOT" ? f.rootRules : f.unary;
        for (const auto& r : rules)
            if (f.baseLabel[r.parent] == t.label && c[r.child] != -INFINITY)
                out[r.parent] = lse(out[r.parent], r.logProb + c[r.child]);
        return 0;
    }
    std::vector<double> l, r;
    naiveInside(f, t.children[0], pos, l);
    naiveInside(f, t.children[1], pos, r);
    for (const auto& b : f.binary)
        if (f.baseLabel[b.parent] == t.label && l[b.left] != -INFINITY && r[b.right] != -INFINITY)
            out[b.parent] = lse(out[b.parent], b.logProb + l[b.left] + r[b.right]);
    return 0;
}

} // namespace

class TestSplitMerge : public QObject {
    Q_OBJECT
  private slots:
    void scaledInsideMatchesNaiveOverTheFineGrammar() {
        Setup s = setup(60);
        const LatentGrammar split = splitLatent(s.latent, 0.05, 7);
        const Grammar f = fineGrammar(split);
        for (std::size_t i = 0; i < 12; ++i) {
            const Tree b = binarizeLike(s.base, trainTrees(60)[i]);
            int pos = 0;
            std::vector<double> in;
            naiveInside(f, b, pos, in);
            LatentTrees one;
            one.trees.push_back(s.trees.trees[i]);
            const double fast = latentLogLikelihood(split, one);
            QVERIFY2(close(fast, in[f.root], 1e-5),
                     qPrintable(QString("tree %1: %2 vs %3").arg(i).arg(fast).arg(in[f.root])));
        }
    }

    void longTreesDoNotUnderflow() {
        // The longest training tree: its likelihood is far below the smallest double (log <
        // -745), which the scaled inside pass still gives finitely, as the naive sum in log space.
        const std::size_t n = readNormalizedTreebank(testdata::ptbDir("train")).size();
        std::size_t longest = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (trainTrees(n)[i].size() > trainTrees(n)[longest].size()) longest = i;
        QVERIFY(trainTrees(n)[longest].size() >= 100);
        Setup s = setup(n);
        LatentGrammar g = splitLatent(splitLatent(s.latent, 0.01, 1), 0.01, 2);
        LatentTrees one;
        one.trees.push_back(s.trees.trees[longest]);
        const double ll = latentLogLikelihood(g, one);
        QVERIFY2(std::isfinite(ll) && ll < -745, qPrintable(QString::number(ll)));
        // Against the naive sum over the fine grammar, in log space.
        const Grammar f = fineGrammar(g);
        const Tree b = binarizeLike(s.base, trainTrees(n)[longest]);
        int pos = 0;
        std::vector<double> in;
        naiveInside(f, b, pos, in);
        QVERIFY2(close(ll, in[f.root], 1e-5),
                 qPrintable(QString("%1 vs %2").arg(ll).arg(in[f.root])));
    }

    void zeroPerturbationSplitKeepsLikelihood() {
        Setup s = setup(200);
        const double before = latentLogLikelihood(s.latent, s.trees);
        const LatentGrammar split = splitLatent(s.latent, 0.0, 1);
        QCOMPARE(split.subs[s.latent.root], 1);
        QCOMPARE(split.subs[(s.latent.root + 1) % s.latent.subs.size()], 2);
        const double after = latentLogLikelihood(split, s.trees);
        QVERIFY(std::isfinite(before));
        QVERIFY2(close(before, after, 1e-10),
                 qPrintable(QString("%1 vs %2").arg(before).arg(after)));
        // A perturbed split changes it (the test can fail).
        const double perturbed = latentLogLikelihood(splitLatent(s.latent, 0.01, 1), s.trees);
        QVERIFY(!close(before, perturbed, 1e-10));
    }

    void emNeverLowersTrainingLikelihood() {
        Setup s = setup(200);
        LatentGrammar g = splitLatent(s.latent, 0.01, 3);
        const SmoothingOptions none{0.0, 0.0};
        double last = -INFINITY;
        for (int it = 0; it < 6; ++it) {
            EmStep step = emIteration(g, s.trees, none);
            QVERIFY2(
                step.logLikelihood >= last - 1e-9 * std::fabs(last),
                qPrintable(
                    QString("iteration %1: %2 < %3").arg(it).arg(step.logLikelihood).arg(last)));
            last = step.logLikelihood;
            g = std::move(step.next);
        }
        // ... and it did learn something: above the split grammar's start.
        QVERIFY(last > latentLogLikelihood(splitLatent(s.latent, 0.01, 3), s.trees) + 1.0);
    }

    void mergingEverySplitRightAfterSplittingRestoresLikelihood() {
        Setup s = setup(200);
        const double before = latentLogLikelihood(s.latent, s.trees);
        const LatentGrammar split = splitLatent(s.latent, 0.0, 1);
        int merged = 0;
        const LatentGrammar back = mergeLatent(split, s.trees, 1.0, 1, &merged);
        QCOMPARE(merged, static_cast<int>(s.latent.symbols.size()) - 1);
        QCOMPARE(back.subs, s.latent.subs);
        QVERIFY(close(before, latentLogLikelihood(back, s.trees), 1e-10));
        // The losses of such symmetric splits are 0: nothing to tell the halves apart.
        for (const auto& p : mergeLosses(split, s.trees))
            QVERIFY(std::fabs(p.loss) < 1e-6);
        // After EM the halves differ and merging half of them loses likelihood, not all of it.
        LatentGrammar g = splitLatent(s.latent, 0.01, 5);
        for (int it = 0; it < 3; ++it)
            g = emIteration(g, s.trees, SmoothingOptions{0, 0}).next;
        const double trained = latentLogLikelihood(g, s.trees);
        const LatentGrammar half = mergeLatent(g, s.trees, 0.5, 1, &merged);
        QCOMPARE(merged, static_cast<int>(std::llround(0.5 * (s.latent.symbols.size() - 1))));
        const double halfLl = latentLogLikelihood(half, s.trees);
        QVERIFY(halfLl <= trained + 1e-6);
        QVERIFY(halfLl > before);
    }

    void anyThreadCountGivesBitIdenticalGrammars() {
        Setup s = setup(300);
        const LatentGrammar g = splitLatent(s.latent, 0.01, 11);
        const EmStep one = emIteration(g, s.trees, SmoothingOptions{}, 1);
        const EmStep two = emIteration(g, s.trees, SmoothingOptions{}, 2);
        QVERIFY(one.next.prob == two.next.prob);
        QVERIFY(one.next.fallback == two.next.fallback);
        QCOMPARE(one.logLikelihood, two.logLikelihood);
        const LatentGrammar m1 = mergeLatent(one.next, s.trees, 0.5, 1);
        const LatentGrammar m2 = mergeLatent(one.next, s.trees, 0.5, 2);
        QVERIFY(m1.subs == m2.subs);
        QVERIFY(m1.prob == m2.prob);
    }

    void fineGrammarFileRoundTrips() {
        Setup s = setup(150);
        LatentGrammar g =
            emIteration(splitLatent(s.latent, 0.01, 2), s.trees, SmoothingOptions{}).next;
        const Grammar f = fineGrammar(g, {{"splitMerge", {{"cycle", 1}}}});
        QCOMPARE(f.symbols[f.root], std::string("ROOT"));
        QCOMPARE(f.baseLabel.size(), f.symbols.size());
        const std::string text = grammarToString(f);
        const Grammar back = grammarFromString(text, "fine.gram");
        QCOMPARE(grammarToString(back), text);
        QVERIFY(back.baseLabel == f.baseLabel);
        // The refinement probabilities come back (as floats) into the base rules.
        const LatentGrammar again = latentFromFine(s.latent, back);
        QVERIFY(again.subs == g.subs);
        for (std::size_t i = 0; i < g.prob.size(); ++i)
            QVERIFY(close(again.prob[i], g.prob[i], 1e-6) || (g.prob[i] < 1e-40));
        // A symbol line without a base symbol among lines with one is refused, with its line.
        std::string bad = text;
        const std::size_t at = bad.find(" ROOT\n"); // "ROOT ROOT": the first symbol line
        bad.erase(at, 5);
        try {
            grammarFromString(bad, "fine.gram");
            QFAIL("mixed symbol lines accepted");
        } catch (const InputError& e) {
            QVERIFY(std::string(e.what()).find("fine.gram:") != std::string::npos);
        }
    }

    void sm1GrammarParsesDevAndScores() {
        SplitMergeOptions opt;
        opt.cycles = 1;
        opt.grammar = markov0();
        opt.splitIterations = 8;
        opt.mergeIterations = 4;
        opt.threads = 2;
        SplitMergeReport rep;
        const Grammar f = trainSplitMerge(trainTrees(300), {}, opt, {}, &rep);
        QVERIFY(rep.heldOut);
        QCOMPARE(rep.devTrees + rep.devSkipped, std::size_t{15});
        QCOMPARE(rep.cycles.size(), std::size_t{1});
        QVERIFY(rep.cycles[0].splitIterations >= 1);
        QVERIFY(!f.baseLabel.empty());
        // Through the file, as `eval --grammar` reads it.
        const Grammar g = grammarFromString(grammarToString(f), "sm1.gram");
        std::vector<Tree> dev = readNormalizedTreebank(testdata::ptbDir("dev"), 60);
        EvaluationOptions eo;
        eo.maxLength = 15;
        eo.keepTrees = true;
        const CorpusResult r = evaluateCorpus(g, dev, MaskFunction{}, eo);
        QVERIFY(r.sentences.size() >= 5);
        QVERIFY2(r.f1() > 0.4, qPrintable(QString("F1 %1").arg(r.f1())));
        // Output trees carry base symbols: no refinement mark, no '@' intermediate.
        for (const auto& s : r.sentences)
            for (const auto& span : labeledSpans(s.tree)) {
                QVERIFY2(span.label.find('^') == std::string::npos, span.label.c_str());
                QVERIFY2(span.label.find('@') == std::string::npos, span.label.c_str());
            }
    }

    void givenDevTreesStopEmAndEveryTrainingTreeTrains() {
        const std::vector<Tree> dev = readNormalizedTreebank(testdata::ptbDir("dev"), 30);
        SplitMergeOptions opt;
        opt.cycles = 1;
        opt.grammar = markov0();
        opt.splitIterations = 4;
        opt.mergeIterations = 2;
        SplitMergeReport rep;
        const Grammar f = trainSplitMerge(trainTrees(200), dev, opt, {}, &rep);
        QVERIFY(!rep.heldOut);
        QCOMPARE(rep.trainTrees, std::size_t{200});
        QCOMPARE(rep.devTrees + rep.devSkipped, std::size_t{30});
        QVERIFY(rep.devTrees > 0);
        QVERIFY(std::isfinite(rep.cycles[0].devLogLikelihood) &&
                rep.cycles[0].devLogLikelihood < 0);
        QCOMPARE(f.options["splitMerge"]["settings"]["devTrees"].get<std::size_t>(),
                 std::size_t{30});
    }

    void resumesAfterTheLastFinishedCycle() {
        const std::string dir = testdata::tempDir("split-merge-resume");
        SplitMergeOptions opt;
        opt.cycles = 1;
        opt.grammar = markov0();
        opt.splitIterations = 3;
        opt.mergeIterations = 2;
        opt.checkpointPrefix = dir + "/fine.gram";
        trainSplitMerge(trainTrees(150), {}, opt);
        QVERIFY(std::filesystem::exists(dir + "/fine.gram.sm1"));
        opt.cycles = 2;
        SplitMergeReport rep;
        const Grammar two = trainSplitMerge(trainTrees(150), {}, opt, {}, &rep);
        QCOMPARE(rep.cycles.size(), std::size_t{2});
        QVERIFY(rep.cycles[0].resumed);
        QVERIFY(!rep.cycles[1].resumed);
        QVERIFY(std::filesystem::exists(dir + "/fine.gram.sm2"));
        QCOMPARE(two.options["splitMerge"]["cycle"].get<int>(), 2);
        // Another seed is another run: its checkpoint is not resumed.
        opt.seed = 99;
        opt.cycles = 1;
        SplitMergeReport other;
        trainSplitMerge(trainTrees(150), {}, opt, {}, &other);
        QVERIFY(!other.cycles[0].resumed);
    }

    void aFineGrammarBeyondTheRuleLimitIsRefusedWithAMessage() {
        Setup s = setup(150);
        LatentGrammar g = s.latent;
        for (int k = 0; k < 4; ++k)
            g = splitLatent(g, 0.01, static_cast<std::uint64_t>(k));
        std::size_t blocks = 0;
        for (const auto& r : g.binary)
            blocks += static_cast<std::size_t>(g.subs[r.parent]) * g.subs[r.left] * g.subs[r.right];
        QVERIFY(blocks >= kMaxBinaryRules);
        try {
            fineGrammar(g);
            QFAIL("a grammar beyond the binary-rule limit was built");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("fewer split-merge cycles") != std::string::npos,
                     e.what());
        }
    }

    void badCycleCountsAreRefused() {
        for (int n : {-1, 9}) {
            SplitMergeOptions opt;
            opt.cycles = n;
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                     trainSplitMerge(trainTrees(60), {}, opt));
        }
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestSplitMerge)
#include "test_split_merge.moc"
