#include "core/Parser.h"

#include "core/Binarize.h"

#include <stdexcept>

namespace prunescope {

Parser::Parser(const Grammar& g) : g_(&g) {}

long Parser::applyUnaries(const Grammar& g, Chart& chart, int i, int k) {
    const std::size_t base = static_cast<std::size_t>(chart.cell(i, k)) * chart.numSymbols;
    const float* pre = chart.pre.data() + base;
    float* post = chart.post.data() + base;
    std::uint32_t* postW = chart.postWitness.data() + base;
    const int N = chart.numSymbols;
    for (int x = 0; x < N; ++x) {
        post[x] = pre[x];
        postW[x] = pre[x] == kNegInf ? kNoWitness : 0u;
    }
    long pushes = 0;
    // Rules are sorted by (child, parent): ascending child order visits them by index,
    // so strict '>' keeps the lowest-index witness among ties (identity first).
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

ParseStats Parser::parse(std::span<const std::string> words, const PruningMask* mask) {
    const Grammar& g = *g_;
    const int n = static_cast<int>(words.size());
    if (n == 0) throw std::invalid_argument("cannot parse an empty sentence");
    if (n > kMaxSentenceLength) throw std::invalid_argument("sentence longer than " + std::to_string(kMaxSentenceLength) + " words");
    if (mask && mask->n != n)
        throw std::invalid_argument("mask is for " + std::to_string(mask->n) + " words, sentence has " + std::to_string(n));
    words_.assign(words.begin(), words.end());
    const int N = g.numSymbols();
    Chart& c = chart_;
    c.reset(n, N);
    ParseStats st;

    listBegin_.assign(c.numCells() + 1, 0);
    listSyms_.clear();
    listScores_.clear();
    auto buildList = [&](int i, int k) {
        const float* post = c.postRow(i, k);
        for (int x = 0; x < N; ++x)
            if (post[x] != kNegInf) { listSyms_.push_back(x); listScores_.push_back(post[x]); }
        listBegin_[c.cell(i, k) + 1] = static_cast<std::uint32_t>(listSyms_.size());
        st.constituents += listBegin_[c.cell(i, k) + 1] - listBegin_[c.cell(i, k)];
    };

    // Lines 4-9: lexical rules, then the unary layer.
    for (int i = 0; i < n; ++i) {
        const std::size_t base = c.at(i, i + 1, 0);
        for (const LexicalEntry& e : g.lexicalEntries(words_[i], i)) {
            ++st.pushes;
            c.pre[base + e.tag] = e.logProb;
            c.preWitness[base + e.tag] = kLexicalWitness;
        }
        st.pushes += applyUnaries(g, c, i, i + 1);
        buildList(i, i + 1);
    }
    // Lines 10-22, by increasing width; lists for a cell are appended in cell order.
    for (int w = 2; w <= n; ++w) {
        for (int i = 0; i + w <= n; ++i) {
            const int k = i + w;
            const int cell = c.cell(i, k);
            const bool kept = !mask || mask->keep(i, k);
            if (w < n && kept) ++st.spansKept;
            if (!kept) { listBegin_[cell + 1] = listBegin_[cell]; continue; } // line 14
            float* out = c.pre.data() + static_cast<std::size_t>(cell) * N;
            std::uint32_t* outW = c.preWitness.data() + static_cast<std::size_t>(cell) * N;
            long pushes = 0;
            for (int j = i + 1; j < k; ++j) {
                const int lc = c.cell(i, j);
                const std::uint32_t lb = listBegin_[lc], le = listBegin_[lc + 1];
                if (lb == le) continue;
                const float* right = c.postRow(j, k);
                if (listBegin_[c.cell(j, k)] == listBegin_[c.cell(j, k) + 1]) continue;
                const std::uint32_t split = static_cast<std::uint32_t>(j - i) << 20;
                for (std::uint32_t li = lb; li < le; ++li) {
                    const std::uint32_t y = listSyms_[li];
                    const float ly = listScores_[li];
                    const std::uint32_t gb = g.groupsByLeftBegin[y], ge = g.groupsByLeftBegin[y + 1];
                    for (std::uint32_t gi = gb; gi < ge; ++gi) {
                        const RuleGroup& grp = g.groups[gi];
                        const float rz = right[grp.right];
                        if (rz == kNegInf) continue;
                        const float lr = ly + rz;
                        pushes += grp.end - grp.begin;
                        for (std::uint32_t r = grp.begin; r < grp.end; ++r) {
                            const BinaryRule& rule = g.binary[r];
                            const float cand = lr + rule.logProb; // == binaryEdgeScore(ly, rz, p)
                            if (cand > out[rule.parent]) {
                                out[rule.parent] = cand;
                                outW[rule.parent] = split | r;
                            }
                        }
                    }
                }
            }
            st.pushes += pushes;
            st.pushes += applyUnaries(g, c, i, k);
            buildList(i, k);
        }
    }
    // ROOT over the whole sentence.
    const float* top = c.postRow(0, n);
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

namespace {
Tree buildPre(const Grammar& g, const Chart& c, std::span<const std::string> words, int i, int k, std::uint32_t x);
Tree buildPost(const Grammar& g, const Chart& c, std::span<const std::string> words, int i, int k, std::uint32_t x) {
    const std::uint32_t w = c.postWitness[c.at(i, k, x)];
    if (w == kNoWitness) throw std::logic_error("witness chain broken at post layer");
    if (w == 0) return buildPre(g, c, words, i, k, x);
    const UnaryRule& u = g.unary[w - 1];
    return Tree{g.symbols[x], {buildPre(g, c, words, i, k, u.child)}};
}
Tree buildPre(const Grammar& g, const Chart& c, std::span<const std::string> words, int i, int k, std::uint32_t x) {
    const std::uint32_t w = c.preWitness[c.at(i, k, x)];
    if (w == kNoWitness) throw std::logic_error("witness chain broken at pre layer");
    if (w == kLexicalWitness) return Tree{g.symbols[x], {Tree{words[i], {}}}};
    const int j = i + witnessSplitOffset(w);
    const BinaryRule& r = g.binary[witnessRule(w)];
    return Tree{g.symbols[x], {buildPost(g, c, words, i, j, r.left), buildPost(g, c, words, j, k, r.right)}};
}
} // namespace

Tree bestBinarizedTree(const Grammar& g, const Chart& c, std::span<const std::string> words) {
    if (!c.parsed()) return Tree{};
    const UnaryRule& r = g.rootRules[c.rootWitness];
    return Tree{g.symbols[g.root], {buildPost(g, c, words, 0, c.n, r.child)}};
}

Tree bestTree(const Grammar& g, const Chart& c, std::span<const std::string> words) {
    if (c.parsed()) return debinarize(bestBinarizedTree(g, c, words));
    Tree t{"ROOT", {}};
    for (int i = 0; i < c.n; ++i) {
        const float* pre = c.preRow(i, i + 1);
        int best = -1;
        for (int x = 0; x < c.numSymbols; ++x)
            if (pre[x] != kNegInf && (best < 0 || pre[x] > pre[best])) best = x;
        std::string tag = best < 0 ? std::string("X") : g.symbols[best];
        t.children.push_back(Tree{tag, {Tree{words[i], {}}}});
    }
    return t;
}

} // namespace prunescope
