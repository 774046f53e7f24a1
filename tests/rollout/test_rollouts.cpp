// Rollouts (paper sec. 5): change propagation and inside-outside against naive reparsing.
#include "core/eval/Evalb.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/parse/Parser.h"
#include "core/parse/SpanBracketing.h"
#include "core/policy/GoldSpans.h"
#include "core/rollout/ChangePropagator.h"
#include "core/rollout/InsideOutside.h"
#include "core/rollout/Rollout.h"
#include "support/SharedGrammar.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <tuple>

using namespace prunescope;
using testdata::normalizedTrees;
using testdata::trainGrammar;

namespace {
// The masks every exactness test uses: all-keep and a random one (40% of the spans pruned).
std::vector<PruningMask> testMasks(int n, unsigned seed) {
    std::vector<PruningMask> masks{PruningMask::allKeep(n)};
    PruningMask m = PruningMask::allKeep(n);
    std::mt19937 rng(seed);
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            if (rng() % 100 < 40) m.set(i, i + w, false);
    masks.push_back(m);
    return masks;
}

std::vector<const Tree*> devTrees(int maxLen) {
    std::vector<const Tree*> out;
    for (const auto& t : normalizedTrees("dev"))
        if (t.size() <= maxLen) out.push_back(&t);
    return testdata::sanitizerSubset(std::move(out));
}

// A small ambiguous grammar with unary rules (probabilities need not normalize).
Grammar handGrammar() {
    Grammar g;
    g.symbols = {"ROOT", "S", "NP", "VP", "D", "N", "V", "X"};
    g.root = 0;
    auto lp = [](double p) { return static_cast<float>(std::log(p)); };
    g.binary = {{1, 2, 3, lp(0.6)}, {1, 7, 3, lp(0.2)}, {7, 4, 5, lp(0.5)},
                {2, 4, 5, lp(0.5)}, {3, 6, 2, lp(0.7)}, {3, 6, 5, lp(0.3)},
                {1, 2, 7, lp(0.1)}, {7, 6, 2, lp(0.4)}, {7, 2, 3, lp(0.05)}};
    g.unary = {{2, 5, lp(0.4)}, {7, 2, lp(0.2)}};
    g.rootRules = {{0, 1, lp(0.9)}, {0, 7, lp(0.1)}};
    g.words = {"the", "dog", "saw", "cats"};
    g.lexicon = {
        {{4, 0.f}}, {{5, lp(0.6)}, {6, lp(0.1)}}, {{6, lp(0.8)}, {5, lp(0.2)}}, {{5, lp(0.5)}}};
    g.finalize();
    return g;
}
const Tree& handGold() {
    static const Tree t{
        "ROOT",
        {Tree{
            "S",
            {Tree{"NP", {Tree{"D", {Tree{"the", {}}}}, Tree{"N", {Tree{"dog", {}}}}}},
             Tree{"VP",
                  {Tree{"V", {Tree{"saw", {}}}}, Tree{"NP", {Tree{"N", {Tree{"cats", {}}}}}}}}}}}};
    return t;
}

// Brute force over all derivations: (probability, recalled gold nodes) of the post vertex (i,k,x).
struct Deriv {
    double p;
    int count;
};
std::vector<Deriv> enumerate(const Grammar& g, const std::vector<std::string>& w,
                             const PruningMask& m, const RecallGold& gold, int i, int k,
                             std::uint32_t x, bool post) {
    std::vector<Deriv> out;
    if (post) {
        auto add = [&](std::uint32_t y, double p) {
            for (const Deriv& d : enumerate(g, w, m, gold, i, k, y, false))
                out.push_back({d.p * p, d.count + (k - i >= 2 && gold.at(i, k) == x ? 1 : 0)});
        };
        add(x, 1.0);
        for (const auto& u : g.unary)
            if (u.parent == x) add(u.child, std::exp(static_cast<double>(u.logProb)));
        return out;
    }
    if (k - i == 1) {
        for (const auto& e : g.lexicalEntries(w[i], i))
            if (e.tag == x) out.push_back({std::exp(static_cast<double>(e.logProb)), 0});
        return out;
    }
    if (!m.keep(i, k)) return out;
    for (int j = i + 1; j < k; ++j)
        for (const auto& r : g.binary) {
            if (r.parent != x) continue;
            const auto L = enumerate(g, w, m, gold, i, j, r.left, true);
            const auto R = enumerate(g, w, m, gold, j, k, r.right, true);
            for (const Deriv& a : L)
                for (const Deriv& b : R)
                    out.push_back(
                        {a.p * b.p * std::exp(static_cast<double>(r.logProb)), a.count + b.count});
        }
    return out;
}
double bruteRecall(const Grammar& g, const std::vector<std::string>& w, const PruningMask& m,
                   const RecallGold& gold) {
    double Z = 0, R = 0;
    const int n = static_cast<int>(w.size());
    for (const auto& rr : g.rootRules)
        for (const Deriv& d : enumerate(g, w, m, gold, 0, n, rr.child, true)) {
            Z += d.p * std::exp(static_cast<double>(rr.logProb));
            R += d.p * std::exp(static_cast<double>(rr.logProb)) * d.count;
        }
    return Z > 0 ? R / (gold.count * Z) : 0.0;
}

bool closeRel(double a, double b, double tol) {
    if (a == b) return true;
    return std::abs(a - b) <= tol * std::max(std::abs(a), std::abs(b));
}
} // namespace

class TestRollouts : public QObject {
    Q_OBJECT
  private slots:
    void surrogateNames() {
        QCOMPARE(std::string(surrogateName(Surrogate::CP)), std::string("rcp"));
        QCOMPARE(std::string(surrogateName(Surrogate::DP)), std::string("rdp"));
        QVERIFY(surrogateFromName("rcp") == Surrogate::CP);
        QVERIFY(surrogateFromName("rdp") == Surrogate::DP);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, surrogateFromName("rxx"));
    }

    void requestValidation() {
        const Grammar g = handGrammar();
        RolloutRequest req;
        req.words = {"the", "dog", "saw", "cats"};
        req.gold = handGold();
        req.rollIn = PruningMask::allKeep(4);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rolloutSpans(req)); // no grammar
        req.grammar = &g;
        const auto spans = rolloutSpans(req);
        QCOMPARE(spans.size(), std::size_t(5)); // T = 4*5/2 - 1 - 4
        QCOMPARE(spans.front(), std::make_pair(0, 2));
        QCOMPARE(spans.back(), std::make_pair(1, 4));
        req.spans = {{0, 4}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rolloutSpans(req)); // the whole sentence
        req.spans = {{1, 3}};
        req.rollIn = PruningMask::allKeep(5);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, naiveRollouts(req, Surrogate::CP));
    }

    void recallGoldNodes() {
        const Grammar g = handGrammar();
        const RecallGold gold = recallGold(g, handGold());
        // S(0,4), NP(0,2), VP(2,4); not ROOT, not the width-1 NP(3,4) nor preterminals.
        QCOMPARE(gold.count, 3);
        QCOMPARE(gold.at(0, 4), g.symbolId("S"));
        QCOMPARE(gold.at(0, 2), g.symbolId("NP"));
        QCOMPARE(gold.at(2, 4), g.symbolId("VP"));
        QCOMPARE(gold.at(1, 3), RecallGold::kNone);
        // A unary S over a binary VP: the VP is a unary rule's child, only S counts.
        const Tree unary{
            "ROOT",
            {Tree{"S",
                  {Tree{"VP", {Tree{"V", {Tree{"go", {}}}}, Tree{"N", {Tree{"home", {}}}}}}}}}};
        const RecallGold ug = recallGold(g, unary);
        QCOMPARE(ug.count, 1);
        QCOMPARE(ug.at(0, 2), g.symbolId("S"));
        // A gold label the grammar does not know still counts in G but can never be recalled.
        const Tree odd{"ROOT",
                       {Tree{"FOO", {Tree{"V", {Tree{"go", {}}}}, Tree{"N", {Tree{"home", {}}}}}}}};
        const RecallGold og = recallGold(g, odd);
        QCOMPARE(og.count, 1);
        QCOMPARE(og.at(0, 2), RecallGold::kNone);
    }

    // Inside (naive) and eq. 3 (DP) against explicit enumeration of every derivation, all 32 masks.
    void expectedRecallByEnumeration() {
        const Grammar g = handGrammar();
        const std::vector<std::string> w = {"the", "dog", "saw", "cats"};
        const RecallGold gold = recallGold(g, handGold());
        std::vector<std::pair<int, int>> spans = {{0, 2}, {1, 3}, {2, 4}, {0, 3}, {1, 4}};
        InsideOutside io(g);
        int successes = 0;
        for (int bits = 0; bits < 32; ++bits) {
            PruningMask m = PruningMask::allKeep(4);
            for (int s = 0; s < 5; ++s)
                if (bits >> s & 1) m.set(spans[s].first, spans[s].second, false);
            const double brute = bruteRecall(g, w, m, gold);
            const ExpectedRecall e = io.inside(w, m, gold);
            QVERIFY2(closeRel(e.recall, brute, 1e-12),
                     qPrintable(QString("mask %1: %2 vs %3").arg(bits).arg(e.recall).arg(brute)));
            successes += e.success;
            io.run(w, m, gold);
            QVERIFY(closeRel(io.current().recall, brute, 1e-12));
            for (const auto& [i, k] : spans) {
                PruningMask f = m;
                f.flip(i, k);
                const double want = bruteRecall(g, w, f, gold);
                QVERIFY2(closeRel(io.flipped(i, k).recall, want, 1e-12),
                         qPrintable(QString("mask %1 flip (%2,%3): %4 vs %5")
                                        .arg(bits)
                                        .arg(i)
                                        .arg(k)
                                        .arg(io.flipped(i, k).recall)
                                        .arg(want)));
            }
        }
        QVERIFY(successes > 4 && successes < 32); // both outcomes are exercised
        // By hand, keeping only (0,2) and (2,4): four derivations (S -> NP VP, S -> X VP, S -> NP
        // X, ROOT -> X -> NP VP) with Z = 0.0546936 and Σ p̃·count = 0.1469712, so r̄ = R / (3 Z).
        PruningMask m = PruningMask::allKeep(4);
        m.set(1, 3, false), m.set(0, 3, false), m.set(1, 4, false);
        const ExpectedRecall e = io.inside(w, m, gold);
        QVERIFY(std::abs(e.recall - 0.1469712 / (3 * 0.0546936)) < 1e-6); // rule weights are floats
        QVERIFY(std::abs(e.logZ - std::log(0.0546936)) < 1e-6);
    }

    // The events of a flip on a hand grammar, in agenda order.
    void changeEventsByHand() {
        Grammar g;
        g.symbols = {"ROOT", "S", "NP", "VP", "D", "N", "V"};
        g.root = 0;
        g.binary = {{1, 2, 3, 0.f}, {2, 4, 5, 0.f}, {3, 6, 2, 0.f}};
        g.rootRules = {{0, 1, 0.f}};
        g.words = {"the", "dog", "saw", "cat"};
        g.lexicon = {{{4, 0.f}}, {{5, std::log(0.5f)}}, {{6, 0.f}}, {{5, std::log(0.5f)}}};
        g.finalize();
        ChangePropagator cp(g, {"the", "dog", "saw", "the", "cat"}, PruningMask::allKeep(5));
        QCOMPARE(cp.current().pushes, 10L);
        FlipResult r = cp.flip(2, 5); // prune the VP: nothing above it survives
        QVERIFY(!r.success);
        QCOMPARE(r.events.size(), std::size_t(5));
        const std::uint32_t VP = 3, S = 1;
        QVERIFY(r.events[0].i == 2 && r.events[0].k == 5 && r.events[0].symbol == VP &&
                r.events[0].layer == 0);
        QVERIFY(r.events[1].i == 2 && r.events[1].symbol == VP && r.events[1].layer == 1);
        QVERIFY(r.events[2].i == 0 && r.events[2].k == 5 && r.events[2].symbol == S &&
                r.events[2].layer == 0);
        QVERIFY(r.events[3].symbol == S && r.events[3].layer == 1);
        QVERIFY(r.events[4].layer == 2 && r.events[4].symbol == 0);
        for (const auto& e : r.events) {
            QVERIFY(e.kind == CellChange::Vanished);
            QCOMPARE(e.after, kNegInf);
        }
        QCOMPARE(r.events[0].before, std::log(0.5f));
        QCOMPARE(r.pushes, 7L);       // 5 lexical + 2 NP; VP, S and ROOT are never evaluated
        QCOMPARE(r.constituents, 7L); // 5 tags + 2 NPs
        QCOMPARE(r.tree.toString(), std::string("(ROOT (D the) (N dog) (V saw) (D the) (N cat))"));
        cp.undo();
        QVERIFY(!cp.canUndo());
        r = cp.flip(2, 5);
        r = cp.flip(2, 5); // keep again: everything reappears
        QVERIFY(r.success);
        QCOMPARE(r.events.size(), std::size_t(5));
        for (const auto& e : r.events)
            QVERIFY(e.kind == CellChange::Appeared);
        QCOMPARE(r.pushes, 10L);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, cp.flip(0, 5));
        cp.undo();
        cp.undo();
        QVERIFY_THROWS_EXCEPTION(std::logic_error, cp.undo());
    }

    // Every flip of every dev sentence <= 15 words, two masks: the chart after the flip is the
    // reparsed chart bit for bit (hence score, tree, F1), the counters equal the parser's, the
    // events are exactly the changed vertices in agenda order, and undo restores the chart bit for
    // bit.
    void changePropagationEqualsReparse() {
        const Grammar& g = trainGrammar();
        Parser parser(g);
        long flips = 0, failures = 0, eventsSeen = 0;
        for (const Tree* t : devTrees(15)) {
            const auto words = t->words();
            const int n = static_cast<int>(words.size());
            for (const PruningMask& m : testMasks(n, static_cast<unsigned>(flips + n))) {
                ChangePropagator cp(g, words, m);
                cp.setGold(*t);
                const DenseChart original = cp.chart();
                const FlipResult before = cp.current();
                const ParseStats rollIn =
                    parser.parse(words, &m); // CP's own roll-in parse is the parser's
                QVERIFY(bitIdentical(original, parser.chart()));
                QCOMPARE(before.pushes, rollIn.pushes);
                QCOMPARE(before.constituents, rollIn.constituents);
                QCOMPARE(before.spansKept, rollIn.spansKept);
                for (int w = 2; w < n; ++w)
                    for (int i = 0; i + w <= n; ++i) {
                        // Under a sanitizer every other span (the same code paths at half the
                        // cost).
                        if (testdata::kUnderSanitizer && (i + w) % 2 == 1) continue;
                        const FlipResult r = cp.flip(i, i + w);
                        PruningMask f = m;
                        f.flip(i, i + w);
                        const ParseStats st = parser.parse(words, &f);
                        QVERIFY2(bitIdentical(cp.chart(), parser.chart()),
                                 qPrintable(QString("chart differs: n=%1 flip (%2,%3)")
                                                .arg(n)
                                                .arg(i)
                                                .arg(i + w)));
                        QCOMPARE(r.success, st.success);
                        QCOMPARE(r.logProb, st.logProb);
                        QCOMPARE(r.pushes, st.pushes);
                        QCOMPARE(r.constituents, st.constituents);
                        QCOMPARE(r.spansKept, st.spansKept);
                        const Tree tree = bestTree(g, parser.chart(), words);
                        const DenseChart reparsed = toDense(parser.chart());
                        QCOMPARE(r.tree, tree);
                        QCOMPARE(r.f1, sentenceF1(*t, tree));
                        failures += !st.success;
                        // Events: exactly the changed vertices, narrower spans first.
                        std::size_t changed = 0;
                        for (std::size_t v = 0; v < original.pre.size(); ++v) {
                            changed += original.pre[v] != reparsed.pre[v];
                            changed += original.post[v] != reparsed.post[v];
                        }
                        changed += original.rootScore != reparsed.rootScore;
                        QCOMPARE(r.events.size(), changed);
                        for (std::size_t e = 0; e < r.events.size(); ++e) {
                            const ChangeEvent& ev = r.events[e];
                            if (ev.layer < 2) {
                                const std::size_t at = original.at(ev.i, ev.k, ev.symbol);
                                QCOMPARE(ev.before,
                                         ev.layer == 0 ? original.pre[at] : original.post[at]);
                                QCOMPARE(ev.after,
                                         ev.layer == 0 ? reparsed.pre[at] : reparsed.post[at]);
                            }
                            if (e > 0) {
                                const ChangeEvent& p = r.events[e - 1];
                                QVERIFY(std::make_pair(p.k - p.i, p.layer) <=
                                        std::make_pair(ev.k - ev.i, ev.layer));
                            }
                        }
                        eventsSeen += static_cast<long>(r.events.size());
                        cp.undo();
                        QVERIFY(bitIdentical(cp.chart(), original));
                        QVERIFY(cp.mask() == m);
                        QCOMPARE(cp.pushes(), before.pushes);
                        QCOMPARE(cp.constituents(), before.constituents);
                        ++flips;
                    }
            }
        }
        qInfo("%ld flips checked (%ld failed parses, %ld change events)", flips, failures,
              eventsSeen);
        QVERIFY(flips > (testdata::kUnderSanitizer ? 500 : 5000));
        QVERIFY(failures > 0);
    }

    // Several flips stacked without undo, each compared with a reparse, then unwound.
    void stackedFlipsAndUndo() {
        const Grammar& g = trainGrammar();
        Parser parser(g);
        std::mt19937 rng(11);
        int sentences = 0;
        for (const Tree* t : devTrees(25)) {
            if (t->size() < 12 || ++sentences > 8) continue;
            const auto words = t->words();
            const int n = static_cast<int>(words.size());
            PruningMask m = testMasks(n, 5)[1];
            ChangePropagator cp(g, words, m);
            const DenseChart original = cp.chart();
            for (int step = 0; step < 25; ++step) {
                const int w = 2 + static_cast<int>(rng() % (n - 2)),
                          i = static_cast<int>(rng() % (n - w + 1));
                const FlipResult r = cp.flip(i, i + w);
                m.flip(i, i + w);
                const ParseStats st = parser.parse(words, &m);
                QVERIFY(bitIdentical(cp.chart(), parser.chart()));
                QCOMPARE(r.pushes, st.pushes);
                QCOMPARE(r.constituents, st.constituents);
            }
            while (cp.canUndo())
                cp.undo();
            QVERIFY(bitIdentical(cp.chart(), original));
            QVERIFY(cp.mask() == testMasks(n, 5)[1]);
        }
    }

    // RECOMPUTE batched per cell (setRecomputeBatchRules 0: always) and per vertex (never): both
    // equal a reparse, with the same events, on stacked flips from the all-keep mask (where short
    // spans make many vertices of the cells above fall) and from a random mask.
    void batchedRecomputeEqualsReparse() {
        const Grammar& g = trainGrammar();
        Parser parser(g);
        std::mt19937 rng(29);
        int sentences = 0;
        long batched = 0;
        // Under a sanitizer 2 sentences instead of 6 (still ~10^5 batched recomputes; the same code
        // paths).
        const int maxSentences = testdata::kUnderSanitizer ? 2 : 6;
        for (const Tree* t : devTrees(25)) {
            if (t->size() < 12 || ++sentences > maxSentences) continue;
            const auto words = t->words();
            const int n = static_cast<int>(words.size());
            for (const PruningMask& start : testMasks(n, 7)) {
                ChangePropagator always(g, words, start), never(g, words, start);
                always.setRecomputeBatchRules(0);
                never.setRecomputeBatchRules(std::numeric_limits<std::size_t>::max());
                PruningMask m = start;
                for (int step = 0; step < 20; ++step) {
                    const int w = 2 + static_cast<int>(rng() % std::min(5, n - 2)),
                              i = static_cast<int>(rng() % (n - w + 1));
                    const FlipResult a = always.flip(i, i + w), b = never.flip(i, i + w);
                    QCOMPARE(never.lastBatchedRecomputes(), 0L);
                    batched += always.lastBatchedRecomputes();
                    m.flip(i, i + w);
                    const ParseStats st = parser.parse(words, &m);
                    QVERIFY(bitIdentical(always.chart(), parser.chart()));
                    QVERIFY(bitIdentical(never.chart(), parser.chart()));
                    QCOMPARE(a.pushes, st.pushes);
                    QCOMPARE(a.tree, b.tree);
                    // The same changes; within a width and layer the agenda's order may differ (it
                    // follows the users' list order, which the witnesses' update order sets).
                    auto sorted = [](std::vector<ChangeEvent> ev) {
                        std::stable_sort(
                            ev.begin(), ev.end(), [](const ChangeEvent& x, const ChangeEvent& y) {
                                return std::make_tuple(x.k - x.i, x.layer, x.i, x.symbol) <
                                       std::make_tuple(y.k - y.i, y.layer, y.i, y.symbol);
                            });
                        return ev;
                    };
                    const std::vector<ChangeEvent> ea = sorted(a.events), eb = sorted(b.events);
                    QCOMPARE(ea.size(), eb.size());
                    for (std::size_t e = 0; e < ea.size(); ++e) {
                        const ChangeEvent &x = ea[e], &y = eb[e];
                        QVERIFY(x.i == y.i && x.k == y.k && x.symbol == y.symbol &&
                                x.layer == y.layer && x.kind == y.kind);
                        QVERIFY(std::memcmp(&x.before, &y.before, sizeof(float)) == 0 &&
                                std::memcmp(&x.after, &y.after, sizeof(float)) == 0);
                    }
                }
                while (always.canUndo())
                    always.undo();
                const ParseStats st = parser.parse(words, &start);
                QVERIFY(bitIdentical(always.chart(), parser.chart()));
                QCOMPARE(always.pushes(), st.pushes);
            }
        }
        qInfo("%ld pre vertices recomputed in batches", batched);
        QVERIFY(batched > 1000);
    }

    // One propagator reused for sentences of different lengths (reset() clears only what was
    // built).
    void resetReusesMemory() {
        const Grammar& g = trainGrammar();
        Parser parser(g);
        ChangePropagator cp(g);
        int count = 0;
        for (const Tree* t : devTrees(20)) {
            if (++count > 30) break;
            const auto words = t->words();
            const int n = static_cast<int>(words.size());
            const PruningMask m = testMasks(n, static_cast<unsigned>(count))[count % 2];
            cp.reset(words, m);
            const ParseStats st = parser.parse(words, &m);
            QVERIFY(bitIdentical(cp.chart(), parser.chart()));
            QCOMPARE(cp.pushes(), st.pushes);
            QCOMPARE(cp.constituents(), st.constituents);
            if (n > 3) cp.flip(1, 3); // left applied: reset() must undo it
        }
    }

    // rCP rollouts: change propagation equals naive reparsing exactly.
    void changePropagationRolloutsEqualNaive() {
        const Grammar& g = trainGrammar();
        long rollouts = 0;
        for (const Tree* t : devTrees(15)) {
            const int n = t->size();
            for (const PruningMask& m : testMasks(n, static_cast<unsigned>(3 * n))) {
                RolloutRequest req{&g, t->words(), *t, m, {}};
                const auto a = naiveRollouts(req, Surrogate::CP);
                const auto b = changePropagationRollouts(req);
                QCOMPARE(a.size(), b.size());
                for (std::size_t s = 0; s < a.size(); ++s) {
                    QCOMPARE(b[s].i, a[s].i);
                    QCOMPARE(b[s].rollInKeep, a[s].rollInKeep);
                    QCOMPARE(b[s].accuracyKeep, a[s].accuracyKeep);
                    QCOMPARE(b[s].accuracyPrune, a[s].accuracyPrune);
                    QCOMPARE(b[s].runtimeKeep, a[s].runtimeKeep);
                    QCOMPARE(b[s].runtimePrune, a[s].runtimePrune);
                }
                rollouts += static_cast<long>(a.size());
            }
        }
        QVERIFY(rollouts > (testdata::kUnderSanitizer ? 1000 : 5000));
    }

    // Under the gold roll-in nearly every keep→prune flip leaves no bracketing: dpRollouts answers
    // those without an inside pass, and its r̄ = 0 must be exactly the naive pass's (Z' = 0).
    void dpRolloutsWithoutBracketingEqualNaiveExactly() {
        const Grammar& g = trainGrammar();
        long noBracketing = 0, recomputed = 0, checked = 0;
        SpanBracketing bracketing;
        for (const Tree* t : devTrees(15)) {
            const PruningMask m = spanMask(binarizeLike(g, *t));
            RolloutRequest req{&g, t->words(), *t, m, {}};
            const auto a = naiveRollouts(req, Surrogate::DP);
            DpRolloutStats stats;
            const auto b = dpRollouts(req, &stats);
            noBracketing += stats.noBracketing, recomputed += stats.recomputed;
            QCOMPARE(a.size(), b.size());
            for (std::size_t s = 0; s < a.size(); ++s) {
                PruningMask f = m;
                f.flip(a[s].i, a[s].k);
                if (!a[s].rollInKeep || bracketing.exists(f)) continue;
                QCOMPARE(a[s].accuracyPrune, 0.0);
                QCOMPARE(b[s].accuracyPrune, 0.0);
                QCOMPARE(b[s].accuracyKeep, a[s].accuracyKeep);
                ++checked;
            }
        }
        qInfo("gold roll-in: %ld flips without a bracketing (%ld checked), %ld recomputed",
              noBracketing, checked, recomputed);
        QVERIFY(noBracketing > 0);
        QVERIFY(checked >= noBracketing);
    }

    // The outside pass restricted to the symbols a derivative uses, with the shorter of two walks
    // per parent, gives every span's derivatives as the full pass over every symbol does, to
    // 1e-12 relative; current() equal bit for bit (same inside pass).
    void fastOutsideEqualsFull() {
        const Grammar& g = trainGrammar();
        InsideOutside fast(g), full(g);
        full.setFullOutside(true);
        long spans = 0, nonzero = 0;
        for (const Tree* t : devTrees(20)) {
            const int n = t->size();
            const RecallGold gold = recallGold(g, *t);
            std::vector<PruningMask> masks = testMasks(n, static_cast<unsigned>(3 * n));
            masks.push_back(spanMask(binarizeLike(g, *t)));
            for (const PruningMask& m : masks) {
                fast.run(t->words(), m, gold);
                full.run(t->words(), m, gold);
                QCOMPARE(fast.current().logZ, full.current().logZ);
                QCOMPARE(fast.current().recall, full.current().recall);
                for (int w = 2; w < n; ++w)
                    for (int i = 0; i + w <= n; ++i) {
                        const SpanGradient a = fast.gradient(i, i + w), b = full.gradient(i, i + w);
                        for (const auto& [x, y] :
                             {std::pair{a.logDZ, b.logDZ}, std::pair{a.logDR, b.logDR}}) {
                            QCOMPARE(std::isinf(x), std::isinf(y));
                            if (!std::isinf(x))
                                QVERIFY2(std::abs(x - y) <= 1e-12 * std::max(1.0, std::abs(y)),
                                         qPrintable(QString("n=%1 (%2,%3): %4 vs %5")
                                                        .arg(n)
                                                        .arg(i)
                                                        .arg(i + w)
                                                        .arg(x, 0, 'g', 17)
                                                        .arg(y, 0, 'g', 17)));
                        }
                        QCOMPARE(a.illConditioned, b.illConditioned);
                        ++spans, nonzero += !std::isinf(b.logDZ);
                    }
            }
        }
        qInfo("%ld span derivatives compared, %ld nonzero", spans, nonzero);
        QVERIFY(nonzero > (testdata::kUnderSanitizer ? 500 : 5000));
    }

    // rDP rollouts: eq. 3 equals a naive inside pass per flipped mask to 1e-9 relative error.
    void dpRolloutsEqualNaive() {
        const Grammar& g = trainGrammar();
        long rollouts = 0, recomputed = 0, noBracketing = 0;
        double worst = 0;
        for (const Tree* t : devTrees(15)) {
            const int n = t->size();
            for (const PruningMask& m : testMasks(n, static_cast<unsigned>(7 * n))) {
                RolloutRequest req{&g, t->words(), *t, m, {}};
                const auto a = naiveRollouts(req, Surrogate::DP);
                DpRolloutStats stats;
                const auto b = dpRollouts(req, &stats);
                recomputed += stats.recomputed, noBracketing += stats.noBracketing;
                QCOMPARE(a.size(), b.size());
                for (std::size_t s = 0; s < a.size(); ++s) {
                    for (const auto& [x, y] : {std::pair{a[s].accuracyKeep, b[s].accuracyKeep},
                                               std::pair{a[s].accuracyPrune, b[s].accuracyPrune}}) {
                        QVERIFY2(closeRel(x, y, 1e-9),
                                 qPrintable(QString("n=%1 span (%2,%3): naive %4 dp %5")
                                                .arg(n)
                                                .arg(a[s].i)
                                                .arg(a[s].k)
                                                .arg(x, 0, 'g', 17)
                                                .arg(y, 0, 'g', 17)));
                        if (x != 0) worst = std::max(worst, std::abs(x - y) / std::abs(x));
                        QVERIFY(y >= 0 && y <= 1);
                    }
                    QCOMPARE(b[s].runtimeKeep, a[s].runtimeKeep);
                    QCOMPARE(b[s].runtimePrune, a[s].runtimePrune);
                    QCOMPARE(b[s].runtimeKeep - b[s].runtimePrune, 1.0); // ||m||_0
                }
                rollouts += static_cast<long>(a.size());
            }
        }
        qInfo("%ld rDP rollouts, worst relative error %.3g, %ld ill-conditioned flips recomputed, "
              "%ld without a bracketing",
              rollouts, worst, recomputed, noBracketing);
        QVERIFY(rollouts > (testdata::kUnderSanitizer ? 1000 : 5000));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestRollouts)
#include "test_rollouts.moc"
