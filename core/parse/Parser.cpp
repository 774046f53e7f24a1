#include "core/parse/Parser.h"

#include "core/treebank/Binarize.h"

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
    rightWords_ = std::max(1, (numRight_ + 63) / 64);
    // Grammar::binary is sorted by (left, right, parent) and the dense ids keep symbol order, so
    // the rules of a left symbol are contiguous and sorted by (right id, rule index).
    leftRulesBegin_.assign(N + 1, 0);
    for (const BinaryRule& br : g.binary) {
        ruleHeads_.push_back({br.parent, br.logProb});
        ruleRightId_.push_back(static_cast<std::uint32_t>(rightId_[br.right]));
        ++leftRulesBegin_[br.left + 1];
    }
    for (int y = 0; y < N; ++y) leftRulesBegin_[y + 1] += leftRulesBegin_[y];
    zCount_.assign(numRight_, 0);
    bitWords_ = (N + 63) / 64;
    preBits_.assign(bitWords_, 0);
    postBits_.assign(bitWords_, 0);
}

namespace {
constexpr std::uint32_t kUnbuilt = 0xFFFFFFFFu;

// Applies the unary rules x -> y of a built child y (pre score s) to the post layer, in rule order
// (sorted by (child, parent)), so strict '>' keeps the lowest-index witness among ties; built(x) is
// called when x improves. Returns the pushes.
template <class Built>
inline long unariesOf(const Grammar& g, std::uint32_t y, float s, float* post, std::uint32_t* postW, Built built) {
    const std::uint32_t b = g.unaryByChildBegin[y], e = g.unaryByChildBegin[y + 1];
    for (std::uint32_t r = b; r < e; ++r) {
        const UnaryRule& u = g.unary[r];
        const float cand = s + u.logProb;
        if (cand > post[u.parent]) {
            post[u.parent] = cand;
            postW[u.parent] = r + 1;
            built(u.parent);
        }
    }
    return static_cast<long>(e - b);
}

// Offers a binary hyperedge to parent p of the cell: out[p] = max(out[p], cand), keeping the smaller
// packed witness on an exact tie, i.e. the first maximum in (split, rule index) order whatever order
// the pushes come in; p is then built. Improvements are rare, so the outer test is a predicted branch.
inline void offer(float* out, std::uint32_t* outW, std::uint64_t* pb, std::uint32_t p, float cand,
                  std::uint32_t witness) {
    if (cand >= out[p]) [[unlikely]] {
        if (cand > out[p] || witness < outW[p]) {
            out[p] = cand;
            outW[p] = witness;
            pb[p >> 6] |= std::uint64_t{1} << (p & 63);
        }
    }
}
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
        pushes += unariesOf(g, y, pre[y], post, postW,
                            [qb](std::uint32_t x) { qb[x >> 6] |= std::uint64_t{1} << (x & 63); });
    });
    // Right rows are read only where the right bits are set, so they need no clearing.
    float* right = rightRows_.data() + static_cast<std::size_t>(cell) * numRight_;
    std::uint64_t* rbits = rightBits_.data() + static_cast<std::size_t>(cell) * rightWords_;
    const std::size_t dirtyBefore = dirty_.size();
    forEachBit(qb, bitWords_, [&](std::uint32_t x) {
        dirty_.push_back(static_cast<std::uint32_t>(base + x));
        const std::int32_t rid = rightId_[x];
        if (rid >= 0) {
            right[rid] = post[x];
            rbits[rid / 64] |= std::uint64_t{1} << (rid % 64);
        }
    });
    st.constituents += static_cast<long>(dirty_.size() - dirtyBefore);
    cellDirtyBegin_[cell] = static_cast<std::uint32_t>(dirtyBefore);
    cellDirtyBegin_[cell + 1] = static_cast<std::uint32_t>(dirty_.size());
    for (int wi = 0; wi < bitWords_; ++wi) pb[wi] = 0;
    return pushes;
}

// Every binary rule whose left child the cell built becomes an Item, bucketed by the rule's
// right child (a counting sort; within a bucket, ascending rule index).
const std::uint32_t* Parser::cellItems(int cell) {
    if (cellZBegin_[cell] != kUnbuilt) return zBegins_.data() + cellZBegin_[cell];
    const std::size_t stride = static_cast<std::size_t>(numRight_) + 1;
    if (zBeginsUsed_ + stride > zBegins_.size()) zBegins_.resize(zBeginsUsed_ + stride);
    cellZBegin_[cell] = zBeginsUsed_;
    std::uint32_t* zb = zBegins_.data() + zBeginsUsed_;
    zBeginsUsed_ += static_cast<std::uint32_t>(stride);
    const std::uint32_t* sym = dirty_.data() + cellDirtyBegin_[cell];
    const std::uint32_t* const symEnd = dirty_.data() + cellDirtyBegin_[cell + 1];
    const std::size_t base = static_cast<std::size_t>(cell) * chart_.numSymbols;
    const std::uint32_t* lrb = leftRulesBegin_.data();
    const std::uint32_t* rightOf = ruleRightId_.data();
    std::uint32_t* count = zCount_.data();
    for (const std::uint32_t* p = sym; p != symEnd; ++p) {
        const std::uint32_t x = static_cast<std::uint32_t>(*p - base);
        for (std::uint32_t r = lrb[x], re = lrb[x + 1]; r < re; ++r) ++count[rightOf[r]];
    }
    std::uint32_t pos = itemsUsed_;
    for (int z = 0; z < numRight_; ++z) {
        zb[z] = pos;
        pos += count[z];
        count[z] = zb[z]; // now the bucket's write cursor
    }
    zb[numRight_] = pos;
    if (pos > items_.size()) items_.resize(pos); // grows during warm-up only
    itemsUsed_ = pos;
    Item* items = items_.data();
    const float* post = chart_.post.data();
    for (const std::uint32_t* p = sym; p != symEnd; ++p) {
        const std::uint32_t x = static_cast<std::uint32_t>(*p - base);
        const float s = post[*p];
        for (std::uint32_t r = lrb[x], re = lrb[x + 1]; r < re; ++r) items[count[rightOf[r]]++] = {s, r};
    }
    std::fill(count, count + numRight_, 0u);
    return zb;
}

std::size_t Parser::scratchBytes() const {
    return items_.capacity() * sizeof(Item) + zBegins_.capacity() * sizeof(std::uint32_t) +
           (cellZBegin_.capacity() + cellDirtyBegin_.capacity()) * sizeof(std::uint32_t) +
           rightRows_.capacity() * sizeof(float) + rightBits_.capacity() * sizeof(std::uint64_t) +
           dirty_.capacity() * sizeof(std::uint32_t);
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
    for (int y = 0; y < N; ++y)
        if (pre[y] != kNegInf) pushes += unariesOf(g, y, pre[y], post, postW, [](std::uint32_t) {});
    return pushes;
}

// One split (i,j,k) of lines 15-21: for each right child z built in (j,k), every rule x -> y z
// whose y is built in (i,j) is one item of (i,j)'s bucket z, so the loop is one streaming pass
// of pushes. Buckets are visited by z, not by rule index, so a tie keeps the smaller witness
// explicitly: the result is the first maximum in (split, rule index) order, as in the reference.
long Parser::binarySplit(const Item* items, const RuleHead* heads, const std::uint32_t* zb, int W, const std::uint64_t* rightBits,
                         const float* rightRow, float* out, std::uint32_t* outW, std::uint64_t* pb,
                         std::uint32_t split) {
    long pushes = 0;
    for (int w = 0; w < W; ++w)
        for (std::uint64_t m = rightBits[w]; m; m &= m - 1) {
            const int z = w * 64 + __builtin_ctzll(m);
            const Item* it = items + zb[z];
            const Item* const end = items + zb[z + 1];
            pushes += end - it;
            const float rz = rightRow[z];
            for (; it != end; ++it) {
                const RuleHead h = heads[it->rule];
                const float cand = binaryEdgeScore(it->left, rz, h.logProb);
                const std::uint32_t p = h.parent;
                offer(out, outW, pb, p, cand, split | it->rule);
            }
        }
    return pushes;
}

// The same split without items, for a left cell that no later split will use (its last use;
// under a pruning mask often its only one): walks the cell's symbols and their rules in rule-index order and tests
// each rule's right child, which is cheaper than bucketing items that would be read once.
long Parser::directSplit(int leftCell, const std::uint64_t* rightBits, const float* rightRow, float* out,
                         std::uint32_t* outW, std::uint64_t* pb, std::uint32_t split) const {
    const std::uint32_t* p = dirty_.data() + cellDirtyBegin_[leftCell];
    const std::uint32_t* const end = dirty_.data() + cellDirtyBegin_[leftCell + 1];
    const std::size_t base = static_cast<std::size_t>(leftCell) * chart_.numSymbols;
    const float* post = chart_.post.data();
    const std::uint32_t* lrb = leftRulesBegin_.data();
    const std::uint32_t* rightOf = ruleRightId_.data();
    const RuleHead* heads = ruleHeads_.data();
    long pushes = 0;
    for (; p != end; ++p) {
        const std::uint32_t x = static_cast<std::uint32_t>(*p - base);
        const float s = post[*p];
        for (std::uint32_t r = lrb[x], re = lrb[x + 1]; r < re; ++r) {
            const std::uint32_t z = rightOf[r];
            if (!((rightBits[z >> 6] >> (z & 63)) & 1)) continue;
            ++pushes;
            const float cand = binaryEdgeScore(s, rightRow[z], heads[r].logProb);
            offer(out, outW, pb, heads[r].parent, cand, split | r);
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
    itemsUsed_ = 0;
    zBeginsUsed_ = 0;
    cellZBegin_.assign(cells, kUnbuilt);
    cellDirtyBegin_.assign(cells + 1, 0);
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
    // Whether left cell (i,j), used now by (i,k), may be used again: some kept (i,k'), k' > k,
    // whose right part (j,k') is a word or kept.
    auto laterUse = [&](int i, int j, int k) {
        if (!mask) return k < n;
        for (int k2 = k + 1; k2 <= n; ++k2)
            if ((k2 == n && i == 0) || mask->keep(i, k2))
                if (k2 - j == 1 || mask->keep(j, k2)) return true;
        return false;
    };
    // Lines 10-22, by increasing width; a cell's list is appended in cell order.
    for (int w = 2; w <= n; ++w) {
        for (int i = 0; i + w <= n; ++i) {
            const int k = i + w;
            const int cell = c.cell(i, k);
            const bool kept = !mask || mask->keep(i, k);
            if (w < n && kept) ++st.spansKept;
            if (!kept) { // line 14: the cell stays empty (no built symbols, no right bits)
                cellDirtyBegin_[cell] = cellDirtyBegin_[cell + 1] = static_cast<std::uint32_t>(dirty_.size());
                continue;
            }
            float* out = c.pre.data() + static_cast<std::size_t>(cell) * N;
            std::uint32_t* outW = c.preWitness.data() + static_cast<std::size_t>(cell) * N;
            long pushes = 0;
            for (int j = i + 1; j < k; ++j) {
                const int lc = c.cell(i, j), rc = c.cell(j, k);
                if (cellDirtyBegin_[lc] == cellDirtyBegin_[lc + 1]) continue; // left cell empty
                const std::uint64_t* rbits = rightBits_.data() + static_cast<std::size_t>(rc) * rightWords_;
                std::uint64_t anyRight = 0;
                for (int wi = 0; wi < rightWords_; ++wi) anyRight |= rbits[wi];
                if (!anyRight) continue;
                const float* rrow = rightRows_.data() + static_cast<std::size_t>(rc) * numRight_;
                const std::uint32_t split = packBinaryWitness(j - i, 0);
                if (cellZBegin_[lc] == kUnbuilt && !laterUse(i, j, k)) {
                    pushes += directSplit(lc, rbits, rrow, out, outW, pb, split);
                    continue;
                }
                const std::uint32_t* zb = cellItems(lc);
                if (zb[0] == zb[numRight_]) continue;
                pushes += binarySplit(items_.data(), ruleHeads_.data(), zb, rightWords_, rbits, rrow, out, outW, pb,
                                      split);
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
