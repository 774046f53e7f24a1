// The third-order chart's sparse layout (GrandSiblingChart.h).
#include "core/dep/GrandSiblingChart.h"

namespace prunescope {

namespace {

struct Counts {
    std::vector<int> heads, mods; // per h
};

Counts countArcs(int n, const std::vector<std::uint8_t>& allowed) {
    const auto N = static_cast<std::size_t>(n + 1);
    Counts c{std::vector<int>(N, 0), std::vector<int>(N, 0)};
    c.heads[0] = 1; // the root's single "no head" slot
    for (std::size_t h = 0; h < N; ++h)
        for (std::size_t m = 1; m < N; ++m)
            if (h != m && allowed[h * N + m]) {
                ++c.heads[m];
                ++c.mods[h];
            }
    return c;
}

std::size_t entries(int n, const Counts& c) {
    std::size_t total = 0;
    const auto N = static_cast<std::size_t>(n + 1);
    for (std::size_t h = 0; h < N; ++h) {
        const auto g = static_cast<std::size_t>(c.heads[h]),
                   m = static_cast<std::size_t>(c.mods[h]);
        total += g * N + g * m + m * m;
    }
    return total;
}

} // namespace

std::size_t GrandSiblingChart::bytesFor(int len, const std::vector<std::uint8_t>& allowed) {
    const auto N = static_cast<std::size_t>(len + 1);
    return entries(len, countArcs(len, allowed)) * (sizeof(float) + sizeof(std::int32_t)) +
           2 * N * N * sizeof(int);
}

std::size_t GrandSiblingChart::memoryBytes() const {
    return (complete.size() + incomplete.size() + sibling.size()) *
               (sizeof(float) + sizeof(std::int32_t)) +
           (headSlot.size() + modSlot.size()) * sizeof(int);
}

void GrandSiblingChart::reset(int len, const std::vector<std::uint8_t>& allowed) {
    n = len;
    rootScore = kDepNegInf;
    const int Nn = n + 1;
    const auto N = static_cast<std::size_t>(Nn);
    const Counts c = countArcs(n, allowed);
    headStart.assign(N + 1, 0);
    modStart.assign(N + 1, 0);
    for (std::size_t h = 0; h < N; ++h) {
        headStart[h + 1] = headStart[h] + c.heads[h];
        modStart[h + 1] = modStart[h] + c.mods[h];
    }
    heads.assign(static_cast<std::size_t>(headStart[N]), 0);
    mods.assign(static_cast<std::size_t>(modStart[N]), 0);
    headSlot.assign(N * N, -1);
    modSlot.assign(N * N, -1);
    std::vector<int> fillHeads(N, 0);
    headSlot[0] = 0; // the root's "none" slot: g = 0 for h = 0
    fillHeads[0] = 1;
    for (int g = 0; g < Nn; ++g) // increasing g, so heads(h) comes out sorted
        for (int h = 1; h < Nn; ++h)
            if (g != h && allowed[std::size_t(g) * N + std::size_t(h)]) {
                const int slot = fillHeads[std::size_t(h)]++;
                heads[std::size_t(headStart[std::size_t(h)] + slot)] = g;
                headSlot[std::size_t(g) * N + std::size_t(h)] = slot;
            }
    for (int h = 0; h < Nn; ++h) {
        int slot = 0;
        for (int m = 1; m < Nn; ++m)
            if (m != h && allowed[std::size_t(h) * N + std::size_t(m)]) {
                mods[std::size_t(modStart[std::size_t(h)] + slot)] = m;
                modSlot[std::size_t(h) * N + std::size_t(m)] = slot++;
            }
    }
    completeStart.assign(N, 0);
    incompleteStart.assign(N, 0);
    siblingStart.assign(N, 0);
    std::size_t cs = 0, is = 0, ss = 0;
    for (std::size_t h = 0; h < N; ++h) {
        const auto g = static_cast<std::size_t>(c.heads[h]),
                   m = static_cast<std::size_t>(c.mods[h]);
        completeStart[h] = cs;
        incompleteStart[h] = is;
        siblingStart[h] = ss;
        cs += g * N;
        is += g * m;
        ss += m * m;
    }
    complete.assign(cs, kDepNegInf);
    incomplete.assign(is, kDepNegInf);
    sibling.assign(ss, kDepNegInf);
    completeW.assign(cs, -1);
    incompleteW.assign(is, -1);
    siblingW.assign(ss, -2);
    for (int h = 0; h < Nn; ++h)
        for (int gi = 0; gi < headCount(h); ++gi)
            complete[C(h, gi, h)] = 0.0f;
}

} // namespace prunescope
