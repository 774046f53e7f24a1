#include "core/Parser.h"

#include "core/Binarize.h"

#include <algorithm>
#include <stdexcept>

namespace prunescope {

Parser::Parser(const Grammar& g) : g_(&g) {
    const int N = g.numSymbols();
    rightId_.assign(N, -1);
    for (const BinaryRule& r : g.binary) rightId_[r.right] = 0;
    for (int x = 0; x < N; ++x)
        if (rightId_[x] == 0) rightId_[x] = numRight_++;
        else rightId_[x] = -1;
    // Symbol order is kept, so groups and rules stay in Grammar order (ties break by index).
    rightWords_ = std::max(1, (numRight_ + 63) / 64);
    partners_.assign(static_cast<std::size_t>(N) * rightWords_, Partners{0, 0});
    groups_.reserve(g.groups.size());
    for (int y = 0; y < N; ++y)
        for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1]; ++gi) {
            const RuleGroup& grp = g.groups[gi];
            const std::uint32_t rid = static_cast<std::uint32_t>(rightId_[grp.right]);
            Partners& p = partners_[static_cast<std::size_t>(y) * rightWords_ + rid / 64];
            if (p.mask == 0) p.groupBase = gi;
            p.mask |= std::uint64_t{1} << (rid % 64);
        }
    for (const RuleGroup& grp : g.groups)
        groups_.push_back({g.binary[grp.begin].parent, g.binary[grp.begin].logProb, grp.begin, grp.end});
    rules_.reserve(g.binary.size());
    for (const BinaryRule& r : g.binary) rules_.push_back({r.parent, r.logProb});
    bitWords_ = (N + 63) / 64;
    preBits_.assign(bitWords_, 0);
    postBits_.assign(bitWords_, 0);
}

namespace {
template <class F>
inline void forEachBit(const std::uint64_t* bits, int words, F&& f) {
    for (int wi = 0; wi < words; ++wi)
        for (std::uint64_t m = bits[wi]; m; m &= m - 1)
            f(static_cast<std::uint32_t>(wi * 64 + __builtin_ctzll(m)));
}
} // namespace

// Sizes the chart for n words and clears it, touching only what the previous parse wrote.
void Parser::prepareChart(int n, int N) {
    Chart& c = chart_;
    const std::size_t oldSize = c.pre.size();
    if (c.numSymbols != N || oldSize != static_cast<std::size_t>(c.numCells()) * N) {
        c.reset(n, N);
        dirty_.clear();
        return;
    }
    const std::size_t size = static_cast<std::size_t>(n) * (n + 1) / 2 * N;
    for (std::uint32_t idx : dirty_) {
        if (idx >= size) continue;
        c.pre[idx] = kNegInf;
        c.post[idx] = kNegInf;
        c.preWitness[idx] = kNoWitness;
        c.postWitness[idx] = kNoWitness;
    }
    dirty_.clear();
    c.n = n;
    c.cellOffsetByWidth.assign(n + 2, 0);
    for (int w = 1; w <= n; ++w) c.cellOffsetByWidth[w + 1] = c.cellOffsetByWidth[w] + (n - w + 1);
    if (c.pre.capacity() < size) { // exact reservations: no geometric growth of the chart
        c.pre.reserve(size);
        c.post.reserve(size);
        c.preWitness.reserve(size);
        c.postWitness.reserve(size);
    }
    c.pre.resize(size, kNegInf);
    c.post.resize(size, kNegInf);
    c.preWitness.resize(size, kNoWitness);
    c.postWitness.resize(size, kNoWitness);
    c.rootScore = kNegInf;
    c.rootWitness = kNoWitness;
}

// The unary layer of cell (i,k) from preBits_ (the built pre symbols), then the cell's
// left-child list and right-child row. Same order as applyUnaries, so the same witnesses.
long Parser::finishCell(int i, int k, ParseStats& st) {
    const Grammar& g = *g_;
    Chart& c = chart_;
    const int N = c.numSymbols;
    const int cell = c.cell(i, k);
    const std::size_t base = static_cast<std::size_t>(cell) * N;
    const float* pre = c.pre.data() + base;
    float* post = c.post.data() + base;
    std::uint32_t* postW = c.postWitness.data() + base;
    std::uint64_t* pb = preBits_.data();
    std::uint64_t* qb = postBits_.data();
    for (int wi = 0; wi < bitWords_; ++wi) qb[wi] = pb[wi];
    forEachBit(pb, bitWords_, [&](std::uint32_t x) {
        post[x] = pre[x];
        postW[x] = 0;
    });
    long pushes = 0;
    forEachBit(pb, bitWords_, [&](std::uint32_t y) {
        const std::uint32_t b = g.unaryByChildBegin[y], e = g.unaryByChildBegin[y + 1];
        if (b == e) return;
        const float s = pre[y];
        pushes += e - b;
        for (std::uint32_t r = b; r < e; ++r) {
            const UnaryRule& u = g.unary[r];
            const float cand = s + u.logProb;
            if (cand > post[u.parent]) {
                post[u.parent] = cand;
                postW[u.parent] = r + 1;
                qb[u.parent >> 6] |= std::uint64_t{1} << (u.parent & 63);
            }
        }
    });
    float* right = rightRows_.data() + static_cast<std::size_t>(cell) * numRight_;
    std::fill(right, right + numRight_, kNegInf);
    std::uint64_t* rbits = rightBits_.data() + static_cast<std::size_t>(cell) * rightWords_;
    const std::size_t dirtyBefore = dirty_.size();
    forEachBit(qb, bitWords_, [&](std::uint32_t x) {
        dirty_.push_back(static_cast<std::uint32_t>(base + x));
        const float s = post[x];
        const std::int32_t rid = rightId_[x];
        if (rid >= 0) {
            right[rid] = s;
            rbits[rid / 64] |= std::uint64_t{1} << (rid % 64);
        }
        if (g.groupsByLeftBegin[x] != g.groupsByLeftBegin[x + 1]) leftList_.push_back({s, x});
    });
    st.constituents += static_cast<long>(dirty_.size() - dirtyBefore);
    listBegin_[cell + 1] = static_cast<std::uint32_t>(leftList_.size());
    for (int wi = 0; wi < bitWords_; ++wi) pb[wi] = 0;
    return pushes;
}

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

// One split of lines 15-21: every group (y, z) with y built in the left cell and z built in the
// right cell, found by ANDing y's partner bitset with the right cell's bitset (no failed lookups).
// Visits y, then z, then rules in ascending order, i.e. ascending rule index: '>' keeps the first.
// Cloned for CPUs with POPCNT (the rank of z among y's partners); the default clone runs anywhere.
__attribute__((target_clones("popcnt", "default")))
long Parser::binaryPass(const LeftEntry* lb, const LeftEntry* le, const Partners* partners, int W,
                        const std::uint64_t* rightBits, const float* rightRow, const Group* groups,
                        const Rule* rules, float* out, std::uint32_t* outW, std::uint64_t* pb,
                        std::uint32_t split) {
    long pushes = 0;
    for (const LeftEntry* e = lb; e != le; ++e) {
        const Partners* pw = partners + static_cast<std::size_t>(e->symbol) * W;
        const float ly = e->score;
        for (int w = 0; w < W; ++w) {
            const std::uint64_t pm = pw[w].mask;
            std::uint64_t m = pm & rightBits[w];
            if (!m) continue;
            const std::uint32_t base = pw[w].groupBase;
            const float* right = rightRow + 64 * w;
            do {
                const int b = __builtin_ctzll(m);
                const std::uint64_t below = pm & ((std::uint64_t{1} << b) - 1);
                const Group& grp = groups[base + static_cast<std::uint32_t>(__builtin_popcountll(below))];
                const float lr = ly + right[b];
                pushes += grp.end - grp.begin;
                const float cand = lr + grp.logProb; // == binaryEdgeScore(ly, rz, p)
                if (cand > out[grp.parent]) {
                    out[grp.parent] = cand;
                    outW[grp.parent] = split | grp.begin;
                    pb[grp.parent >> 6] |= std::uint64_t{1} << (grp.parent & 63);
                }
                for (std::uint32_t r = grp.begin + 1; r < grp.end; ++r) {
                    const Rule rule = rules[r];
                    const float c2 = lr + rule.logProb;
                    if (c2 > out[rule.parent]) {
                        out[rule.parent] = c2;
                        outW[rule.parent] = split | r;
                        pb[rule.parent >> 6] |= std::uint64_t{1} << (rule.parent & 63);
                    }
                }
                m &= m - 1;
            } while (m);
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
    prepareChart(n, N);
    ParseStats st;
    const int cells = c.numCells();
    listBegin_.assign(cells + 1, 0);
    leftList_.clear();
    rightBits_.assign(static_cast<std::size_t>(cells) * rightWords_, 0);
    if (rightRows_.size() < static_cast<std::size_t>(cells) * numRight_) rightRows_.resize(static_cast<std::size_t>(cells) * numRight_);
    std::uint64_t* pb = preBits_.data();

    // Lines 4-9: lexical rules, then the unary layer.
    for (int i = 0; i < n; ++i) {
        const std::size_t base = c.at(i, i + 1, 0);
        for (const LexicalEntry& e : g.lexicalEntries(words_[i], i)) {
            ++st.pushes;
            c.pre[base + e.tag] = e.logProb;
            c.preWitness[base + e.tag] = kLexicalWitness;
            pb[e.tag >> 6] |= std::uint64_t{1} << (e.tag & 63);
        }
        st.pushes += finishCell(i, i + 1, st);
    }
    // Lines 10-22, by increasing width; a cell's list is appended in cell order.
    const Group* groups = groups_.data();
    const Rule* rules = rules_.data();
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
                const int lc = c.cell(i, j), rc = c.cell(j, k);
                const std::uint32_t lb = listBegin_[lc], le = listBegin_[lc + 1];
                if (lb == le) continue;
                pushes += binaryPass(leftList_.data() + lb, leftList_.data() + le, partners_.data(), rightWords_,
                                     rightBits_.data() + static_cast<std::size_t>(rc) * rightWords_,
                                     rightRows_.data() + static_cast<std::size_t>(rc) * numRight_, groups, rules,
                                     out, outW, pb, static_cast<std::uint32_t>(j - i) << 20);
            }
            st.pushes += pushes;
            st.pushes += finishCell(i, k, st);
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
