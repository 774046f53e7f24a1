// Third-order projective parsing with grand-siblings (Koo & Collins 2010, Model 1, sec. 4.2)
// under an arc mask: EisnerParser::parseGrandSiblings, its backtrace and its tree score.
#include "core/dep/Eisner.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace prunescope {

namespace {
constexpr std::int32_t kSpanNotComputed = -2; // sibling span never requested
inline bool isBuilt(float v) {
    return v != kDepNegInf;
}
} // namespace

float EisnerParser::siblingSpan(int h, int a, int b, DepParseStats& st) {
    GrandSiblingChart& ch = third_;
    const std::size_t k = ch.S(h, ch.slotOfMod(h, a), ch.slotOfMod(h, b));
    if (ch.siblingW[k] != kSpanNotComputed) return ch.sibling[k];
    const SplitBest best =
        bestSiblingSplit(ch.complete.data() + ch.C(a, ch.slotOfHead(h, a), 0),
                         ch.complete.data() + ch.C(b, ch.slotOfHead(h, b), 0), a, b, st.pushes);
    ch.sibling[k] = best.score;
    ch.siblingW[k] = best.r;
    if (best.r >= 0) ++st.items;
    return best.score;
}

DepParse EisnerParser::parseGrandSiblings(const ArcScores& sc, const GrandSiblingScorer& parts,
                                          const ArcMask* mask) {
    DepParseStats st;
    markAllowed(sc, mask, st);
    const int n = sc.n;
    const std::size_t bytes = GrandSiblingChart::bytesFor(n, allowed_);
    if (bytes > options_.memoryBudget)
        throw std::invalid_argument("third-order parser: a " + std::to_string(n) +
                                    "-token sentence needs " + std::to_string(bytes >> 20) +
                                    " MiB of chart, over the budget of " +
                                    std::to_string(options_.memoryBudget >> 20) + " MiB");
    GrandSiblingChart& ch = third_;
    ch.reset(n, allowed_);
    st.items = static_cast<long>(ch.heads.size()); // the trivial C^g(h, h)
    const bool oneRoot = options_.singleRoot;
    float* C = ch.complete.data();
    float* I = ch.incomplete.data();
    std::int32_t* CW = ch.completeW.data();
    std::int32_t* IW = ch.incompleteW.data();

    // g may be h's head in an item over [lo, hi] only from outside it (the root's slot always).
    auto outside = [](int h, int g, int lo, int hi) { return h == 0 || g < lo || g > hi; };

    // I^g(h, m) for every kept head g of h: the first-child case, then every previous sibling q.
    auto incomplete = [&](int h, int m) {
        const int mi = ch.slotOfMod(h, m);
        const int G = ch.headCount(h);
        if (mi < 0 || G == 0) return;
        const int* hs = &ch.heads[static_cast<std::size_t>(ch.headStart[h])];
        const int lo = std::min(h, m), hi = std::max(h, m);
        best_.assign(static_cast<std::size_t>(G), kDepNegInf);
        bestW_.assign(static_cast<std::size_t>(G), -1);
        const int step = h < m ? 1 : -1;
        const float first = C[ch.C(m, ch.slotOfHead(h, m), h + step)];
        // The heads g (and their slots) for which `built(slot)` holds, scored as one batch.
        auto gather = [&](auto&& built) {
            batchG_.clear();
            batchSlot_.clear();
            for (int gi = 0; gi < G; ++gi)
                if (outside(h, hs[gi], lo, hi) && built(gi)) {
                    batchG_.push_back(hs[gi]);
                    batchSlot_.push_back(gi);
                }
            batchScore_.assign(batchG_.size(), 0.0f);
        };
        if (isBuilt(first)) {
            const float sib = first + parts.sibling(h, h, m);
            gather([](int) { return true; });
            if (h != 0) parts.grandSiblings(batchG_, h, h, m, batchScore_.data());
            for (std::size_t i = 0; i < batchSlot_.size(); ++i) {
                ++st.pushes;
                best_[batchSlot_[i]] = h == 0 ? sib : sib + batchScore_[i];
                bestW_[batchSlot_[i]] = h;
            }
        }
        if (!(h == 0 && oneRoot)) {
            for (int k = ch.modStart[h]; k < ch.modStart[h + 1]; ++k) {
                const int q = ch.mods[static_cast<std::size_t>(k)];
                if (q <= lo || q >= hi) continue;
                const int qi = k - ch.modStart[h];
                const float sv = siblingSpan(h, std::min(q, m), std::max(q, m), st);
                if (!isBuilt(sv)) continue;
                gather([&](int gi) { return isBuilt(I[ch.I(h, gi, qi)]); });
                if (batchSlot_.empty()) continue;
                const float sib = sv + parts.sibling(h, q, m);
                if (h != 0) parts.grandSiblings(batchG_, h, q, m, batchScore_.data());
                for (std::size_t i = 0; i < batchSlot_.size(); ++i) {
                    const int gi = batchSlot_[i];
                    ++st.pushes;
                    float v = I[ch.I(h, gi, qi)] + sib;
                    if (h != 0) v += batchScore_[i];
                    if (v > best_[gi]) {
                        best_[gi] = v;
                        bestW_[gi] = q;
                    }
                }
            }
        }
        const float arc = sc(h, m);
        gather([&](int gi) { return bestW_[gi] >= 0; });
        if (h != 0) parts.grandparents(batchG_, h, m, batchScore_.data());
        for (std::size_t i = 0; i < batchSlot_.size(); ++i) {
            const int gi = batchSlot_[i];
            float v = best_[gi] + arc;
            if (h != 0) v += batchScore_[i];
            I[ch.I(h, gi, mi)] = v;
            IW[ch.I(h, gi, mi)] = bestW_[gi];
            ++st.items;
        }
    };
    // C^g(h, e) = I^g(h, m) + C^h(m, e) over h's kept modifiers m between h (exclusive) and e.
    auto complete = [&](int h, int e) {
        const int G = ch.headCount(h);
        if (G == 0) return;
        const int* hs = &ch.heads[static_cast<std::size_t>(ch.headStart[h])];
        const int lo = std::min(h, e), hi = std::max(h, e);
        best_.assign(static_cast<std::size_t>(G), kDepNegInf);
        bestW_.assign(static_cast<std::size_t>(G), -1);
        for (int k = ch.modStart[h]; k < ch.modStart[h + 1]; ++k) {
            const int m = ch.mods[static_cast<std::size_t>(k)];
            if (m < lo || m > hi) continue; // m != h: h is not its own modifier
            const float b = C[ch.C(m, ch.slotOfHead(h, m), e)];
            if (!isBuilt(b)) continue;
            const int mi = k - ch.modStart[h];
            for (int gi = 0; gi < G; ++gi) {
                if (!outside(h, hs[gi], lo, hi)) continue;
                const float a = I[ch.I(h, gi, mi)];
                if (!isBuilt(a)) continue;
                ++st.pushes;
                const float v = a + b;
                if (v > best_[gi]) {
                    best_[gi] = v;
                    bestW_[gi] = m;
                }
            }
        }
        for (int gi = 0; gi < G; ++gi) {
            if (bestW_[gi] < 0) continue;
            C[ch.C(h, gi, e)] = best_[gi];
            CW[ch.C(h, gi, e)] = bestW_[gi];
            ++st.items;
        }
    };
    for (int w = 1; w <= n; ++w) {
        pollCancel();
        for (int s = 0; s + w <= n; ++s) {
            const int t = s + w;
            incomplete(s, t);
            if (s > 0) incomplete(t, s);
            if (!(s == 0 && oneRoot && t != n)) complete(s, t);
            if (s > 0) complete(t, s);
        }
    }
    ch.rootScore = C[ch.C(0, 0, n)];

    DepParse out;
    out.heads.assign(static_cast<std::size_t>(n) + 1, -1);
    st.success = ch.parsed();
    st.score = st.success ? static_cast<double>(ch.rootScore) : 0.0;
    out.stats = st;
    if (!st.success) return out;
    enum Kind : std::uint8_t { kC, kI, kS };
    struct Item {
        Kind kind;
        int h, gi, a, b; // C: (h, g slot, e = a); I: (h, g slot, m = a); S: (h, -, a, b)
    };
    std::vector<Item> stack{{kC, 0, 0, n, 0}};
    while (!stack.empty()) {
        const Item it = stack.back();
        stack.pop_back();
        switch (it.kind) {
        case kC: {
            if (it.a == it.h) break;
            const int m = CW[ch.C(it.h, it.gi, it.a)];
            stack.push_back({kI, it.h, it.gi, m, 0});
            stack.push_back({kC, m, ch.slotOfHead(it.h, m), it.a, 0});
            break;
        }
        case kI: {
            const int h = it.h, m = it.a;
            out.heads[static_cast<std::size_t>(m)] = h;
            const int q = IW[ch.I(h, it.gi, ch.slotOfMod(h, m))];
            if (q == h) {
                stack.push_back({kC, m, ch.slotOfHead(h, m), h < m ? h + 1 : h - 1, 0});
            } else {
                stack.push_back({kI, h, it.gi, q, 0});
                stack.push_back({kS, h, 0, std::min(q, m), std::max(q, m)});
            }
            break;
        }
        case kS: {
            const int r =
                ch.siblingW[ch.S(it.h, ch.slotOfMod(it.h, it.a), ch.slotOfMod(it.h, it.b))];
            stack.push_back({kC, it.a, ch.slotOfHead(it.h, it.a), r, 0});
            stack.push_back({kC, it.b, ch.slotOfHead(it.h, it.b), r + 1, 0});
            break;
        }
        }
    }
    return out;
}

std::vector<std::array<int, 4>> grandSiblingParts(const std::vector<int>& heads) {
    std::vector<std::array<int, 4>> out;
    for (const auto& p : siblingParts(heads))
        if (p[0] != 0) out.push_back({heads[static_cast<std::size_t>(p[0])], p[0], p[1], p[2]});
    return out;
}

double thirdOrderTreeScore(const ArcScores& scores, const std::vector<int>& heads,
                           const GrandSiblingScorer& parts) {
    double total = treeScore(scores, heads, &parts);
    for (const auto& p : grandSiblingParts(heads))
        total += static_cast<double>(parts.grandparent(p[0], p[1], p[3])) +
                 static_cast<double>(parts.grandSibling(p[0], p[1], p[2], p[3]));
    return total;
}

} // namespace prunescope
