// Parts and scores of the cube-pruned parser (CubeScorer.h).
#include "core/cube/CubeScorer.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace prunescope {

std::string cubeFeatureSetName(CubeFeatureSet f) {
    std::string s = "arc";
    if (f.siblings) s += "+sib";
    if (f.grandparents) s += "+gp";
    return s;
}

CubeFeatureSet parseCubeFeatureSet(const std::string& name) {
    for (const bool sib : {false, true})
        for (const bool gp : {false, true}) {
            const CubeFeatureSet f{sib, gp};
            if (cubeFeatureSetName(f) == name) return f;
        }
    throw std::invalid_argument("unknown feature set '" + name +
                                "' (arc, arc+sib, arc+gp or arc+sib+gp)");
}

CubeParts treeParts(const std::vector<int>& heads, CubeFeatureSet features) {
    CubeParts p;
    const int n = static_cast<int>(heads.size()) - 1;
    for (int m = 1; m <= n; ++m)
        p.arcs.push_back({heads[static_cast<std::size_t>(m)], m});
    if (features.siblings) p.siblings = siblingParts(heads);
    if (features.grandparents)
        for (int m = 1; m <= n; ++m) {
            const int h = heads[static_cast<std::size_t>(m)];
            if (h > 0) p.grandparents.push_back({heads[static_cast<std::size_t>(h)], h, m});
        }
    return p;
}

void partFeatureKeys(const SentenceAtoms& atoms, const CubeParts& parts,
                     std::vector<std::uint64_t>& out) {
    for (const auto& a : parts.arcs)
        arcFeatureKeys(atoms, a[0], a[1], out);
    for (const auto& s : parts.siblings)
        siblingFeatureKeys(atoms, s[0], s[1], s[2], out);
    for (const auto& g : parts.grandparents)
        grandparentFeatureKeys(atoms, g[0], g[1], g[2], out);
}

CubeScorer::CubeScorer(const HashedWeights& weights, const DepSentence& s, CubeFeatureSet features,
                       const ArcMask* mask)
    : n_(s.size()), features_(features), weights_(&weights), atoms_(s) {
    if (n_ < 1) throw std::invalid_argument("cube pruning: empty sentence");
    if (mask && mask->n != n_)
        throw std::invalid_argument("cube pruning: mask for " + std::to_string(mask->n) +
                                    " tokens, sentence has " + std::to_string(n_));
    arcs_.reset(n_);
    for (int h = 0; h <= n_; ++h)
        for (int m = 1; m <= n_; ++m) {
            if (h == m || (mask && !mask->keep(h, m))) continue;
            buf_.clear();
            arcFeatureKeys(atoms_, h, m, buf_);
            arcs_.at(h, m) = weights.score(buf_);
        }
    allocateCaches();
}

CubeScorer::CubeScorer(int n, CubeFeatureSet features, const ArcFn& arc, const TripleFn& sibling,
                       const TripleFn& grandparent, const ArcMask* mask)
    : n_(n), features_(features), sibFn_(sibling), gpFn_(grandparent) {
    if (n_ < 1) throw std::invalid_argument("cube pruning: empty sentence");
    if (mask && mask->n != n_)
        throw std::invalid_argument("cube pruning: mask length differs from the sentence");
    if ((features.siblings && !sibling) || (features.grandparents && !grandparent))
        throw std::invalid_argument("cube pruning: a higher-order part has no score function");
    arcs_.reset(n_);
    for (int h = 0; h <= n_; ++h)
        for (int m = 1; m <= n_; ++m)
            if (h != m && (!mask || mask->keep(h, m))) arcs_.at(h, m) = arc(h, m);
    allocateCaches();
}

void CubeScorer::allocateCaches() {
    const auto N = static_cast<std::size_t>(n_) + 1;
    const std::size_t entries = N * N * N;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    if (entries <= kCubeCacheEntries) {
        if (features_.siblings) sib_.assign(entries, nan);
        if (features_.grandparents) gp_.assign(entries, nan);
    }
}

float CubeScorer::compute(int a, int b, int c, bool sibling) const {
    if (!weights_) return sibling ? sibFn_(a, b, c) : gpFn_(a, b, c);
    buf_.clear();
    if (sibling)
        siblingFeatureKeys(atoms_, a, b, c, buf_);
    else
        grandparentFeatureKeys(atoms_, a, b, c, buf_);
    return weights_->score(buf_);
}

float CubeScorer::cached(std::vector<float>& table, int a, int b, int c, bool sibling) const {
    if (table.empty()) return compute(a, b, c, sibling);
    const auto N = static_cast<std::size_t>(n_) + 1;
    float& slot = table[(static_cast<std::size_t>(a) * N + static_cast<std::size_t>(b)) * N +
                        static_cast<std::size_t>(c)];
    if (std::isnan(slot)) slot = compute(a, b, c, sibling);
    return slot;
}

double CubeScorer::partsScore(const CubeParts& parts) const {
    double s = 0;
    for (const auto& a : parts.arcs)
        s += arc(a[0], a[1]);
    for (const auto& p : parts.siblings)
        s += sibling(p[0], p[1], p[2]);
    for (const auto& p : parts.grandparents)
        s += grandparent(p[0], p[1], p[2]);
    return s;
}

} // namespace prunescope
