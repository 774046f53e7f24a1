// PrunedInside / PrunedOutside (Bouchard-Côté et al. 2009, Alg. 3): expectations and samples
// against explicit enumeration of every derivation, pushes against the CKY parser.
#include "core/parse/Parser.h"
#include "core/parse/PrunedInsideOutside.h"
#include "support/SharedGrammar.h"
#include "support/TestData.h"
#include "support/TinyPcfg.h"

#include "support/TestSuite.h"

#include <cmath>
#include <map>

using namespace prunescope;

namespace {
std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == ' ') {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else
            cur += c;
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

// Every mask of the tiny-sentence tests: all-keep and each prunable span pruned alone, plus a few
// pairs (pruning can remove every derivation: then Z = 0).
std::vector<PruningMask> someMasks(int n) {
    std::vector<PruningMask> out{PruningMask::allKeep(n)};
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i) {
            PruningMask m = PruningMask::allKeep(n);
            m.set(i, i + w, false);
            out.push_back(m);
            if (i + w + 1 < n || (i > 0 && w + 1 < n)) {
                PruningMask m2 = m;
                if (i + w + 1 <= n && w + 1 < n) m2.set(i, i + w + 1, false);
                out.push_back(m2);
            }
        }
    return out;
}

std::vector<PruningMask> randomMasks(int n, std::uint64_t seed, int count, double pruneP) {
    std::vector<PruningMask> out{PruningMask::allKeep(n)};
    SplitMix64 rng(seed);
    for (int c = 0; c < count; ++c) {
        PruningMask m = PruningMask::allKeep(n);
        for (int w = 2; w < n; ++w)
            for (int i = 0; i + w <= n; ++i)
                if (rng.uniform() < pruneP) m.set(i, i + w, false);
        out.push_back(m);
    }
    return out;
}

bool close(double a, double b, double tol = 1e-11) {
    return std::abs(a - b) <= tol * std::max(1.0, std::max(std::abs(a), std::abs(b)));
}

const std::vector<std::string> kSentences = {"a cat saw a dog",
                                             "a dog saw a cat with a fish",
                                             "fish saw cat dog",
                                             "a cat with a dog saw fish",
                                             "saw",
                                             "cat fish"};
} // namespace

class TestPrunedInsideOutside : public QObject {
    Q_OBJECT
  private slots:
    // Z, every span posterior and every expected rule count equal the enumeration of derivations.
    void expectationsEqualEnumeration() {
        const Grammar& g = testdata::tinyPcfg();
        PrunedInsideOutside io(g);
        int masksWithNoParse = 0, checked = 0;
        for (const auto& s : kSentences) {
            const auto w = split(s);
            const int n = static_cast<int>(w.size());
            // Under a sanitizer the longest sentences check every 4th mask (allKeep included):
            // their enumeration was 60 s of the suite there, and the sanitizer run is for memory
            // errors.
            for (const PruningMask& m :
                 n >= 7 ? testdata::sanitizerSubset(someMasks(n)) : someMasks(n)) {
                const auto derivs = testdata::enumerateDerivations(g, w, m);
                double Z = 0;
                std::map<std::string, double> expected;
                for (const auto& d : derivs) {
                    Z += d.p;
                    for (const auto& [k, c] : d.features)
                        expected[k] += d.p * c;
                }
                const PrunedInsideStats st = io.inside(w, m);
                Expectations e;
                io.outside(e);
                QCOMPARE(st.success, Z > 0);
                if (Z == 0) {
                    ++masksWithNoParse;
                    QVERIFY(std::isinf(e.logZ));
                    for (double v : e.span)
                        QCOMPARE(v, 0.0);
                    continue;
                }
                ++checked;
                QVERIFY2(close(st.logZ, std::log(Z)), s.c_str());
                QVERIFY(close(e.logZ, std::log(Z)));
                auto exp = [&](const std::string& key) {
                    auto it = expected.find(key);
                    return it == expected.end() ? 0.0 : it->second / Z;
                };
                for (int i = 0; i < n; ++i)
                    for (int k = i + 1; k <= n; ++k)
                        QVERIFY2(
                            close(e.spanAt(i, k),
                                  exp("s:" + std::to_string(i) + ":" + std::to_string(k))),
                            (s + " span " + std::to_string(i) + "," + std::to_string(k)).c_str());
                for (std::size_t r = 0; r < g.binary.size(); ++r)
                    QVERIFY(close(e.binary[r], exp("b:" + std::to_string(r))));
                for (std::size_t r = 0; r < g.unary.size(); ++r)
                    QVERIFY(close(e.unary[r], exp("u:" + std::to_string(r))));
                for (std::size_t r = 0; r < g.rootRules.size(); ++r)
                    QVERIFY(close(e.root[r], exp("r:" + std::to_string(r))));
                for (int i = 0; i < n; ++i)
                    for (std::uint32_t q = e.lexicalBegin[i]; q < e.lexicalBegin[i + 1]; ++q)
                        QVERIFY(close(e.lexical[q], exp("l:" + std::to_string(i) + ":" +
                                                        std::to_string(q - e.lexicalBegin[i]))));
            }
        }
        QVERIFY2(checked > (testdata::kUnderSanitizer ? 25 : 50),
                 qPrintable(QString::number(checked)));
        QVERIFY(masksWithNoParse > 0); // the Z = 0 convention was exercised
    }

    // Drawn derivations follow p(d)/Z_m: total variation to the enumerated distribution is small.
    void samplesFollowThePrunedPosterior() {
        const Grammar& g = testdata::tinyPcfg();
        PrunedInsideOutside io(g);
        const auto w = split("a dog saw a cat with a fish");
        PruningMask m = PruningMask::allKeep(static_cast<int>(w.size()));
        m.set(3, 8, false); // prune "a cat with a fish": no low PP attachment
        for (const PruningMask& mask : {PruningMask::allKeep(static_cast<int>(w.size())), m}) {
            const auto derivs = testdata::enumerateDerivations(g, w, mask);
            std::map<std::string, double> truth;
            double Z = 0;
            for (const auto& d : derivs)
                Z += d.p;
            for (const auto& d : derivs)
                truth[d.tree.toString()] += d.p / Z;
            QVERIFY(io.inside(w, mask).success);
            SplitMix64 rng(7, 1, 2);
            const int draws = 40000;
            std::map<std::string, double> freq;
            for (int t = 0; t < draws; ++t) {
                const Tree tr = io.sample(rng);
                const std::string key = tr.toString();
                QVERIFY2(truth.count(key), key.c_str()); // every sample is a derivation of the mask
                freq[key] += 1.0 / draws;
            }
            double tv = 0;
            for (const auto& [k, p] : truth)
                tv += std::abs(p - (freq.count(k) ? freq[k] : 0.0));
            tv /= 2;
            QVERIFY2(tv < 0.02, std::to_string(tv).c_str());
        }
    }

    // The inside pass visits exactly the parser's hyperedges on real sentences and masks, and the
    // posteriors obey the identities of binary trees: Σ prunable-span posteriors = n - 2,
    // Σ binary counts = n - 1, Σ lexical = n, Σ root = 1.
    void pushesEqualParserOnDev() {
        const Grammar& g = testdata::trainGrammar();
        Parser parser(g);
        PrunedInsideOutside io(g);
        int sentences = 0;
        for (const Tree& t : testdata::normalizedTrees("dev")) {
            const auto w = t.words();
            const int n = static_cast<int>(w.size());
            if (n > 18 || n < 2) continue;
            for (const PruningMask& m :
                 randomMasks(n, 11 + static_cast<std::uint64_t>(sentences), 2, 0.4)) {
                const ParseStats ps = parser.parse(w, &m);
                const PrunedInsideStats st = io.inside(w, m);
                QCOMPARE(st.pushes, ps.pushes);
                QCOMPARE(st.spansKept, ps.spansKept);
                QCOMPARE(st.success, ps.success);
                if (!st.success) continue;
                QVERIFY(st.logZ >= ps.logProb - 1e-3); // Z >= the best derivation's probability
                Expectations e;
                io.outside(e);
                double spans = 0, bin = 0, lex = 0, root = 0;
                for (int w2 = 2; w2 < n; ++w2)
                    for (int i = 0; i + w2 <= n; ++i) {
                        const double v = e.spanAt(i, i + w2);
                        QVERIFY(v >= 0 && v <= 1 + 1e-12);
                        if (!m.keep(i, i + w2)) QCOMPARE(v, 0.0);
                        spans += v;
                    }
                for (double v : e.binary)
                    bin += v;
                for (double v : e.lexical)
                    lex += v;
                for (double v : e.root)
                    root += v;
                QVERIFY(close(spans, n - 2, 1e-9));
                QVERIFY(close(bin, n - 1, 1e-9));
                QVERIFY(close(lex, n, 1e-9));
                QVERIFY(close(root, 1, 1e-9));
            }
            if (++sentences == 25) break;
        }
        QCOMPARE(sentences, 25);
    }

    // No under- or overflow on a long sentence (120 words: Z far below the double range). The mask
    // keeps spans of width <= 3 and the left-branching spans (0,k), so the test stays fast.
    void longSentenceStaysFinite() {
        const Grammar& g = testdata::trainGrammar();
        std::vector<std::string> w;
        for (const Tree& t : testdata::normalizedTrees("dev")) {
            for (const auto& x : t.words())
                w.push_back(x);
            if (w.size() >= 120) break;
        }
        w.resize(120);
        PrunedInsideOutside io(g);
        PruningMask m = PruningMask::allKeep(120);
        for (int w2 = 4; w2 < 120; ++w2)
            for (int i = 1; i + w2 <= 120; ++i)
                m.set(i, i + w2, false);
        const auto st = io.inside(w, m);
        QVERIFY(st.success);
        QVERIFY(std::isfinite(st.logZ));
        QVERIFY(st.logZ < -700);
        Expectations e;
        io.outside(e);
        double spans = 0;
        for (int w2 = 2; w2 < 120; ++w2)
            for (int i = 0; i + w2 <= 120; ++i)
                spans += e.spanAt(i, i + w2);
        QVERIFY(close(spans, 118, 1e-8));
        SplitMix64 rng(3);
        const Tree t = io.sample(rng);
        QCOMPARE(t.size(), 120);
    }

    void rejectsBadInput() {
        PrunedInsideOutside io(testdata::tinyPcfg());
        std::vector<std::string> none;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, io.inside(none, PruningMask::allKeep(0)));
        const auto w = split("a cat saw");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, io.inside(w, PruningMask::allKeep(4)));
        // A word the grammar does not know and no fallback: no derivation, sampling refuses.
        const auto st = io.inside(split("a zebra"), PruningMask::allKeep(2));
        QVERIFY(!st.success);
        SplitMix64 rng(1);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, io.sample(rng));
        // A 500-word sentence with the treebank grammar: a clear error instead of gigabytes.
        PrunedInsideOutside big(testdata::trainGrammar());
        const std::vector<std::string> w500(500, "the");
        try {
            big.inside(w500, PruningMask::allKeep(500));
            QFAIL("no error for a 500-word sentence");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("500 words") != std::string::npos);
        }
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestPrunedInsideOutside)
#include "test_pruned_inside_outside.moc"
