// Enumerating projective trees by depth-first search over heads (crossings and cycles cut early).
#include "core/dep/BruteForce.h"

#include <algorithm>
#include <stdexcept>

namespace prunescope {

namespace {

struct Enumerator {
    int n;
    const ArcMask* mask;
    bool singleRoot;
    const std::function<void(const std::vector<int>&)>& fn;
    std::vector<int> heads;
    int roots = 0;

    bool crosses(int h, int m) const {
        const int a = std::min(h, m), b = std::max(h, m);
        for (int x = 1; x < m; ++x) {
            const int c = std::min(x, heads[static_cast<std::size_t>(x)]),
                      d = std::max(x, heads[static_cast<std::size_t>(x)]);
            if ((a < c && c < b && b < d) || (c < a && a < d && d < b)) return true;
        }
        return false;
    }
    bool cycles(int h, int m) const { // would h -> m close a cycle among assigned tokens (< m)?
        int x = h;
        for (int steps = 0; x != 0 && steps <= n; ++steps) {
            if (x == m) return true;
            if (x > m) {
                // not yet assigned: cannot close a cycle through m now; checked when x is assigned
                return false;
            }
            x = heads[static_cast<std::size_t>(x)];
        }
        return x == m;
    }
    bool acyclic() const {
        for (int m = 1; m <= n; ++m) {
            int x = m;
            for (int steps = 0; x != 0; ++steps) {
                if (steps > n) return false;
                x = heads[static_cast<std::size_t>(x)];
            }
        }
        return true;
    }
    void go(int m) {
        if (m > n) {
            if ((!singleRoot || roots == 1) && acyclic()) fn(heads);
            return;
        }
        for (int h = 0; h <= n; ++h) {
            if (h == m || (mask && !mask->keep(h, m))) continue;
            if (h == 0 && singleRoot && roots == 1) continue;
            if (crosses(h, m) || cycles(h, m)) continue;
            heads[static_cast<std::size_t>(m)] = h;
            roots += h == 0;
            go(m + 1);
            roots -= h == 0;
        }
        heads[static_cast<std::size_t>(m)] = -1;
    }
};

} // namespace

void forEachProjectiveTree(int n, const ArcMask* mask, bool singleRoot,
                           const std::function<void(const std::vector<int>&)>& fn) {
    if (n < 1 || n > 10) throw std::invalid_argument("forEachProjectiveTree: n must be in [1, 10]");
    Enumerator e{n, mask, singleRoot, fn, std::vector<int>(static_cast<std::size_t>(n) + 1, -1), 0};
    e.go(1);
}

} // namespace prunescope
