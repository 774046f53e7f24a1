// Change propagation (sec. 5.2): the roll-in parse (Alg. 1, exactly as Parser::parse computes it)
// into memory that is reused from sentence to sentence.
#include "core/rollout/ChangePropagator.h"

#include "core/parse/Parser.h"

#include <stdexcept>

namespace prunescope {

ChangePropagator::ChangePropagator(const Grammar& g) : g_(&g), N_(g.numSymbols()) {
    rootBegin_.assign(N_ + 1, 0);
    for (const auto& r : g.rootRules)
        ++rootBegin_[r.child + 1];
    for (int x = 0; x < N_; ++x)
        rootBegin_[x + 1] += rootBegin_[x];
    parentRules_.resize(g.binary.size());
    for (std::size_t b = 0; b < g.binary.size(); ++b) {
        const std::uint32_t r = g.binaryByParent[b];
        parentRules_[b] = ParentRule{g.binary[r].left, g.binary[r].right, g.binary[r].logProb, r};
    }
    scratch_.assign(N_, kNegInf);
    scratchW_.assign(N_, kNoWitness);
    batchRules_ = g.binary.size() / 4;
}

ChangePropagator::ChangePropagator(const Grammar& g, std::vector<std::string> words,
                                   PruningMask mask)
    : ChangePropagator(g) {
    reset(std::move(words), std::move(mask));
}

void ChangePropagator::reset(std::vector<std::string> words, PruningMask mask) {
    const Grammar& g = *g_;
    const int n = static_cast<int>(words.size());
    if (n == 0) throw std::invalid_argument("cannot parse an empty sentence");
    if (n > kMaxSentenceLength)
        throw std::invalid_argument("sentence longer than " + std::to_string(kMaxSentenceLength) +
                                    " words");
    // Vertex ids (pre and post layer of every cell) are 32-bit, with a few values reserved.
    if (2ull * (n * (n + 1ull) / 2) * N_ >= 0xFFFFFFF0ull)
        throw std::invalid_argument("sentence too long for change propagation with this grammar (" +
                                    std::to_string(n) + " words)");
    if (mask.n != n)
        throw std::invalid_argument("mask is for " + std::to_string(mask.n) +
                                    " words, sentence has " + std::to_string(n));
    while (log_.hasFrames())
        undo();
    // Clear what the previous roll-in built; everything else is already -inf / empty.
    for (const std::uint32_t v : dirty_) {
        chart_.pre[v] = chart_.post[v] = kNegInf;
        chart_.preWitness[v] = chart_.postWitness[v] = kNoWitness;
        firstUser_[2ull * v] = firstUser_[2ull * v + 1] = kNil;
    }
    dirty_.clear();
    words_ = std::move(words);
    mask_ = std::move(mask);
    hasGold_ = f1Valid_ = baseValid_ = false;
    trackPushes_ = true;
    outside_.invalidate();
    for (const std::uint32_t v : bestVertices_)
        onBest_[v] = 0;
    bestVertices_.clear();
    DenseChart& c = chart_;
    c.n = n;
    c.numSymbols = N_;
    c.cellOffsetByWidth.assign(n + 2, 0);
    for (int w = 1; w <= n; ++w)
        c.cellOffsetByWidth[w + 1] = c.cellOffsetByWidth[w] + (n - w + 1);
    const int cells = c.numCells();
    const std::size_t size = static_cast<std::size_t>(cells) * N_;
    // Exact sizes (as the parser's chart; growing fills only the new tail), or with
    // setExactChartSize(false) never shrinking, so alternating lengths refill nothing.
    if (exactChartSize_ || c.pre.size() < size) {
        c.pre.resize(size, kNegInf);
        c.post.resize(size, kNegInf);
        c.preWitness.resize(size, kNoWitness);
        c.postWitness.resize(size, kNoWitness);
    }
    links_.ensure(2 * size);
    log_.reserveVertices(2 * size);
    if (firstUser_.size() < 2 * size) {
        firstUser_.resize(2 * size, kNil);
        onBest_.resize(2 * size, 0);
        exactStamp_.resize(2 * size, 0);
    }
    c.rootScore = kNegInf;
    c.rootWitness = kNoWitness;
    postBase_ = static_cast<std::uint32_t>(size);
    cellI_.resize(cells);
    cellK_.resize(cells);
    for (int w = 1; w <= n; ++w)
        for (int i = 0; i + w <= n; ++i)
            cellI_[c.cell(i, i + w)] = i, cellK_[c.cell(i, i + w)] = i + w;
    cellBuilt_.assign(cells, 0);
    binaryPushes_.assign(cells, 0);
    pendingRules_.assign(cells, 0);
    if (buckets_.size() < static_cast<std::size_t>(2 * (n + 1))) buckets_.resize(2 * (n + 1));
    log_.clear();
    events_.clear();
    pushes_ = constituents_ = 0;
    spansKept_ = 0;

    // Alg. 1 with the parser's exact float expressions, loop order and counters.
    auto finishCell = [&](int i, int k) {
        pushes_ += Parser::applyUnaries(g, c, i, k);
        const std::uint32_t base = static_cast<std::uint32_t>(c.cell(i, k)) * N_;
        for (int x = 0; x < N_; ++x) {
            if (c.pre[base + x] == kNegInf && c.post[base + x] == kNegInf) continue;
            dirty_.push_back(base + x);
            if (c.post[base + x] != kNegInf) ++cellBuilt_[c.cell(i, k)], ++constituents_;
        }
    };
    for (int i = 0; i < n; ++i) {
        const std::size_t base = c.at(i, i + 1, 0);
        for (const LexicalEntry& e : g.lexicalEntries(words_[i], i)) {
            ++pushes_;
            c.pre[base + e.tag] = e.logProb;
            c.preWitness[base + e.tag] = kLexicalWitness;
        }
        finishCell(i, i + 1);
    }
    for (int w = 2; w <= n; ++w)
        for (int i = 0; i + w <= n; ++i) {
            if (!mask_.keep(i, i + w)) continue;
            if (w < n) ++spansKept_;
            const int cell = c.cell(i, i + w);
            const std::size_t base = static_cast<std::size_t>(cell) * N_;
            binaryPushes_[cell] =
                fillCell(i, i + w, c.pre.data() + base, c.preWitness.data() + base);
            pushes_ += binaryPushes_[cell];
            finishCell(i, i + w);
        }
    const float* top = c.postRow(0, n);
    for (std::uint32_t r = 0; r < g.rootRules.size(); ++r) {
        const float s = top[g.rootRules[r].child];
        if (s == kNegInf) continue;
        ++pushes_;
        const float cand = s + g.rootRules[r].logProb;
        if (cand > c.rootScore) c.rootScore = cand, c.rootWitness = r;
    }
    for (const std::uint32_t v : dirty_)
        linkUser(v, c.preWitness[v], true);
    rollInPushes_ = pushes_;
    fallbacks_ = 0;
    lastFellBack_ = false;
    work_ = 0;
}

} // namespace prunescope
