// Max-rule-product decoding (core/parse/MaxRuleDecoder.h, Petrov & Klein 2007) held to brute force:
// a refined version of the tiny PCFG (every symbol but ROOT split in two, seeded weights), every
// derivation enumerated, the anchored base rules' posteriors summed, every base tree scored; the
// decoder's tree and score must be the best. Also: an unrefined grammar, pushes, masks, failures.
#include "core/parse/MaxRuleDecoder.h"
#include "core/parse/Parser.h"
#include "core/util/Random.h"
#include "support/TinyPcfg.h"

#include "support/TestSuite.h"

#include <cmath>
#include <map>

using namespace prunescope;

namespace {

// The tiny PCFG with every symbol but ROOT split into X^0 and X^1; each refined rule gets its base
// rule's probability times a seeded factor in [0.2, 1.8] (not normalised: posteriors do not care).
Grammar refinedTinyPcfg(std::uint64_t seed) {
    const Grammar& base = testdata::tinyPcfg();
    SplitMix64 rng(seed);
    auto jitter = [&](float lp) {
        return static_cast<float>(lp + std::log(0.2 + 1.6 * rng.uniform()));
    };
    Grammar g;
    auto sub = [&](SymbolId x, int s) { return x == base.root ? 0u : 1 + 2 * (x - 1) + s; };
    g.symbols.push_back(base.symbols[base.root]);
    g.baseLabel.push_back(base.symbols[base.root]);
    for (SymbolId x = 1; x < base.symbols.size(); ++x)
        for (int s = 0; s < 2; ++s) {
            g.symbols.push_back(base.symbols[x] + "^" + std::to_string(s));
            g.baseLabel.push_back(base.symbols[x]);
        }
    g.root = 0;
    for (const BinaryRule& r : base.binary)
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 2; ++b)
                for (int c = 0; c < 2; ++c)
                    g.binary.push_back(
                        {sub(r.parent, a), sub(r.left, b), sub(r.right, c), jitter(r.logProb)});
    for (const UnaryRule& r : base.unary)
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 2; ++b)
                g.unary.push_back({sub(r.parent, a), sub(r.child, b), jitter(r.logProb)});
    for (const UnaryRule& r : base.rootRules)
        for (int b = 0; b < 2; ++b)
            g.rootRules.push_back({0, sub(r.child, b), jitter(r.logProb)});
    g.words = base.words;
    for (const auto& entries : base.lexicon) {
        std::vector<LexicalEntry> refined;
        for (const LexicalEntry& e : entries)
            for (int s = 0; s < 2; ++s)
                refined.push_back({sub(e.tag, s), jitter(e.logProb)});
        g.lexicon.push_back(refined);
    }
    g.finalize();
    return g;
}

// The anchored base rules of a binarized tree with base labels (ROOT on top), as keys.
int anchoredRules(const Tree& t, int i, std::vector<std::string>& out) {
    const auto key = [](std::initializer_list<std::string> parts) {
        std::string s;
        for (const auto& p : parts)
            s += p + "|";
        return s;
    };
    if (t.children.size() == 1 && t.children[0].children.empty()) {
        out.push_back(key({"L", std::to_string(i), t.label}));
        return i + 1;
    }
    if (t.children.size() == 1) {
        const int k = anchoredRules(t.children[0], i, out);
        out.push_back(
            key({"U", std::to_string(i), std::to_string(k), t.label, t.children[0].label}));
        return k;
    }
    const int j = anchoredRules(t.children[0], i, out);
    const int k = anchoredRules(t.children[1], j, out);
    out.push_back(key({"B", std::to_string(i), std::to_string(j), std::to_string(k), t.label,
                       t.children[0].label, t.children[1].label}));
    return k;
}

Tree project(const Grammar& g, const Tree& t) {
    Tree out{t.children.empty() ? t.label : g.outputLabel(g.symbolId(t.label)), {}};
    for (const Tree& c : t.children)
        out.children.push_back(project(g, c));
    return out;
}

struct BruteForce {
    bool any = false;
    double best = -INFINITY, second = -INFINITY;
    std::string bestTree;
};

BruteForce bruteForce(const Grammar& g, const std::vector<std::string>& words,
                      const PruningMask& mask) {
    const auto derivs = testdata::enumerateDerivations(g, words, mask);
    double z = 0;
    std::map<std::string, double> r;                       // anchored base rule -> posterior mass
    std::map<std::string, std::vector<std::string>> trees; // base tree -> its rules
    for (const auto& d : derivs) {
        z += d.p;
        const Tree t = project(g, d.tree); // ROOT over the root rule's child
        std::vector<std::string> rules{"R|" + t.children[0].label + "|"};
        anchoredRules(t.children[0], 0, rules);
        for (const auto& e : rules)
            r[e] += d.p;
        trees[t.toString()] = rules;
    }
    BruteForce out;
    for (const auto& [tree, rules] : trees) {
        double s = 0;
        for (const auto& e : rules)
            s += std::log(r[e] / z);
        out.any = true;
        if (s > out.best) {
            out.second = out.best;
            out.best = s;
            out.bestTree = tree;
        } else if (s > out.second) {
            out.second = s;
        }
    }
    return out;
}

std::vector<std::string> tokens(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s + " ") {
        if (c != ' ') {
            cur += c;
        } else if (!cur.empty()) {
            out.push_back(cur);
            cur.clear();
        }
    }
    return out;
}

const std::vector<std::string> kMaxRuleSentences = {"a cat saw a dog", "fish saw cat dog",
                                                    "dog with fish", "saw", "cat fish"};

} // namespace

class TestMaxRule : public QObject {
    Q_OBJECT
  private slots:
    void equalsBruteForceOnARefinedGrammar() {
        for (std::uint64_t seed : {1u, 2u, 3u}) {
            const Grammar g = refinedTinyPcfg(seed);
            MaxRuleDecoder d(g);
            QCOMPARE(d.numBaseSymbols(), testdata::tinyPcfg().numSymbols());
            SplitMix64 rng(seed);
            int checked = 0, failed = 0;
            for (const std::string& s : kMaxRuleSentences) {
                const auto w = tokens(s);
                const int n = static_cast<int>(w.size());
                for (int c = 0; c < 6; ++c) {
                    PruningMask m = PruningMask::allKeep(n);
                    if (c > 0)
                        for (int width = 2; width < n; ++width)
                            for (int i = 0; i + width <= n; ++i)
                                if (rng.uniform() < 0.3) m.set(i, i + width, false);
                    const BruteForce want = bruteForce(g, w, m);
                    const MaxRuleResult got = d.decode(w, &m);
                    QCOMPARE(got.success, want.any);
                    if (!want.any) {
                        ++failed;
                        continue;
                    }
                    QVERIFY2(std::abs(got.logScore - want.best) < 1e-9,
                             qPrintable(QString::fromStdString(s) + ": " +
                                        QString::number(got.logScore, 'g', 17) + " vs " +
                                        QString::number(want.best, 'g', 17)));
                    if (want.best - want.second > 1e-9)
                        QCOMPARE(QString::fromStdString(got.binarized.toString()),
                                 QString::fromStdString(want.bestTree));
                    ++checked;
                }
            }
            QVERIFY(checked >= 12);
            QVERIFY(failed > 0); // some masks leave no derivation
        }
    }

    // The inside pass is the parser's: the same pushes under the same mask; on the unrefined
    // grammar every symbol is its own base, and the decoder still equals brute force.
    void unrefinedGrammarAndPushes() {
        const Grammar& g = testdata::tinyPcfg();
        MaxRuleDecoder d(g);
        Parser parser(g);
        for (const std::string& s : kMaxRuleSentences) {
            const auto w = tokens(s);
            const MaxRuleResult got = d.decode(w);
            const PruningMask all = PruningMask::allKeep(static_cast<int>(w.size()));
            QCOMPARE(got.inside.pushes, parser.parse(w, &all).pushes);
            const BruteForce want = bruteForce(g, w, all);
            QCOMPARE(got.success, want.any);
            if (want.any) QVERIFY(std::abs(got.logScore - want.best) < 1e-9);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, d.decode(std::vector<std::string>{}));
        ParseDecoder p{};
        QVERIFY(parseDecoderFromName("max-rule", p) && p == ParseDecoder::MaxRule);
        QVERIFY(parseDecoderFromName("viterbi", p) && p == ParseDecoder::Viterbi);
        QVERIFY(!parseDecoderFromName("mbr", p));
        QCOMPARE(std::string(parseDecoderName(ParseDecoder::MaxRule)), std::string("max-rule"));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestMaxRule)
#include "test_max_rule.moc"
