#pragma once
// The parts the cube-pruned parser scores (Zhang & McDonald 2012, as used by Zhang, Huang, Zhao &
// McDonald 2013, sec. 3): first-order arcs (h, m), plus the higher-order parts scored when items
// combine — siblings (h, s, m) (McDonald & Pereira 2006: s is h's modifier adjacent to m between h
// and m, s == h for the closest one) and grandparents (g, h, m) (g = head of h; none for h = 0).
// Features are the shared dependency templates (core/dep/ArcFeatures.h) over hashed weights.
//
// A CubeScorer holds one sentence's scores: the arc matrix (computed once, under a mask) and lazily
// filled caches of sibling and grandparent scores (dense (n+1)^3 tables up to kCubeCacheEntries,
// computed on demand beyond). Tests build one from explicit score functions instead of weights.
#include "core/dep/ArcFeatures.h"
#include "core/dep/ArcMask.h"
#include "core/dep/Eisner.h"
#include "core/dep/HashedWeights.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace prunescope {

// Which higher-order parts the model scores on top of the arcs.
struct CubeFeatureSet {
    bool siblings = true;
    bool grandparents = true;
    bool firstOrderOnly() const { return !siblings && !grandparents; }
    bool operator==(const CubeFeatureSet&) const = default;
};
// "arc", "arc+sib", "arc+gp", "arc+sib+gp".
std::string cubeFeatureSetName(CubeFeatureSet f);
CubeFeatureSet parseCubeFeatureSet(const std::string& name); // std::invalid_argument

// The parts of a (partial) tree, each once.
struct CubeParts {
    std::vector<std::array<int, 2>> arcs;         // (h, m)
    std::vector<std::array<int, 3>> siblings;     // (h, s, m)
    std::vector<std::array<int, 3>> grandparents; // (g, h, m)
    void clear() {
        arcs.clear();
        siblings.clear();
        grandparents.clear();
    }
};

// Every part of a whole tree (heads size n + 1, heads[0] = -1) under a feature set: the reference
// the chart's item parts are held to (a root item's parts equal treeParts of its heads).
CubeParts treeParts(const std::vector<int>& heads, CubeFeatureSet features);
// Appends the feature keys of every part.
void partFeatureKeys(const SentenceAtoms& atoms, const CubeParts& parts,
                     std::vector<std::uint64_t>& out);

inline constexpr std::size_t kCubeCacheEntries = std::size_t(1) << 24; // per higher-order table

class CubeScorer {
  public:
    using ArcFn = std::function<float(int h, int m)>;
    using TripleFn = std::function<float(int a, int b, int c)>;

    // Scores from weights (training and parsing). The mask (nullptr = all arcs) decides which arcs
    // exist: a pruned arc is -inf and never scored.
    CubeScorer(const HashedWeights& weights, const DepSentence& s, CubeFeatureSet features,
               const ArcMask* mask = nullptr);
    // Scores from functions (tests, hand-built examples); sibling/grandparent may be empty when the
    // feature set leaves them out.
    CubeScorer(int n, CubeFeatureSet features, const ArcFn& arc, const TripleFn& sibling = {},
               const TripleFn& grandparent = {}, const ArcMask* mask = nullptr);

    int size() const { return n_; }
    CubeFeatureSet features() const { return features_; }
    bool hasWeights() const { return weights_ != nullptr; }
    const SentenceAtoms& atoms() const { return atoms_; } // empty for function scorers
    const ArcScores& arcScores() const { return arcs_; }
    bool allowed(int h, int m) const { return arcs_(h, m) != kDepNegInf; }
    float arc(int h, int m) const { return arcs_(h, m); }
    float sibling(int h, int s, int m) const { return cached(sib_, h, s, m, true); }
    float grandparent(int g, int h, int m) const { return cached(gp_, g, h, m, false); }
    // The model score of a whole set of parts, summed in double (for checks and the explorer).
    double partsScore(const CubeParts& parts) const;

  private:
    float cached(std::vector<float>& table, int a, int b, int c, bool sibling) const;
    float compute(int a, int b, int c, bool sibling) const;
    void allocateCaches();

    int n_ = 0;
    CubeFeatureSet features_;
    const HashedWeights* weights_ = nullptr;
    SentenceAtoms atoms_;
    ArcScores arcs_;
    TripleFn sibFn_, gpFn_;
    mutable std::vector<float> sib_, gp_; // NaN = not computed yet; empty = not cached
    mutable std::vector<std::uint64_t> buf_;
};

} // namespace prunescope
