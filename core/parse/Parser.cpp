// Pruned CKY (Alg. 1): the parse, row by row and cell by cell; the rule tables and memory budget
// are in ParserSetup.cpp.
#include "core/parse/Parser.h"

#include "core/parse/ParserKernels.h"
#include "core/util/Clock.h"

#include <algorithm>
#include <stdexcept>

namespace prunescope {

namespace {
constexpr std::uint32_t kUnbuilt = 0xFFFFFFFFu;
// A left cell with at most this many uses left is combined by direct passes instead of items.
#ifndef PRUNESCOPE_DIRECT_USES
#define PRUNESCOPE_DIRECT_USES 1
#endif
constexpr int kDirectUses = PRUNESCOPE_DIRECT_USES;

// Applies the unary rules x -> y of a built child y (pre score s) to the post layer, in rule order
// (sorted by (child, parent)), so strict '>' keeps the lowest-index witness among ties; built(x) is
// called when x improves. Returns the pushes.
template <class Built>
inline long unariesOf(const Grammar& g, std::uint32_t y, float s, float* post, std::uint32_t* postW,
                      Built built) {
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

// f(), its time added to (*phases).*field and one call to (*phases).*calls (if given) when phase
// timing is on.
template <class F>
inline auto timed(ParsePhases* phases, double ParsePhases::*field, long ParsePhases::*calls,
                  F&& f) {
    if (!phases) return f();
    const double t0 = wallSeconds();
    auto result = f();
    phases->*field += (wallSeconds() - t0) * 1e9;
    if (calls) ++(phases->*calls);
    return result;
}

template <class F> inline void forEachBit(const std::uint64_t* bits, int words, F&& f) {
    for (int wi = 0; wi < words; ++wi)
        for (std::uint64_t m = bits[wi]; m; m &= m - 1)
            f(static_cast<std::uint32_t>(wi * 64 + __builtin_ctzll(m)));
}
} // namespace

// Item arrays hold [0, count) plus kItemSlack initialized entries that vector loads may read.
// They count against the memory budget (with dense_) and their offsets are 32-bit.
// Whether a sentence fits is decided by what it needs (dense_ and `count`), never by what earlier
// sentences left allocated: a reused parser and a fresh one refuse the same sentences, so corpus
// results do not depend on the order or the thread that parsed them (test_parser checks it).
void Parser::growItems(std::size_t count) {
    const std::size_t size = count + cky::kItemSlack;
    constexpr std::size_t kItemBytes = 2 * sizeof(float) + 2 * sizeof(std::uint32_t);
    if (dense_ + size * kItemBytes > budget_ || size > 0xFFFFFFFFull)
        throw SentenceTooLarge("sentence of " + std::to_string(chart_.n) +
                               " words needs more than the memory budget of " +
                               std::to_string(budget_ >> 20) +
                               " MiB (its rule item lists outgrew it; raise --memory-budget)");
    if (itemLeft_.size() >= size) return;
    // Grow geometrically, but never past the budget or the 32-bit offsets (size itself fits both).
    const std::size_t room = std::min<std::size_t>((budget_ - dense_) / kItemBytes, 0xFFFFFFFFull);
    const std::size_t grown =
        std::min(std::max(size, itemLeft_.size() + itemLeft_.size() / 2), room);
    itemLeft_.resize(grown, 0.0f);
    itemLogProb_.resize(grown, 0.0f);
    itemParent_.resize(grown, 0u);
    itemRule_.resize(grown, 0u);
}

// Sizes the per-parse scratch for n words; the chart is emptied.
void Parser::prepare(int n) {
    chart_.reset(n, N_);
    const std::size_t cells = static_cast<std::size_t>(chart_.numCells());
    if (rightRows_.size() < cells * (numRight_ + 1)) rightRows_.resize(cells * (numRight_ + 1));
    if (rightBits_.size() < cells * rightWords_) rightBits_.resize(cells * rightWords_);
    rowZBegin_.assign(static_cast<std::size_t>(n) + 1, kUnbuilt);
}

// The unary layer of cell (i,k) from the dense pre row and preBits_ (its built symbols), then the
// cell's chart entries (ascending symbols) and right-child row; the dense row goes back to -inf.
// post(x) = max(pre(x), best unary x -> y): the unaries are tried in rule order (sorted by (child,
// parent)) with strict '>', and the identity wins ties, as in applyUnaries, so the same witnesses.
long Parser::finishCell(int i, int k, ParseStats& st) {
    const Grammar& g = *g_;
    const int cell = chart_.cell(i, k);
    float* pre = out_.data();
    const std::uint32_t* preW = outW_.data();
    std::uint64_t* pb = preBits_.data();
    std::uint64_t* qb = postBits_.data();
    float* uVal = unaryBest_.data();
    std::uint32_t* uW = unaryBestW_.data();
    long pushes = 0;
    for (int wi = 0; wi < bitWords_; ++wi)
        qb[wi] = pb[wi];
    for (int wi = 0; wi < bitWords_; ++wi) {
        for (std::uint64_t m = pb[wi] & hasUnary_[wi]; m; m &= m - 1) {
            const std::uint32_t y = static_cast<std::uint32_t>(wi * 64 + __builtin_ctzll(m));
            const float s = pre[y];
            const std::uint32_t b = g.unaryByChildBegin[y], e = g.unaryByChildBegin[y + 1];
            pushes += e - b;
            for (std::uint32_t r = b; r < e; ++r) {
                const std::uint32_t x = g.unary[r].parent;
                const std::uint32_t u = unaryParentId_[x];
                const float cand = s + g.unary[r].logProb;
                if (cand > uVal[u]) {
                    uVal[u] = cand;
                    uW[u] = r + 1;
                    qb[x >> 6] |= std::uint64_t{1} << (x & 63);
                }
            }
        }
    }
    float* right = rightRows_.data() + static_cast<std::size_t>(cell) * (numRight_ + 1);
    std::uint64_t* rbits = rightBits_.data() + static_cast<std::size_t>(cell) * rightWords_;
    for (int wi = 0; wi < rightWords_; ++wi)
        rbits[wi] = 0;
    std::fill(right, right + numRight_, kNegInf);
    ChartEntry* dst = chart_.appendCell(cell, static_cast<std::size_t>(N_));
    std::size_t built = 0;
    for (int wi = 0; wi < bitWords_; ++wi)
        for (std::uint64_t m = qb[wi]; m; m &= m - 1) {
            const std::uint32_t x = static_cast<std::uint32_t>(wi * 64 + __builtin_ctzll(m));
            const float p = pre[x];
            ChartEntry& e = dst[built++];
            e.symbol = x;
            e.pre = p;
            e.preWitness = p == kNegInf ? kNoWitness : preW[x];
            e.post = p;
            e.postWitness = 0;
            const std::uint32_t u = unaryParentId_[x];
            if (uVal[u] > p) {
                e.post = uVal[u];
                e.postWitness = uW[u];
            }
            uVal[u] =
                kNegInf; // every improved unary parent has its bit in qb (the dummy stays -inf)
            // Non-right symbols write a dummy slot (numRight_), whose bit is cleared below.
            const std::uint32_t rid = rightIdOrDummy_[x];
            right[rid] = e.post;
            rbits[rid >> 6] |= std::uint64_t{1} << (rid & 63);
            pre[x] = kNegInf;
        }
    rbits[numRight_ >> 6] &= ~(std::uint64_t{1} << (numRight_ & 63));
    chart_.endCell(cell, built);
    st.constituents += static_cast<long>(built);
    for (int wi = 0; wi < bitWords_; ++wi)
        pb[wi] = 0;
    return pushes;
}

void Parser::emptyCell(int i, int k) {
    const int cell = chart_.cell(i, k);
    std::uint64_t* rbits = rightBits_.data() + static_cast<std::size_t>(cell) * rightWords_;
    for (int wi = 0; wi < rightWords_; ++wi)
        rbits[wi] = 0;
    float* right = rightRows_.data() + static_cast<std::size_t>(cell) * (numRight_ + 1);
    std::fill(right, right + numRight_, kNegInf);
}

// Every binary rule whose left child the row's cell (i,j) built becomes an Item, in the bucket of
// the rule's right child (ascending rule index within a bucket). With AVX-512, only the buckets of
// the right children the cell will meet (`needed`: rows below are finished, so they are known) are
// filled, by filtering each such right child's rule list with the cell's scores. Otherwise the
// cell's own rule groups with a needed right child are counted, then copied into packed buckets;
// the groups of right children no split of the row reads are skipped. Either way bucket z is
// [zBegin[z], zEnd[z]).
std::uint32_t Parser::cellItems(int i, int j, const std::uint64_t* needed) {
    const std::uint32_t base = itemsUsed_;
    growItems(static_cast<std::size_t>(base) + g_->binary.size()); // grows during warm-up only
    const std::size_t zAt = zBeginsUsed_;
    zBeginsUsed_ += static_cast<std::uint32_t>(numRight_);
    if (zBeginsUsed_ > zBegins_.size()) zBegins_.resize(zBeginsUsed_), zEnds_.resize(zBeginsUsed_);
    std::uint32_t* zb = zBegins_.data() + zAt;
    std::uint32_t* cursor = zEnds_.data() + zAt;
    const std::span<const ChartEntry> symbols = chart_.entries(i, j);
    if (kernel_ == CkyKernel::Avx512) {
        float* dense = leftDense_.data();
        for (const ChartEntry& e : symbols)
            dense[e.symbol] = e.post;
        const ItemBuild b{dense,
                          needed,
                          numRight_,
                          byRightBegin_.data(),
                          byRightLeft_.data(),
                          byRightLogProb_.data(),
                          byRightParent_.data(),
                          byRightRule_.data(),
                          itemLeft_.data(),
                          itemLogProb_.data(),
                          itemParent_.data(),
                          itemRule_.data(),
                          base,
                          zb,
                          cursor};
        itemsUsed_ = cky::buildItemsAvx512(b);
        for (const ChartEntry& e : symbols)
            dense[e.symbol] = kNegInf;
        return static_cast<std::uint32_t>(zAt);
    }
    const ItemScatter sc{symbols.data(),
                         symbols.data() + symbols.size(),
                         leftGroups(),
                         needed,
                         ruleLogProb_.data(),
                         ruleParent_.data(),
                         itemLeft_.data(),
                         itemLogProb_.data(),
                         itemParent_.data(),
                         itemRule_.data(),
                         zb,
                         cursor,
                         base,
                         numRight_};
    itemsUsed_ = scatterKernel_(sc);
    return static_cast<std::uint32_t>(zAt);
}

long Parser::applyUnaries(const Grammar& g, DenseChart& chart, int i, int k) {
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

Parser::LeftGroups Parser::leftGroups() const {
    return LeftGroups{leftRightBits_.data(), g_->groupsByLeftBegin.data(), groupRule_.data(),
                      rightWords_};
}

// The split (i,j,k) without items, for a left cell that no later split will use (its last use;
// under a pruning mask often its only one): walks the cell's symbols and their rules in rule-index
// order and tests each rule's right child, which is cheaper than bucketing items that would be read
// once.
long Parser::directSplit(int i, int j, const std::uint64_t* rightBits, const float* rightRow,
                         std::uint32_t split) {
    const std::span<const ChartEntry> left = chart_.entries(i, j);
    const Direct d{left.data(),         left.data() + left.size(),
                   leftGroups(),        leftRulesBegin_.data(),
                   ruleRightId_.data(), ruleLogProb_.data(),
                   ruleParent_.data(),  ruleIndex_.data(),
                   rightBits,           rightRow,
                   out_.data(),         outW_.data(),
                   preBits_.data(),     split};
    return directKernel_(d);
}

ParseStats Parser::parse(std::span<const std::string> words, const PruningMask* mask) {
    const int n = static_cast<int>(words.size());
    if (n == 0) throw std::invalid_argument("cannot parse an empty sentence");
    checkFits(n);
    if (mask && mask->n != n)
        throw std::invalid_argument("mask is for " + std::to_string(mask->n) +
                                    " words, sentence has " + std::to_string(n));
    dense_ = denseBytes(n);
    try {
        if (!phases_) return parseChecked(words, mask);
        const double t0 = wallSeconds();
        const ParseStats st = parseChecked(words, mask);
        phases_->total += (wallSeconds() - t0) * 1e9;
        ++phases_->parses;
        phases_->pushes += st.pushes;
        phases_->cells += chart_.numCells();
        return st;
    } catch (...) {
        // A parse stopped midway (item lists over the budget, out of memory) leaves the cell being
        // built half written: drop the chart and the items, restore the scratch's resting state.
        chart_ = Chart{};
        for (auto* v : {&itemLeft_, &itemLogProb_})
            std::vector<float>().swap(*v);
        for (auto* v : {&itemParent_, &itemRule_})
            std::vector<std::uint32_t>().swap(*v);
        itemsUsed_ = 0;
        zBeginsUsed_ = 0;
        std::fill(out_.begin(), out_.end(), kNegInf);
        std::fill(outW_.begin(), outW_.end(), kNoWitness);
        std::fill(leftDense_.begin(), leftDense_.end(), kNegInf);
        std::fill(unaryBest_.begin(), unaryBest_.end(), kNegInf);
        std::fill(unaryBestW_.begin(), unaryBestW_.end(), kNoWitness);
        std::fill(preBits_.begin(), preBits_.end(), 0);
        std::fill(postBits_.begin(), postBits_.end(), 0);
        dense_ = 0;
        growItems(0);
        throw;
    }
}

// Lines 4-9 of Alg. 1: the lexical rules of word i, then the unary layer.
void Parser::lexicalCell(int i, ParseStats& st) {
    std::uint64_t* pb = preBits_.data();
    for (const LexicalEntry& e : g_->lexicalEntries(words_[i], i)) {
        ++st.pushes;
        out_[e.tag] = e.logProb;
        outW_[e.tag] = kLexicalWitness;
        pb[e.tag >> 6] |= std::uint64_t{1} << (e.tag & 63);
    }
    st.pushes +=
        timed(phases_, &ParsePhases::finishCell, nullptr, [&] { return finishCell(i, i + 1, st); });
}

// Whether (i,j)'s items pay off at split j of (i,k): they do when (i,j) has more than kDirectUses
// uses left, this split and every later one with a non-empty right part (j,k') of a kept (i,k').
// Fills neededBits_ with the right children those splits can use.
bool Parser::itemsPayOff(int i, int j, int k, const PruningMask* mask, const std::uint64_t* rbits) {
    const int n = static_cast<int>(words_.size());
    std::uint64_t* needed = neededBits_.data();
    int uses = 1;
    for (int wi = 0; wi < rightWords_; ++wi)
        needed[wi] = rbits[wi];
    for (int k2 = k + 1; k2 <= n; ++k2) {
        if (mask && !(k2 == n && i == 0) && !mask->keep(i, k2)) continue;
        const std::uint64_t* rb2 =
            rightBits_.data() + static_cast<std::size_t>(chart_.cell(j, k2)) * rightWords_;
        std::uint64_t any = 0;
        for (int wi = 0; wi < rightWords_; ++wi)
            needed[wi] |= rb2[wi], any |= rb2[wi];
        uses += any != 0;
    }
    return uses > kDirectUses;
}

// Lines 15-20 of Alg. 1 for a kept cell (i,k): every split point's binary rules, by items (built
// once per left cell and row) or, until they pay off, by a direct pass. Returns the pushes.
long Parser::binaryCell(int i, int k, const PruningMask* mask, Split& sp) {
    long pushes = 0;
    for (int j = i + 1; j < k; ++j) {
        if (chart_.entries(i, j).empty()) continue; // left cell empty
        const int rc = chart_.cell(j, k);
        const std::uint64_t* rbits = rightBits_.data() + static_cast<std::size_t>(rc) * rightWords_;
        std::uint64_t anyRight = 0;
        for (int wi = 0; wi < rightWords_; ++wi)
            anyRight |= rbits[wi];
        if (!anyRight) continue;
        const float* rrow = rightRows_.data() + static_cast<std::size_t>(rc) * (numRight_ + 1);
        const std::uint32_t split = packBinaryWitness(j - i, 0);
        if (rowZBegin_[j] == kUnbuilt) {
            if (!itemsPayOff(i, j, k, mask, rbits)) {
                pushes += timed(phases_, &ParsePhases::direct, &ParsePhases::directs,
                                [&] { return directSplit(i, j, rbits, rrow, split); });
                continue;
            }
            const std::uint32_t itemsBefore = itemsUsed_;
            rowZBegin_[j] = timed(phases_, &ParsePhases::itemBuild, &ParsePhases::itemBuilds,
                                  [&] { return cellItems(i, j, neededBits_.data()); });
            if (phases_) phases_->items += itemsUsed_ - itemsBefore;
        }
        sp.items =
            Items{itemLeft_.data(), itemLogProb_.data(), itemParent_.data(), itemRule_.data()};
        sp.zBegin = zBegins_.data() + rowZBegin_[j];
        sp.zEnd = zEnds_.data() + rowZBegin_[j];
        sp.rightBits = rbits;
        sp.rightRow = rrow;
        sp.split = split;
        pushes += timed(phases_, &ParsePhases::split, &ParsePhases::splits,
                        [&] { return splitKernel_(sp); });
    }
    return pushes;
}

// ROOT over the whole sentence. Root rules are sorted by child and the entries by symbol:
// rule-index order, strict '>'.
void Parser::rootLayer(ParseStats& st) {
    Chart& c = chart_;
    const int n = static_cast<int>(words_.size());
    for (const ChartEntry& e : c.entries(0, n))
        for (std::uint32_t r = rootBegin_[e.symbol]; r < rootBegin_[e.symbol + 1]; ++r) {
            ++st.pushes;
            const float cand = e.post + g_->rootRules[r].logProb;
            if (cand > c.rootScore) {
                c.rootScore = cand;
                c.rootWitness = r;
            }
        }
    st.success = c.rootScore != kNegInf;
    st.logProb = st.success ? c.rootScore : 0.0;
}

ParseStats Parser::parseChecked(std::span<const std::string> words, const PruningMask* mask) {
    const int n = static_cast<int>(words.size());
    words_.assign(words.begin(), words.end());
    prepare(n);
    ParseStats st;
    Split sp;
    sp.rightWords = rightWords_;
    sp.out = out_.data();
    sp.outW = outW_.data();
    sp.preBits = preBits_.data();
    // Rows from the right: cell (i,k) needs (i,j), built earlier in this row, and (j,k), j > i,
    // built in an earlier row. The row's items serve only the row.
    for (int i = n - 1; i >= 0; --i) {
        itemsUsed_ = 0;
        zBeginsUsed_ = 0;
        std::fill(rowZBegin_.begin(), rowZBegin_.end(), kUnbuilt);
        lexicalCell(i, st);
        for (int k = i + 2; k <= n; ++k) { // lines 10-22
            const bool kept = !mask || mask->keep(i, k);
            if (k - i < n && kept) ++st.spansKept;
            if (!kept) { // line 14: the cell stays empty (no entries, no right bits)
                emptyCell(i, k);
                continue;
            }
            st.pushes += binaryCell(i, k, mask, sp);
            st.pushes += timed(phases_, &ParsePhases::finishCell, nullptr,
                               [&] { return finishCell(i, k, st); });
        }
    }
    rootLayer(st);
    return st;
}

} // namespace prunescope
