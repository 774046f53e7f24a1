#include "core/parse/CkyIdealLoop.h"

#include "core/parse/DenseChart.h"
#include "core/parse/ParserKernels.h"
#include "core/util/Clock.h"

#include <algorithm>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <vector>

namespace prunescope {

namespace {
// Times pass() (all cells once, `pushes` pushes) for about `seconds`; best of three rounds,
// Mpush/s.
template <class Pass> double timeLoop(double seconds, long pushes, Pass pass) {
    double best = 0;
    for (int round = 0; round < 3; ++round) {
        long passes = 0;
        const double t0 = threadCpuSeconds();
        double t = t0;
        while (t - t0 < seconds / 3 || passes == 0) {
            pass();
            ++passes;
            t = threadCpuSeconds();
        }
        best = std::max(best,
                        static_cast<double>(passes) * static_cast<double>(pushes) / (t - t0) / 1e6);
    }
    return best;
}

// One split of a chosen cell, for the kernel loop: the left cell's items bucketed by right child
// (as the parser builds them) and the right cell's row.
struct KernelSplit {
    std::size_t itemBegin, zBegin;
    std::size_t rightBegin;
    std::uint32_t split;
};
} // namespace

IdealLoopResult measureIdealLoop(const Grammar& g, std::span<const std::string> words,
                                 CkyKernel kernel, double seconds) {
    if (words.empty()) throw std::invalid_argument("the ideal loop needs a sentence");
    Parser parser(g);
    const ParseStats all = parser.parse(words);
    const DenseChart c = toDense(parser.chart());
    const int n = c.n;
    const std::size_t N = static_cast<std::size_t>(c.numSymbols);
    std::vector<std::int32_t> rightId(N, -1);
    int numRight = 0;
    for (const BinaryRule& r : g.binary)
        rightId[r.right] = 0;
    for (std::size_t x = 0; x < N; ++x)
        rightId[x] = rightId[x] == 0 ? numRight++ : -1;
    const int rightWords = std::max(1, (numRight + 63) / 64);

    // The pushes of every m-th cell (so that the mix of widths is the sentence's), split by split,
    // in the parser's order (right child by dense id, then rule index), and the same splits as
    // kernel inputs.
    const int m =
        static_cast<int>(std::max<long>(1, (all.pushes + kIdealPushes - 1) / kIdealPushes));
    int seen = 0;
    std::vector<float> pl, pr, plp;
    std::vector<std::uint32_t> pp, pw;
    std::vector<std::size_t> cellEnd; // push index where each cell ends
    std::vector<std::size_t> cellSplitEnd;
    std::vector<std::pair<int, int>> cellSpans;
    std::vector<KernelSplit> splits;
    std::vector<float> itemLeft, itemLogProb, rightRows;
    std::vector<std::uint32_t> itemParent, itemRule, zBegins;
    std::vector<std::uint64_t> rightBits;
    IdealLoopResult res;
    for (int w = n; w >= 2; --w)
        for (int i = 0; i + w <= n; ++i) {
            if (seen++ % m != 0) continue;
            const int k = i + w;
            for (int j = i + 1; j < k; ++j) {
                const float* L = c.postRow(i, j);
                const float* R = c.postRow(j, k);
                const std::uint32_t split = packBinaryWitness(j - i, 0);
                KernelSplit ks{itemLeft.size(), zBegins.size(), rightRows.size(), split};
                std::vector<std::uint64_t> bits(rightWords, 0);
                for (std::size_t z = 0; z < N; ++z) {
                    if (rightId[z] < 0) continue;
                    if (R[z] != kNegInf)
                        bits[rightId[z] / 64] |= std::uint64_t{1} << (rightId[z] % 64);
                }
                std::vector<float> row(numRight, 0.0f);
                for (std::size_t z = 0; z < N; ++z)
                    if (rightId[z] >= 0 && R[z] != kNegInf) row[rightId[z]] = R[z];
                // Items of the left cell by dense right id (binaryByRight is sorted by (right,
                // index)).
                for (std::size_t z = 0; z < N; ++z) {
                    if (rightId[z] < 0) continue;
                    zBegins.push_back(static_cast<std::uint32_t>(itemLeft.size() - ks.itemBegin));
                    for (std::uint32_t b = g.binaryByRightBegin[z]; b < g.binaryByRightBegin[z + 1];
                         ++b) {
                        const std::uint32_t r = g.binaryByRight[b];
                        const BinaryRule& br = g.binary[r];
                        if (L[br.left] == kNegInf) continue;
                        itemLeft.push_back(L[br.left]);
                        itemLogProb.push_back(br.logProb);
                        itemParent.push_back(br.parent);
                        itemRule.push_back(r);
                        if (R[z] == kNegInf) continue;
                        pl.push_back(L[br.left]);
                        pr.push_back(R[z]);
                        plp.push_back(br.logProb);
                        pp.push_back(br.parent);
                        pw.push_back(split | r);
                    }
                }
                zBegins.push_back(static_cast<std::uint32_t>(itemLeft.size() - ks.itemBegin));
                for (std::uint32_t s = 0; s < cky::kItemSlack; ++s) { // slack for vector loads
                    itemLeft.push_back(0.0f), itemLogProb.push_back(0.0f), itemParent.push_back(0),
                        itemRule.push_back(0);
                }
                rightRows.insert(rightRows.end(), row.begin(), row.end());
                rightBits.insert(rightBits.end(), bits.begin(), bits.end());
                splits.push_back(ks);
            }
            cellEnd.push_back(pl.size());
            cellSplitEnd.push_back(splits.size());
            cellSpans.emplace_back(i, k);
        }
    res.pushes = static_cast<long>(pl.size());
    res.cells = static_cast<int>(cellEnd.size());
    if (res.pushes == 0) return res;

    std::vector<float> out(N, kNegInf);
    std::vector<std::uint32_t> outW(N, kNoWitness);
    std::vector<std::uint64_t> preBits((N + 63) / 64, 0);
    volatile float sink = 0;
    auto resetRow = [&] {
        sink = sink + out[pp[0]];
        std::fill(out.begin(), out.end(), kNegInf);
        std::fill(outW.begin(), outW.end(), kNoWitness);
    };
    const Parser::SplitKernel run =
        cky::splitKernel(kernel == CkyKernel::Auto ? bestCkyKernel() : kernel);
    auto kernelSplit = [&](std::size_t s) {
        const KernelSplit& ks = splits[s];
        Parser::Split sp;
        sp.items = Parser::Items{itemLeft.data() + ks.itemBegin, itemLogProb.data() + ks.itemBegin,
                                 itemParent.data() + ks.itemBegin, itemRule.data() + ks.itemBegin};
        sp.zBegin = zBegins.data() + ks.zBegin;
        sp.zEnd = sp.zBegin + 1; // prefix offsets: bucket z is [zBegin[z], zBegin[z+1])
        sp.rightBits = rightBits.data() + s * rightWords;
        sp.rightWords = rightWords;
        sp.rightRow = rightRows.data() + ks.rightBegin;
        sp.out = out.data();
        sp.outW = outW.data();
        sp.preBits = preBits.data();
        sp.split = ks.split;
        run(sp);
    };
    // The loops must do the parser's work: one untimed pass of the witness loop and of the kernel,
    // cell by cell, against the parser's pre layer of the same cells (scores bit for bit, and the
    // kernel's witnesses, whose ties it breaks as the parser does).
    res.rowsMatchParser = true;
    auto sameScore = [](float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; };
    for (std::size_t ci = 0, q = 0, s = 0; ci < cellEnd.size(); ++ci) {
        const auto [i, k] = cellSpans[ci];
        const float* pre = c.preRow(i, k);
        const std::uint32_t* preW = c.preWitness.data() + c.at(i, k, 0);
        resetRow();
        for (; q < cellEnd[ci]; ++q) {
            const float cand = binaryEdgeScore(pl[q], pr[q], plp[q]);
            if (cand > out[pp[q]]) out[pp[q]] = cand;
        }
        for (std::size_t x = 0; x < N; ++x)
            res.rowsMatchParser = res.rowsMatchParser && sameScore(out[x], pre[x]);
        resetRow();
        for (; s < cellSplitEnd[ci]; ++s)
            kernelSplit(s);
        for (std::size_t x = 0; x < N; ++x)
            res.rowsMatchParser = res.rowsMatchParser && sameScore(out[x], pre[x]) &&
                                  (pre[x] == kNegInf || outW[x] == preW[x]);
    }
    long improvements = 0;
    auto withWitness = [&](bool count) {
        std::size_t q = 0;
        for (const std::size_t end : cellEnd) {
            resetRow();
            for (; q < end; ++q) {
                const float cand = binaryEdgeScore(pl[q], pr[q], plp[q]);
                const std::uint32_t p = pp[q];
                if (cand > out[p]) {
                    out[p] = cand;
                    outW[p] = pw[q];
                    if (count) ++improvements;
                }
            }
        }
    };
    withWitness(true);
    res.improvementRate = static_cast<double>(improvements) / static_cast<double>(res.pushes);
    res.withWitnessMpushPerSecond = timeLoop(seconds, res.pushes, [&] { withWitness(false); });
    res.withoutWitnessMpushPerSecond = timeLoop(seconds, res.pushes, [&] {
        std::size_t q = 0;
        for (const std::size_t end : cellEnd) {
            resetRow();
            for (; q < end; ++q)
                out[pp[q]] = std::max(out[pp[q]], binaryEdgeScore(pl[q], pr[q], plp[q]));
        }
    });
    res.kernelMpushPerSecond = timeLoop(seconds, res.pushes, [&] {
        std::size_t s = 0;
        for (const std::size_t end : cellSplitEnd) {
            resetRow();
            for (; s < end; ++s)
                kernelSplit(s);
        }
    });
    return res;
}

} // namespace prunescope
