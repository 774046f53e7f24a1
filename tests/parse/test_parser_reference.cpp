// The optimized CKY (Alg. 1) against a frozen copy of the original straightforward
// implementation: every value and witness of the chart and every counter must agree to the bit.
#include "core/grammar/PcfgEstimator.h"
#include "core/parse/Parser.h"
#include "core/policy/GoldSpans.h"
#include "core/treebank/TreebankReader.h"
#include "support/SharedGrammar.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <algorithm>
#include <cstring>
#include <random>

using namespace prunescope;
using testdata::normalizedTrees;
using testdata::trainGrammar;

namespace {
namespace ref {

// The chart arrays as the first parser laid them out: [cell * N + symbol], cells by width then
// start.
struct RefChart {
    int n = 0, numSymbols = 0;
    std::vector<int> cellOffsetByWidth;
    std::vector<float> pre, post;
    std::vector<std::uint32_t> preWitness, postWitness;
    float rootScore = kNegInf;
    std::uint32_t rootWitness = kNoWitness;
    int numCells() const { return n * (n + 1) / 2; }
    int cell(int i, int k) const { return cellOffsetByWidth[k - i] + i; }
    void reset(int len, int symbols) {
        n = len;
        numSymbols = symbols;
        cellOffsetByWidth.assign(n + 2, 0);
        for (int w = 1; w <= n; ++w)
            cellOffsetByWidth[w + 1] = cellOffsetByWidth[w] + (n - w + 1);
        const std::size_t size = static_cast<std::size_t>(numCells()) * numSymbols;
        pre.assign(size, kNegInf);
        post.assign(size, kNegInf);
        preWitness.assign(size, kNoWitness);
        postWitness.assign(size, kNoWitness);
        rootScore = kNegInf;
        rootWitness = kNoWitness;
    }
};

long applyUnaries(const Grammar& g, RefChart& c, int i, int k) {
    const std::size_t base = static_cast<std::size_t>(c.cell(i, k)) * c.numSymbols;
    const float* pre = c.pre.data() + base;
    float* post = c.post.data() + base;
    std::uint32_t* postW = c.postWitness.data() + base;
    const int N = c.numSymbols;
    for (int x = 0; x < N; ++x) {
        post[x] = pre[x];
        postW[x] = pre[x] == kNegInf ? kNoWitness : 0u;
    }
    long pushes = 0;
    for (int y = 0; y < N; ++y) {
        const float s = pre[y];
        if (s == kNegInf) continue;
        const std::uint32_t b = g.unaryByChildBegin[y], e = g.unaryByChildBegin[y + 1];
        pushes += e - b;
        for (std::uint32_t r = b; r < e; ++r) {
            const UnaryRule& u = g.unary[r];
            const float cand = s + u.logProb;
            if (cand > post[u.parent]) {
                post[u.parent] = cand;
                postW[u.parent] = r + 1;
            }
        }
    }
    return pushes;
}

// Alg. 1, every (left symbol, right symbol) rule group checked against the right cell.
ParseStats parse(const Grammar& g, RefChart& c, const std::vector<std::string>& words,
                 const PruningMask* mask) {
    const int n = static_cast<int>(words.size());
    const int N = g.numSymbols();
    c.reset(n, N);
    ParseStats st;
    auto isBuilt = [&](int i, int k) {
        const float* row = c.post.data() + static_cast<std::size_t>(c.cell(i, k)) * N;
        return std::any_of(row, row + N, [](float v) { return v != kNegInf; });
    };
    auto countBuilt = [&](int i, int k) {
        const float* row = c.post.data() + static_cast<std::size_t>(c.cell(i, k)) * N;
        st.constituents += std::count_if(row, row + N, [](float v) { return v != kNegInf; });
    };
    for (int i = 0; i < n; ++i) {
        const std::size_t base = static_cast<std::size_t>(c.cell(i, i + 1)) * N;
        for (const LexicalEntry& e : g.lexicalEntries(words[i], i)) {
            ++st.pushes;
            c.pre[base + e.tag] = e.logProb;
            c.preWitness[base + e.tag] = kLexicalWitness;
        }
        st.pushes += applyUnaries(g, c, i, i + 1);
        countBuilt(i, i + 1);
    }
    for (int w = 2; w <= n; ++w) {
        for (int i = 0; i + w <= n; ++i) {
            const int k = i + w;
            const int cell = c.cell(i, k);
            const bool kept = !mask || mask->keep(i, k);
            if (w < n && kept) ++st.spansKept;
            if (!kept) continue;
            float* out = c.pre.data() + static_cast<std::size_t>(cell) * N;
            std::uint32_t* outW = c.preWitness.data() + static_cast<std::size_t>(cell) * N;
            for (int j = i + 1; j < k; ++j) {
                if (!isBuilt(i, j) || !isBuilt(j, k)) continue;
                const float* left = c.post.data() + static_cast<std::size_t>(c.cell(i, j)) * N;
                const float* right = c.post.data() + static_cast<std::size_t>(c.cell(j, k)) * N;
                const std::uint32_t split = static_cast<std::uint32_t>(j - i) << 20;
                for (int y = 0; y < N; ++y) {
                    const float ly = left[y];
                    if (ly == kNegInf) continue;
                    for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1];
                         ++gi) {
                        const RuleGroup& grp = g.groups[gi];
                        const float rz = right[grp.right];
                        if (rz == kNegInf) continue;
                        const float lr = ly + rz;
                        st.pushes += grp.end - grp.begin;
                        for (std::uint32_t r = grp.begin; r < grp.end; ++r) {
                            const BinaryRule& rule = g.binary[r];
                            const float cand = lr + rule.logProb;
                            if (cand > out[rule.parent]) {
                                out[rule.parent] = cand;
                                outW[rule.parent] = split | r;
                            }
                        }
                    }
                }
            }
            st.pushes += applyUnaries(g, c, i, k);
            countBuilt(i, k);
        }
    }
    const float* top = c.post.data() + static_cast<std::size_t>(c.cell(0, n)) * N;
    for (std::uint32_t r = 0; r < g.rootRules.size(); ++r) {
        const float s = top[g.rootRules[r].child];
        if (s == kNegInf) continue;
        ++st.pushes;
        const float cand = s + g.rootRules[r].logProb;
        if (cand > c.rootScore) {
            c.rootScore = cand;
            c.rootWitness = r;
        }
    }
    st.success = c.rootScore != kNegInf;
    st.logProb = st.success ? c.rootScore : 0.0;
    return st;
}

} // namespace ref

template <class T> bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

PruningMask randomMask(int n, double keepP, std::mt19937& rng) {
    PruningMask m = PruningMask::allKeep(n);
    std::bernoulli_distribution keep(keepP);
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            m.set(i, i + w, keep(rng));
    return m;
}

// Parses words with both implementations and reports the first difference (empty if none).
std::string compareOnce(const Grammar& g, Parser& p, ref::RefChart& rc,
                        const std::vector<std::string>& w, const PruningMask* m) {
    const ParseStats a = p.parse(w, m);
    const ParseStats b = ref::parse(g, rc, w, m);
    const DenseChart c = toDense(p.chart()); // the sparse chart with its -inf entries written out
    if (a.pushes != b.pushes)
        return "pushes " + std::to_string(a.pushes) + " vs " + std::to_string(b.pushes);
    if (a.constituents != b.constituents) return "constituents differ";
    if (a.spansKept != b.spansKept) return "spansKept differ";
    if (a.success != b.success || std::memcmp(&a.logProb, &b.logProb, sizeof(double)) != 0)
        return "logProb differs";
    if (c.n != rc.n || c.numSymbols != rc.numSymbols || c.cellOffsetByWidth != rc.cellOffsetByWidth)
        return "shape differs";
    if (!sameBits(c.pre, rc.pre)) return "pre differs";
    if (!sameBits(c.post, rc.post)) return "post differs";
    if (!sameBits(c.preWitness, rc.preWitness)) return "preWitness differs";
    if (!sameBits(c.postWitness, rc.postWitness)) return "postWitness differs";
    if (std::memcmp(&c.rootScore, &rc.rootScore, sizeof(float)) != 0 ||
        c.rootWitness != rc.rootWitness)
        return "root differs";
    return {};
}

// Dev sentences <= 25 words under three masks, then the 40 longest <= 40 words (all-keep and one
// mask). Under ASan/TSan every 4th short sentence and the 10 longest (the Release run checks them
// all).
constexpr int kShortStep = testdata::kUnderSanitizer ? 4 : 1;
constexpr std::size_t kLongest = testdata::kUnderSanitizer ? 10 : 40;

// One Parser is reused throughout, so stale state from a longer or shorter sentence would show.
int compareOnDev(const Grammar& g, CkyKernel kernel = CkyKernel::Auto) {
    Parser p(g, kernel);
    ref::RefChart rc;
    std::mt19937 rng(2026);
    int compared = 0;
    std::vector<const Tree*> longest;
    int shortSeen = 0;
    for (const Tree& t : normalizedTrees("dev")) {
        if (t.size() <= 40) longest.push_back(&t);
        if (t.size() > 25 || shortSeen++ % kShortStep != 0) continue;
        const auto w = t.words();
        const int n = static_cast<int>(w.size());
        const PruningMask m1 = randomMask(n, 0.5, rng), m2 = randomMask(n, 0.15, rng);
        for (const PruningMask* m : {static_cast<const PruningMask*>(nullptr), &m1, &m2}) {
            const std::string diff = compareOnce(g, p, rc, w, m);
            if (!diff.empty()) {
                qWarning("%s (n=%d, mask %s)", diff.c_str(), n,
                         m ? m->toJson().dump().c_str() : "none");
                return -1;
            }
            ++compared;
        }
    }
    std::stable_sort(longest.begin(), longest.end(),
                     [](const Tree* a, const Tree* b) { return a->size() > b->size(); });
    longest.resize(std::min<std::size_t>(longest.size(), kLongest));
    for (const Tree* t : longest) {
        const auto w = t->words();
        const PruningMask gold = spanMask(binarizeLike(g, *t));
        for (const PruningMask* m : {static_cast<const PruningMask*>(nullptr), &gold}) {
            const std::string diff = compareOnce(g, p, rc, w, m);
            if (!diff.empty()) {
                qWarning("%s (n=%d, long sentence)", diff.c_str(), t->size());
                return -1;
            }
            ++compared;
        }
    }
    return compared;
}

} // namespace

class TestParserReference : public QObject {
    Q_OBJECT
  private slots:
    void matchesReferenceOnDev() {
        const int compared = compareOnDev(trainGrammar());
        QVERIFY(compared > 0);
        int shortOnes = 0;
        for (const Tree& t : normalizedTrees("dev"))
            shortOnes += t.size() <= 25;
        QCOMPARE(compared,
                 3 * ((shortOnes + kShortStep - 1) / kShortStep) + 2 * static_cast<int>(kLongest));
    }
    void matchesReferenceWithEveryKernel() {
        // Auto picks the widest kernel set; the narrower ones this CPU runs (portable at least:
        // the fallback of CPUs without AVX2) must give the same charts and pushes.
        int kernels = 0;
        for (CkyKernel k : {CkyKernel::Portable, CkyKernel::Avx2, CkyKernel::Avx512}) {
            if (!ckyKernelSupported(k) || k == bestCkyKernel()) continue;
            QVERIFY2(compareOnDev(trainGrammar(), k) > 0, ckyKernelName(k));
            ++kernels;
        }
        QVERIFY(kernels >= 1 || bestCkyKernel() == CkyKernel::Portable);
    }
    void matchesReferenceWithAnotherGrammar() {
        // A differently shaped grammar (parent annotation, Markov order 1): more symbols,
        // different group sizes, so layout-dependent shortcuts are exercised on other data.
        GrammarOptions opt;
        opt.binarize.horizontalMarkov = 1;
        opt.binarize.parentAnnotation = true;
        const Grammar g = estimatePcfg(readTreebank(testdata::ptbDir("train")), opt);
        QVERIFY(g.numSymbols() != trainGrammar().numSymbols());
        QVERIFY(compareOnDev(g) > 0);
    }
    void detectsADifference() {
        // The comparison can fail: a grammar whose one rule weight differs gives different charts.
        Grammar g = trainGrammar();
        Parser p(trainGrammar());
        ref::RefChart rc;
        for (auto& r : g.binary)
            r.logProb -= 0.5f;
        const std::vector<std::string> w = {"The",     "company", "said",  "it",
                                            "expects", "higher",  "sales", "."};
        QVERIFY(!compareOnce(g, p, rc, w, nullptr).empty());
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestParserReference)
#include "test_parser_reference.moc"
