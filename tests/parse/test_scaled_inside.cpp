// The shared scaled inside kernel (core/parse/ScaledInside): Z and the expectation-semiring ρ
// against explicit enumeration of every derivation of a mask, the pair carry's α bit for bit equal
// to the scalar carry's, and pushes equal to the CKY parser's.
#include "core/parse/Parser.h"
#include "core/parse/ScaledInside.h"
#include "core/util/Random.h"
#include "support/SharedGrammar.h"
#include "support/TestData.h"
#include "support/TinyPcfg.h"

#include "support/TestSuite.h"

#include <cmath>
#include <sstream>

using namespace prunescope;

namespace {
std::vector<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

// Builds every kept cell bottom-up (the whole sentence always), counting symbol `count` at every
// span of width >= 2; returns log Z and ρ/Z (the expected number of such vertices), or
// {-inf, 0} when the mask leaves no derivation.
template <class V>
std::pair<double, double> run(ScaledInside<V>& in, const std::vector<std::string>& w,
                              const PruningMask& m, std::uint32_t count) {
    in.reset(w, m);
    const int n = static_cast<int>(w.size());
    for (int width = 1; width <= n; ++width)
        for (int i = 0; i + width <= n; ++i)
            if (m.keep(i, i + width))
                in.buildCell(i, i + width, width >= 2 ? count : ScaledInside<V>::kNoCount);
    const int top = in.cell(0, n);
    if (!in.built(0, n)) return {-INFINITY, 0.0};
    double z = 0, r = 0;
    for (std::uint32_t li = in.postRange(top).first; li < in.postRange(top).second; ++li) {
        const std::uint32_t x = in.postSym(li);
        z += in.rootProb(x) * in.post(top)[x].a;
        if constexpr (std::is_same_v<V, InsidePair>) r += in.rootProb(x) * in.post(top)[x].r;
    }
    if (z == 0) return {-INFINITY, 0.0};
    return {std::log(z) + in.scale(top) * std::log(2.0), r / z};
}

// How many spans of width >= 2 have `label` as their topmost label in a derivation's tree.
int topLabelCount(const Tree& t, int begin, const std::string& label, int& end, bool isTop) {
    if (t.isLeaf()) {
        end = begin + 1;
        return 0;
    }
    int count = 0, e = begin;
    for (const Tree& c : t.children) {
        int ce = 0; // a unary's child has its parent's span: it is not the topmost label there
        count += topLabelCount(c, e, label, ce, t.children.size() != 1);
        e = ce;
    }
    end = e;
    if (isTop && e - begin >= 2 && t.label == label) ++count;
    return count;
}

std::vector<PruningMask> masks(int n, std::uint64_t seed) {
    std::vector<PruningMask> out{PruningMask::allKeep(n)};
    SplitMix64 rng(seed);
    for (int c = 0; c < 6; ++c) {
        PruningMask m = PruningMask::allKeep(n);
        for (int w = 2; w < n; ++w)
            for (int i = 0; i + w <= n; ++i)
                if (rng.uniform() < 0.3) m.set(i, i + w, false);
        out.push_back(m);
    }
    return out;
}
} // namespace

class TestScaledInside : public QObject {
    Q_OBJECT
  private slots:
    // Z and ρ/Z (expected count of one symbol as a span's topmost label) equal the enumeration of
    // the mask's derivations, for both carries.
    void equalsEnumeration() {
        const Grammar& g = testdata::tinyPcfg();
        ScaledInside<InsidePair> pair(g);
        ScaledInside<InsideValue> scalar(g);
        int checked = 0, empty = 0;
        for (const std::string label : {"NP", "VP", "PP"}) {
            QVERIFY(g.hasSymbol(label));
            const std::uint32_t x = g.symbolId(label);
            for (const std::string s : {"a cat saw a dog", "a dog saw a cat with a fish",
                                        "fish saw cat dog", "cat fish"}) {
                const auto w = words(s);
                const int n = static_cast<int>(w.size());
                for (const PruningMask& m : masks(n, 7 + checked)) {
                    double Z = 0, R = 0;
                    for (const auto& d : testdata::enumerateDerivations(g, w, m)) {
                        int end = 0;
                        Z += d.p;
                        R += d.p * topLabelCount(d.tree.children.at(0), 0, label, end, true);
                    }
                    const auto [logZ, expected] = run(pair, w, m, x);
                    const auto [logZs, unused] = run(scalar, w, m, x);
                    QCOMPARE(logZs, logZ);
                    if (Z == 0) {
                        QVERIFY(std::isinf(logZ));
                        ++empty;
                        continue;
                    }
                    QVERIFY2(std::abs(logZ - std::log(Z)) < 1e-12, s.c_str());
                    QVERIFY2(std::abs(expected - R / Z) < 1e-12 * std::max(1.0, R / Z),
                             qPrintable(QString("%1 %2: %3 vs %4")
                                            .arg(s.c_str(), label.c_str())
                                            .arg(expected)
                                            .arg(R / Z)));
                    ++checked;
                }
            }
        }
        QVERIFY(checked > 40);
        QVERIFY(empty > 0); // masks without a derivation were exercised
    }

    // On real sentences and masks: the pair's α (scales, lists, rows) equals the scalar's bit for
    // bit, and the scalar pushes plus the root rules tried equal Parser::parse's pushes.
    void pairAlphaIsScalarAlphaAndPushesAreParsers() {
        const Grammar& g = testdata::trainGrammar();
        Parser parser(g);
        ScaledInside<InsidePair> pair(g);
        ScaledInside<InsideValue> scalar(g);
        int sentences = 0;
        for (const Tree& t : testdata::normalizedTrees("dev")) {
            const auto w = t.words();
            const int n = static_cast<int>(w.size());
            if (n < 2 || n > 20) continue;
            for (const PruningMask& m : masks(n, 100 + sentences)) {
                run(pair, w, m, 0);
                run(scalar, w, m, ScaledInside<InsideValue>::kNoCount);
                for (int c = 0; c < scalar.numCells(); ++c) {
                    QCOMPARE(pair.scale(c), scalar.scale(c));
                    QCOMPARE(pair.postRange(c), scalar.postRange(c));
                    QCOMPARE(pair.preRange(c), scalar.preRange(c));
                    for (auto li = scalar.postRange(c).first; li < scalar.postRange(c).second;
                         ++li) {
                        const std::uint32_t x = scalar.postSym(li);
                        QCOMPARE(pair.postSym(li), x);
                        QCOMPARE(pair.post(c)[x].a, scalar.post(c)[x].a); // bit for bit
                    }
                    for (auto li = scalar.preRange(c).first; li < scalar.preRange(c).second; ++li)
                        QCOMPARE(pair.preValue(li).a, scalar.preValue(li).a);
                }
                long rootPushes = 0;
                if (scalar.built(0, n))
                    for (const UnaryRule& r : g.rootRules)
                        rootPushes += scalar.post(scalar.cell(0, n))[r.child].a != 0.0;
                QCOMPARE(scalar.pushes() + rootPushes, parser.parse(w, &m).pushes);
            }
            if (++sentences == 12) break;
        }
        QCOMPARE(sentences, 12);
    }

    void badInputIsRefused() {
        ScaledInside<InsideValue> in(testdata::tinyPcfg());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 in.reset(std::vector<std::string>{}, PruningMask::allKeep(0)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 in.reset(words("a cat"), PruningMask::allKeep(3)));
        in.reset(words("a cat"), PruningMask::allKeep(2)); // and it is usable afterwards
        in.buildCell(0, 1);
        QVERIFY(in.built(0, 1));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestScaledInside)
#include "test_scaled_inside.moc"
