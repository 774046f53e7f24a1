#pragma once
// Hashed dependency features, shared by every dependency learner: first-order arc features in the
// style of McDonald, Crammer & Pereira 2005 (head/modifier word and POS, their neighbours, the POS
// in between, each also conjoined with direction and distance bucket), second-order sibling
// features (McDonald & Pereira 2006), grandparent and grand-sibling features (third order, Koo &
// Collins 2010; cube pruning's grandparents), and the
// vine parser's outer-arc features (Rush & Petrov 2012). Token-level atoms are public so that other
// learners (arc filters) can build their own templates from them. Templates: ArcFeatures.cpp.
//
// A feature is a 64-bit key (util/FeatureHash.h: murmurHash32 of the atom strings, conjoined with
// mixKey); a weight table of 2^bits entries reads featureBucket(key, bits).
#include "core/dep/DepTree.h"

#include <cstdint>
#include <string>
#include <vector>

namespace prunescope {

// Atoms of one position, as murmurHash32 of the strings:
// word = lower-cased form, prefix = its first 5 bytes, tag = POS, coarse = universal tag.
struct TokenAtoms {
    std::uint64_t word = 0, prefix = 0, tag = 0, coarse = 0;
    int tagId = 0; // dense per-sentence id of tag (first appearance order), for in-between sets
    int coarseId = 0;
};

// Universal POS (Petrov, Das & McDonald 2012) of a PTB tag; the tag itself if unknown.
std::string universalTag(const std::string& ptbTag);
// 1..8 for |h - m| in 1, 2, 3, 4, 5, 6-10, 11-20, 21+.
int distanceBucket(int distance);

// The atoms of a sentence, padded: positions -1 (<s>) .. n + 1 (</s>), 0 is the root.
class SentenceAtoms {
  public:
    SentenceAtoms() = default;
    explicit SentenceAtoms(const DepSentence& s);
    int size() const { return n_; }
    const TokenAtoms& at(int p) const { return atoms_[static_cast<std::size_t>(p + 1)]; }
    // Number of distinct tags / coarse tags in the sentence (ids are below these).
    int distinctTags() const { return numTags_; }
    int distinctCoarse() const { return numCoarse_; }
    // Whether tag id t occurs strictly between positions a < b (O(1), prefix counts).
    bool tagBetween(int t, int a, int b) const { return tagCount(t, b) - tagCount(t, a + 1) > 0; }
    bool coarseBetween(int t, int a, int b) const {
        return coarseCount(t, b) - coarseCount(t, a + 1) > 0;
    }
    std::uint64_t tagAtom(int id) const { return tagAtom_[static_cast<std::size_t>(id)]; }
    std::uint64_t coarseAtom(int id) const { return coarseAtom_[static_cast<std::size_t>(id)]; }
    // Position p's (0..n) arc-template prefixes: the mixKey chain of each first-order template over
    // the atoms that come from p alone (as head, or as modifier), built once per sentence so that
    // arcFeatureKeys mixes only the atoms that need both ends (ArcFeatures.cpp lists them).
    static constexpr int kArcPrefixes = 33;
    const std::uint64_t* arcPrefixes(int p) const {
        return &arcPrefix_[static_cast<std::size_t>(p) * kArcPrefixes];
    }

  private:
    int tagCount(int t, int p) const {
        return tagPrefix_[static_cast<std::size_t>(p) * static_cast<std::size_t>(numTags_) +
                          static_cast<std::size_t>(t)];
    }
    int coarseCount(int t, int p) const {
        return coarsePrefix_[static_cast<std::size_t>(p) * static_cast<std::size_t>(numCoarse_) +
                             static_cast<std::size_t>(t)];
    }
    int n_ = 0, numTags_ = 0, numCoarse_ = 0;
    std::vector<TokenAtoms> atoms_;
    std::vector<std::uint64_t> tagAtom_, coarseAtom_; // atom of each id
    std::vector<int> tagPrefix_, coarsePrefix_;       // [p][id]: occurrences among positions [0, p)
    std::vector<std::uint64_t> arcPrefix_;            // [p][kArcPrefixes], p in 0..n
};

// Appends the keys of each part to out (never clears it). Positions as in DepSentence.
// Arc h -> m (h in [0,n], m in [1,n], h != m). Contract: the same keys in the same order as
// arcFeatureKeysNaive, which mixes every template from its atoms (test_dep_model holds them equal).
void arcFeatureKeys(const SentenceAtoms& a, int h, int m, std::vector<std::uint64_t>& out);
void arcFeatureKeysNaive(const SentenceAtoms& a, int h, int m, std::vector<std::uint64_t>& out);
// At least the number of keys arcFeatureKeys appends for h -> m (exact when |h - m| = 1): its 25
// fixed templates and one per distinct tag and coarse tag strictly between, each plain and
// conjoined.
std::size_t arcFeatureKeysBound(const SentenceAtoms& a, int h, int m);
// Sibling part (h, s, m): s is the modifier of h adjacent to m on m's side, between h and m;
// s == h when m is h's closest modifier on that side (McDonald & Pereira's "no sibling").
void siblingFeatureKeys(const SentenceAtoms& a, int h, int s, int m,
                        std::vector<std::uint64_t>& out);
// Grandparent part g -> h -> m.
void grandparentFeatureKeys(const SentenceAtoms& a, int g, int h, int m,
                            std::vector<std::uint64_t>& out);
// Grand-sibling part (g, h, s, m) (Koo & Collins 2010 Model 1): the sibling part (h, s, m), s == h
// for none, with g = head of h.
void grandSiblingFeatureKeys(const SentenceAtoms& a, int g, int h, int s, int m,
                             std::vector<std::uint64_t>& out);
// Vine outer arcs (Rush & Petrov 2012): token m's head lies more than the band away to its left
// (headOnLeft) or right; token h has a modifier more than the band away to its right
// (modifierOnRight) or left. `edge` is the distance to the sentence edge on that side.
void outerModifierKeys(const SentenceAtoms& a, int m, bool headOnLeft,
                       std::vector<std::uint64_t>& out);
void outerHeadKeys(const SentenceAtoms& a, int h, bool modifierOnRight,
                   std::vector<std::uint64_t>& out);

} // namespace prunescope
