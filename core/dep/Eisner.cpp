// Eisner's algorithm under an arc mask, first and second order (Eisner.h).
#include "core/dep/Eisner.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace prunescope {

namespace {
constexpr std::int32_t kNotComputed = -2; // sibling witness of an S item never requested
inline bool built(float v) {
    return v != kDepNegInf;
}
} // namespace

void EisnerParser::markAllowed(const ArcScores& scores, const ArcMask* mask, DepParseStats& st) {
    const int n = scores.n;
    if (n < 1) throw std::invalid_argument("Eisner: empty sentence");
    if (n > kMaxDepSentenceLength)
        throw std::invalid_argument("Eisner: sentence of " + std::to_string(n) +
                                    " tokens exceeds the limit of " +
                                    std::to_string(kMaxDepSentenceLength));
    if (scores.s.size() != static_cast<std::size_t>(n + 1) * static_cast<std::size_t>(n + 1))
        throw std::invalid_argument("Eisner: arc score matrix has the wrong size");
    if (mask && mask->n != n)
        throw std::invalid_argument("Eisner: mask for " + std::to_string(mask->n) +
                                    " tokens, sentence has " + std::to_string(n));
    const auto N = static_cast<std::size_t>(n + 1);
    allowed_.assign(N * N, 0);
    st = DepParseStats{};
    for (int h = 0; h <= n; ++h)
        for (int m = 1; m <= n; ++m) {
            if (h == m) continue;
            const bool keep = !mask || mask->keep(h, m);
            st.arcsKept += keep;
            allowed_[static_cast<std::size_t>(h) * N + static_cast<std::size_t>(m)] =
                keep && built(scores(h, m));
        }
    st.items = n + 1; // the trivial C(s, s)
}

void EisnerParser::prepare(const ArcScores& scores, const ArcMask* mask, int order,
                           DepParseStats& st) {
    markAllowed(scores, mask, st);
    const int n = scores.n;
    const std::size_t bytes = DepChart::bytesFor(n, order);
    if (bytes > options_.memoryBudget)
        throw std::invalid_argument("Eisner: a " + std::to_string(n) + "-token sentence needs " +
                                    std::to_string(bytes >> 20) +
                                    " MiB of chart, over the budget of " +
                                    std::to_string(options_.memoryBudget >> 20) + " MiB");
    chart_.reset(n, order);
    if (order >= 2) std::fill(chart_.siblingW.begin(), chart_.siblingW.end(), kNotComputed);
}

DepParse EisnerParser::finish(DepParseStats& st) const {
    DepParse out;
    st.success = chart_.parsed();
    st.score = st.success ? static_cast<double>(chart_.rootScore) : 0.0;
    out.heads = bestHeads(chart_);
    out.stats = st;
    return out;
}

DepParse EisnerParser::parse(const ArcScores& sc, const ArcMask* mask) {
    DepParseStats st;
    prepare(sc, mask, 1, st);
    const int n = sc.n;
    const bool oneRoot = options_.singleRoot;
    float* C = chart_.complete.data();
    float* I = chart_.incomplete.data();
    std::int32_t* CW = chart_.completeW.data();
    std::int32_t* IW = chart_.incompleteW.data();
    const auto N = static_cast<std::size_t>(n + 1);
    auto idx = [N](int a, int b) {
        return static_cast<std::size_t>(a) * N + static_cast<std::size_t>(b);
    };
    for (int w = 1; w <= n; ++w) {
        pollCancel();
        for (int s = 0; s + w <= n; ++s) {
            const int t = s + w;
            // Incomplete items I(s,t) and I(t,s) share their children C(s,r) + C(t,r+1).
            const bool right = allowed_[idx(s, t)] != 0;
            const bool left = s > 0 && allowed_[idx(t, s)] != 0;
            if (right || left) {
                const int rEnd = (s == 0 && oneRoot) ? 0 : t - 1;
                const float* cs = C + idx(s, 0);
                const float* ct = C + idx(t, 1);
                float best = kDepNegInf;
                int bestR = -1;
                long considered = 0;
                for (int r = s; r <= rEnd; ++r) {
                    const float a = cs[r], b = ct[r];
                    if (!built(a) || !built(b)) continue;
                    ++considered;
                    const float v = a + b;
                    if (v > best) {
                        best = v;
                        bestR = r;
                    }
                }
                if (bestR >= 0) {
                    if (right) {
                        I[idx(s, t)] = best + sc(s, t);
                        IW[idx(s, t)] = bestR;
                        st.pushes += considered;
                        ++st.items;
                    }
                    if (left) {
                        I[idx(t, s)] = best + sc(t, s);
                        IW[idx(t, s)] = bestR;
                        st.pushes += considered;
                        ++st.items;
                    }
                }
            }
            // Complete right C(s,t) = I(s,m) + C(m,t); the single root only completes the whole
            // sentence.
            if (!(s == 0 && oneRoot && t != n)) {
                float best = kDepNegInf;
                int bestM = -1;
                for (int m = s + 1; m <= t; ++m) {
                    const float a = I[idx(s, m)], b = C[idx(m, t)];
                    if (!built(a) || !built(b)) continue;
                    ++st.pushes;
                    const float v = a + b;
                    if (v > best) {
                        best = v;
                        bestM = m;
                    }
                }
                if (bestM >= 0) {
                    C[idx(s, t)] = best;
                    CW[idx(s, t)] = bestM;
                    ++st.items;
                }
            }
            // Complete left C(t,s) = I(t,m) + C(m,s); the root is never inside a left item.
            if (s > 0) {
                float best = kDepNegInf;
                int bestM = -1;
                for (int m = s; m < t; ++m) {
                    const float a = I[idx(t, m)], b = C[idx(m, s)];
                    if (!built(a) || !built(b)) continue;
                    ++st.pushes;
                    const float v = a + b;
                    if (v > best) {
                        best = v;
                        bestM = m;
                    }
                }
                if (bestM >= 0) {
                    C[idx(t, s)] = best;
                    CW[idx(t, s)] = bestM;
                    ++st.items;
                }
            }
        }
    }
    chart_.rootScore = C[idx(0, n)];
    return finish(st);
}

float EisnerParser::siblingItem(int a, int b, DepParseStats& st) {
    const std::size_t k = chart_.at(a, b);
    if (chart_.siblingW[k] != kNotComputed) return chart_.sibling[k];
    const SplitBest best =
        bestSiblingSplit(chart_.complete.data() + chart_.at(a, 0),
                         chart_.complete.data() + chart_.at(b, 0), a, b, st.pushes);
    chart_.sibling[k] = best.score;
    chart_.siblingW[k] = best.r;
    if (best.r >= 0) ++st.items;
    return best.score;
}

DepParse EisnerParser::parse(const ArcScores& sc, const SiblingScorer& sib, const ArcMask* mask) {
    DepParseStats st;
    prepare(sc, mask, 2, st);
    const int n = sc.n;
    const bool oneRoot = options_.singleRoot;
    float* C = chart_.complete.data();
    float* I = chart_.incomplete.data();
    std::int32_t* CW = chart_.completeW.data();
    std::int32_t* IW = chart_.incompleteW.data();
    const auto N = static_cast<std::size_t>(n + 1);
    auto idx = [N](int a, int b) {
        return static_cast<std::size_t>(a) * N + static_cast<std::size_t>(b);
    };
    // I(h,m) for the arc h -> m (both directions): the first-child case, then every previous
    // sibling q.
    auto incomplete = [&](int h, int m) {
        if (!allowed_[idx(h, m)]) return;
        const int step = h < m ? 1 : -1;
        float best = kDepNegInf;
        int bestQ = -1;
        const float first = C[idx(m, h + step)];
        if (built(first)) {
            ++st.pushes;
            best = first + sib.sibling(h, h, m);
            bestQ = h;
        }
        if (!(h == 0 && oneRoot)) {
            const int lo = std::min(h, m) + 1, hi = std::max(h, m) - 1;
            for (int q = lo; q <= hi; ++q) {
                const float iq = I[idx(h, q)];
                if (!built(iq)) continue;
                const float sv = siblingItem(std::min(q, m), std::max(q, m), st);
                if (!built(sv)) continue;
                ++st.pushes;
                const float v = (iq + sv) + sib.sibling(h, q, m);
                if (v > best) {
                    best = v;
                    bestQ = q;
                }
            }
        }
        if (bestQ >= 0) {
            I[idx(h, m)] = best + sc(h, m);
            IW[idx(h, m)] = bestQ;
            ++st.items;
        }
    };
    for (int w = 1; w <= n; ++w) {
        pollCancel();
        for (int s = 0; s + w <= n; ++s) {
            const int t = s + w;
            incomplete(s, t);
            if (s > 0) incomplete(t, s);
            if (!(s == 0 && oneRoot && t != n)) {
                float best = kDepNegInf;
                int bestM = -1;
                for (int m = s + 1; m <= t; ++m) {
                    const float a = I[idx(s, m)], b = C[idx(m, t)];
                    if (!built(a) || !built(b)) continue;
                    ++st.pushes;
                    const float v = a + b;
                    if (v > best) {
                        best = v;
                        bestM = m;
                    }
                }
                if (bestM >= 0) {
                    C[idx(s, t)] = best;
                    CW[idx(s, t)] = bestM;
                    ++st.items;
                }
            }
            if (s > 0) {
                float best = kDepNegInf;
                int bestM = -1;
                for (int m = s; m < t; ++m) {
                    const float a = I[idx(t, m)], b = C[idx(m, s)];
                    if (!built(a) || !built(b)) continue;
                    ++st.pushes;
                    const float v = a + b;
                    if (v > best) {
                        best = v;
                        bestM = m;
                    }
                }
                if (bestM >= 0) {
                    C[idx(t, s)] = best;
                    CW[idx(t, s)] = bestM;
                    ++st.items;
                }
            }
        }
    }
    chart_.rootScore = C[idx(0, n)];
    return finish(st);
}

std::vector<int> bestHeads(const DepChart& ch) {
    const int n = ch.n;
    std::vector<int> heads(static_cast<std::size_t>(n) + 1, -1);
    if (!ch.parsed()) return heads;
    enum Kind : std::uint8_t { kC, kI, kS };
    struct Item {
        Kind kind;
        int a, b;
    };
    std::vector<Item> stack{{kC, 0, n}};
    while (!stack.empty()) {
        const Item it = stack.back();
        stack.pop_back();
        const std::size_t k = ch.at(it.a, it.b);
        switch (it.kind) {
        case kC: {
            if (it.a == it.b) break;
            const int m = ch.completeW[k];
            stack.push_back({kI, it.a, m});
            stack.push_back({kC, m, it.b});
            break;
        }
        case kI: {
            const int h = it.a, m = it.b;
            heads[static_cast<std::size_t>(m)] = h;
            const int w = ch.incompleteW[k];
            if (ch.order == 1) {
                const int lo = std::min(h, m), hi = std::max(h, m);
                stack.push_back({kC, lo, w});
                stack.push_back({kC, hi, w + 1});
            } else if (w == h) {
                stack.push_back({kC, m, h < m ? h + 1 : h - 1});
            } else {
                stack.push_back({kI, h, w});
                stack.push_back({kS, std::min(w, m), std::max(w, m)});
            }
            break;
        }
        case kS: {
            const int r = ch.siblingW[k];
            stack.push_back({kC, it.a, r});
            stack.push_back({kC, it.b, r + 1});
            break;
        }
        }
    }
    return heads;
}

std::vector<std::array<int, 3>> siblingParts(const std::vector<int>& heads) {
    const int n = static_cast<int>(heads.size()) - 1;
    std::vector<std::array<int, 3>> parts;
    parts.reserve(static_cast<std::size_t>(std::max(n, 0)));
    for (int m = 1; m <= n; ++m) {
        const int h = heads[static_cast<std::size_t>(m)];
        if (h < 0) continue;
        // the closest modifier of h between h and m (exclusive), or h itself
        int q = h;
        if (h < m) {
            for (int x = m - 1; x > h; --x)
                if (heads[static_cast<std::size_t>(x)] == h) {
                    q = x;
                    break;
                }
        } else {
            for (int x = m + 1; x < h; ++x)
                if (heads[static_cast<std::size_t>(x)] == h) {
                    q = x;
                    break;
                }
        }
        parts.push_back({h, q, m});
    }
    return parts;
}

double treeScore(const ArcScores& scores, const std::vector<int>& heads,
                 const SiblingScorer* siblings) {
    double total = 0;
    for (int m = 1; m < static_cast<int>(heads.size()); ++m)
        total += scores(heads[static_cast<std::size_t>(m)], m);
    if (siblings)
        for (const auto& p : siblingParts(heads))
            total += siblings->sibling(p[0], p[1], p[2]);
    return total;
}

} // namespace prunescope
