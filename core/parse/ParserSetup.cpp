// Pruned CKY (Alg. 1), set-up: the parser's rule tables, built once per grammar, and its memory
// budget (its figures in docs/benchmarks.md). The parse itself is in Parser.cpp.
#include "core/parse/Parser.h"

#include "core/parse/ParserKernels.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace prunescope {

Parser::Parser(const Grammar& g, CkyKernel kernel) : g_(&g), N_(g.numSymbols()) {
    if (kernel == CkyKernel::Auto) kernel = bestCkyKernel();
    if (!ckyKernelSupported(kernel))
        throw std::invalid_argument(std::string("this CPU does not support the ") +
                                    ckyKernelName(kernel) + " CKY kernel");
    kernel_ = kernel;
    splitKernel_ = cky::splitKernel(kernel);
    directKernel_ = cky::directKernel(kernel);
    scatterKernel_ = cky::itemScatterKernel(kernel);
    const int N = N_;
    rightId_.assign(N, -1);
    for (const BinaryRule& r : g.binary)
        rightId_[r.right] = 0;
    for (int x = 0; x < N; ++x)
        if (rightId_[x] == 0)
            rightId_[x] = numRight_++;
        else
            rightId_[x] = -1;
    rightWords_ = (numRight_ + 1 + 63) / 64; // + the dummy bit of finishCell
    // Grammar::binary is sorted by (left, right, parent) and the dense ids keep symbol order, so
    // the rules of a left symbol are contiguous and sorted by (right id, rule index).
    leftRulesBegin_.assign(N + 1, 0);
    for (const BinaryRule& br : g.binary) {
        ruleLogProb_.push_back(br.logProb);
        ruleParent_.push_back(br.parent);
        ruleRightId_.push_back(static_cast<std::uint32_t>(rightId_[br.right]));
        ++leftRulesBegin_[br.left + 1];
    }
    for (int y = 0; y < N; ++y)
        leftRulesBegin_[y + 1] += leftRulesBegin_[y];
    for (std::uint32_t r = 0; r < g.binary.size(); ++r)
        ruleIndex_.push_back(r);
    staticZBegin_.assign(numRight_ + 1, 0);
    for (const BinaryRule& br : g.binary)
        ++staticZBegin_[rightId_[br.right] + 1];
    // Grammar::groups cover the rules in order, one run per (left, right): per symbol, the right
    // children of its groups, and each group's first rule.
    leftRightBits_.assign(static_cast<std::size_t>(N) * rightWords_, 0);
    for (std::size_t gi = 0; gi < g.groups.size(); ++gi) {
        const RuleGroup& gr = g.groups[gi];
        if (gr.begin != (gi == 0 ? 0u : g.groups[gi - 1].end) || gr.end <= gr.begin)
            throw std::logic_error("Grammar::groups do not cover the binary rules in order");
        const std::uint32_t z = static_cast<std::uint32_t>(rightId_[gr.right]);
        leftRightBits_[static_cast<std::size_t>(g.binary[gr.begin].left) * rightWords_ +
                       (z >> 6)] |= std::uint64_t{1} << (z & 63);
        groupRule_.push_back(gr.begin);
    }
    groupRule_.push_back(static_cast<std::uint32_t>(g.binary.size()));
    if (groupRule_.size() > 1 && g.groups.back().end != g.binary.size())
        throw std::logic_error("Grammar::groups do not cover the binary rules in order");
    for (int z = 0; z < numRight_; ++z)
        staticZBegin_[z + 1] += staticZBegin_[z];
    // The rules of each right child in index order (binaryByRight is sorted by (right, index), and
    // dense right ids keep symbol order), for the AVX-512 item builder.
    byRightBegin_.assign(numRight_ + 1, 0);
    for (int z = 0; z < numRight_; ++z)
        byRightBegin_[z + 1] = byRightBegin_[z] + (staticZBegin_[z + 1] - staticZBegin_[z]);
    for (int x = 0; x < N; ++x) {
        if (rightId_[x] < 0) continue;
        for (std::uint32_t b = g.binaryByRightBegin[x]; b < g.binaryByRightBegin[x + 1]; ++b) {
            const std::uint32_t r = g.binaryByRight[b];
            byRightLeft_.push_back(g.binary[r].left);
            byRightLogProb_.push_back(g.binary[r].logProb);
            byRightParent_.push_back(g.binary[r].parent);
            byRightRule_.push_back(r);
        }
    }
    leftDense_.assign(N, kNegInf);
    neededBits_.assign(rightWords_, 0);
    rootBegin_.assign(N + 1, 0);
    for (const UnaryRule& r : g.rootRules)
        ++rootBegin_[r.child + 1];
    for (int x = 0; x < N; ++x)
        rootBegin_[x + 1] += rootBegin_[x];
    bitWords_ = (N + 63) / 64;
    preBits_.assign(bitWords_, 0);
    postBits_.assign(bitWords_, 0);
    out_.assign(N, kNegInf);
    outW_.assign(N, kNoWitness);
    // Dense ids of unary parents (the dummy numUnaryParents_ for the others), children with
    // unaries, and right-child ids with a dummy slot for the rest (finishCell writes branch-free).
    unaryParentId_.assign(N, 0);
    std::vector<int> isParent(N, 0);
    for (const UnaryRule& u : g.unary)
        isParent[u.parent] = 1;
    int numUnaryParents = 0;
    for (int x = 0; x < N; ++x)
        if (isParent[x]) unaryParentId_[x] = static_cast<std::uint32_t>(numUnaryParents++);
    for (int x = 0; x < N; ++x)
        if (!isParent[x]) unaryParentId_[x] = static_cast<std::uint32_t>(numUnaryParents);
    unaryBest_.assign(numUnaryParents + 1, kNegInf);
    unaryBestW_.assign(numUnaryParents + 1, kNoWitness);
    hasUnary_.assign(bitWords_, 0);
    for (const UnaryRule& u : g.unary)
        hasUnary_[u.child >> 6] |= std::uint64_t{1} << (u.child & 63);
    rightIdOrDummy_.assign(N, static_cast<std::uint32_t>(numRight_));
    for (int x = 0; x < N; ++x)
        if (rightId_[x] >= 0) rightIdOrDummy_[x] = static_cast<std::uint32_t>(rightId_[x]);
    growItems(0);
}

std::size_t Parser::denseBytes(int n) const {
    const std::size_t cells = static_cast<std::size_t>(n) * (static_cast<std::size_t>(n) + 1) / 2;
    const std::size_t N = static_cast<std::size_t>(N_);
    // Per cell: at worst every symbol built (one ChartEntry each), its offsets, its right row
    // (numRight_ + 1 scores) and right bits; per position, the row's bucket offsets.
    return cells * (N * sizeof(ChartEntry) + 2 * sizeof(std::uint32_t) +
                    (static_cast<std::size_t>(numRight_) + 1) * sizeof(float) +
                    static_cast<std::size_t>(rightWords_) * sizeof(std::uint64_t)) +
           (static_cast<std::size_t>(n) + 1) * (2 * static_cast<std::size_t>(numRight_) + 1) *
               sizeof(std::uint32_t);
}

void Parser::checkFits(int n) const {
    if (n > kMaxSentenceLength)
        throw SentenceTooLarge("sentence of " + std::to_string(n) +
                               " words is longer than the parser's limit of " +
                               std::to_string(kMaxSentenceLength) + " words");
    const std::size_t cells = static_cast<std::size_t>(n) * (static_cast<std::size_t>(n) + 1) / 2;
    const std::size_t need = denseBytes(n);
    // Chart indices are 32-bit: refuse what they cannot address whatever the budget.
    if (need > budget_ ||
        cells * static_cast<std::size_t>(g_->numSymbols()) >= (std::size_t{1} << 32))
        throw SentenceTooLarge("sentence of " + std::to_string(n) + " words needs about " +
                               std::to_string((need + (1u << 20) - 1) >> 20) +
                               " MiB to parse, more than the memory budget of " +
                               std::to_string(budget_ >> 20) +
                               " MiB (raise it with --memory-budget)");
}

std::size_t Parser::scratchBytes() const {
    return (itemLeft_.capacity() + itemLogProb_.capacity()) * sizeof(float) +
           (itemParent_.capacity() + itemRule_.capacity()) * sizeof(std::uint32_t) +
           (zBegins_.capacity() + zEnds_.capacity() + rowZBegin_.capacity()) *
               sizeof(std::uint32_t) +
           rightRows_.capacity() * sizeof(float) + rightBits_.capacity() * sizeof(std::uint64_t) +
           (out_.capacity() + unaryBest_.capacity()) * sizeof(float) +
           (outW_.capacity() + unaryBestW_.capacity()) * sizeof(std::uint32_t) +
           (preBits_.capacity() + postBits_.capacity()) * sizeof(std::uint64_t);
}

} // namespace prunescope
