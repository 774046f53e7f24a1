#include "core/rollout/ViterbiOutside.h"

#include <algorithm>
#include <limits>

namespace prunescope {

void ViterbiOutside::compute(const Grammar& g, const DenseChart& chart, const PruningMask& mask,
                             std::span<const int> cellBuilt) {
    const int n = chart.n, cells = chart.numCells();
    const std::size_t N = static_cast<std::size_t>(chart.numSymbols);
    numSymbols_ = N;
    post_.ensure(static_cast<std::size_t>(cells) * N);
    pre_.ensure(static_cast<std::size_t>(cells) * N);
    cell_.assign(cells, 0);
    listBegin_.assign(cells + 1, 0);
    list_.clear();
    for (int c = 0; c < cells; ++c) {
        if (cellBuilt[c] > 0) {
            const float* row = chart.post.data() + c * N;
            for (std::uint32_t x = 0; x < N; ++x)
                if (row[x] != kNegInf) list_.push_back(x);
        }
        listBegin_[c + 1] = static_cast<std::uint32_t>(list_.size());
    }
    auto finish = [&](int c) { // pre = max(post, unary parents)
        const double* op = post_.data.get() + c * N;
        double* oq = pre_.data.get() + c * N;
        for (std::uint32_t y = 0; y < N; ++y) {
            double best = op[y];
            for (std::uint32_t u = g.unaryByChildBegin[y]; u < g.unaryByChildBegin[y + 1]; ++u)
                best = std::max(best, op[g.unary[u].parent] + g.unary[u].logProb);
            oq[y] = best;
        }
        cell_[c] = 1;
    };
    const int top = chart.cell(0, n);
    for (std::uint32_t x = 0; x < N; ++x)
        post_[top * N + x] = g.rootLogProb[x];
    finish(top);
    for (int w = n - 1; w >= 2; --w)
        for (int i = 0; i + w <= n; ++i) {
            const int j = i + w, c = chart.cell(i, j);
            double* out = post_.data.get() + c * N;
            bool any = false;
            for (int k = j + 1; k <= n; ++k) { // left child of (i,k), sibling (j,k)
                const int par = chart.cell(i, k), sib = chart.cell(j, k);
                if (!mask.keep(i, k) || !mask.keep(j, k) || !cell_[par] || cellBuilt[sib] == 0)
                    continue;
                if (!any) std::fill(out, out + N, kNegInfD), any = true;
                const double* oq = pre_.data.get() + par * N;
                for (std::uint32_t li = listBegin_[sib]; li < listBegin_[sib + 1]; ++li) {
                    const std::uint32_t z = list_[li];
                    const double rz = chart.post[sib * N + z];
                    for (std::uint32_t b = g.binaryByRightBegin[z]; b < g.binaryByRightBegin[z + 1];
                         ++b) {
                        const BinaryRule& r = g.binary[g.binaryByRight[b]];
                        out[r.left] = std::max(out[r.left], oq[r.parent] + r.logProb + rz);
                    }
                }
            }
            for (int h = 0; h < i; ++h) { // right child of (h,j), sibling (h,i)
                const int par = chart.cell(h, j), sib = chart.cell(h, i);
                if (!mask.keep(h, j) || !mask.keep(h, i) || !cell_[par] || cellBuilt[sib] == 0)
                    continue;
                if (!any) std::fill(out, out + N, kNegInfD), any = true;
                const double* oq = pre_.data.get() + par * N;
                for (std::uint32_t li = listBegin_[sib]; li < listBegin_[sib + 1]; ++li) {
                    const std::uint32_t z = list_[li];
                    const double lz = chart.post[sib * N + z];
                    for (std::uint32_t gi = g.groupsByLeftBegin[z]; gi < g.groupsByLeftBegin[z + 1];
                         ++gi) {
                        const RuleGroup& grp = g.groups[gi];
                        for (std::uint32_t r = grp.begin; r < grp.end; ++r)
                            out[grp.right] = std::max(out[grp.right], oq[g.binary[r].parent] +
                                                                          g.binary[r].logProb + lz);
                    }
                }
            }
            if (any) finish(c);
        }
    valid_ = true;
}

} // namespace prunescope
