// Dependency feature templates (docs/dependency.md, "Features").
#include "core/dep/ArcFeatures.h"

#include "core/util/FeatureHash.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace prunescope {

namespace {

// Template ids: fixed forever for feature set "dep-v1" (models record it).
enum Template : std::uint64_t {
    // first-order arc (McDonald et al. 2005, Table 1)
    kHwHt = 1,
    kHw,
    kHt,
    kMwMt,
    kMw,
    kMt,
    kHwHtMwMt,
    kHtMwMt,
    kHwMwMt,
    kHwHtMt,
    kHwHtMw,
    kHwMw,
    kHtMt,
    kHpMp,
    kHpMt,
    kHtMp,
    kHcMc,
    kSurr1,
    kSurr2,
    kSurr3,
    kSurr4,
    kSurrC1,
    kSurrC2,
    kSurrC3,
    kSurrC4,
    kBetweenT,
    kBetweenC,
    // sibling (McDonald & Pereira 2006)
    kStMt = 40,
    kSwMw,
    kSwMt,
    kStMw,
    kHtStMt,
    kScMc,
    kHcScMc,
    kStMtDist,
    kHtStMtDist,
    // grandparent
    kGtHtMt = 60,
    kGtMt,
    kGwMt,
    kGtMw,
    kGcHcMc,
    kGwHtMt,
    kGtHwMt,
    // grand-sibling (Koo & Collins 2010, Model 1)
    kGsGtHtStMt = 70,
    kGsGcHcScMc,
    kGsGtStMt,
    kGsGwHtStMt,
    kGsGtHtStMw,
    kGsGcStMt,
    // vine outer arcs
    kOutMw = 80,
    kOutMt,
    kOutMc,
    kOutMwMt,
    kOutMtNbr,
    kOutMcNbr,
    kOutMEdge,
    kOutMtEdge,
    kOutHw = 90,
    kOutHt,
    kOutHc,
    kOutHwHt,
    kOutHtNbr,
    kOutHcNbr,
    kOutHEdge,
    kOutHtEdge,
};

constexpr std::uint64_t kConj =
    1000; // template + kConj: the same atoms conjoined with dir/distance

// A string atom: murmurHash32, widened (the same hash the span features use).
std::uint64_t atom(const std::string& s) {
    return murmurHash32(s);
}

// Key k conjoined with `ctx` (direction and distance bucket), given conj = mixKey(k, kConj) (some
// templates have it precomputed per token, SentenceAtoms::arcPrefixes).
inline std::uint64_t conjoined(std::uint64_t conj, std::uint64_t ctx) {
    return mixKey(conj, ctx);
}

// Emits a key plain and conjoined with `ctx`.
struct Emitter {
    std::vector<std::uint64_t>& out;
    std::uint64_t ctx;
    template <typename... A> void both(std::uint64_t t, A... atoms) {
        key(featureKey(t, atoms...));
    }
    void key(std::uint64_t k) {
        out.push_back(k);
        out.push_back(conjoined(mixKey(k, kConj), ctx));
    }
};

std::string lower(const std::string& w) {
    std::string s = w;
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

const std::unordered_map<std::string, std::string>& universalMap() {
    static const std::unordered_map<std::string, std::string> m = {
        {"!", "."},      {"#", "."},       {"$", "."},      {"''", "."},     {"(", "."},
        {")", "."},      {",", "."},       {"-LRB-", "."},  {"-RRB-", "."},  {".", "."},
        {":", "."},      {"?", "."},       {"``", "."},     {"CC", "CONJ"},  {"CD", "NUM"},
        {"DT", "DET"},   {"EX", "DET"},    {"FW", "X"},     {"IN", "ADP"},   {"JJ", "ADJ"},
        {"JJR", "ADJ"},  {"JJS", "ADJ"},   {"LS", "X"},     {"MD", "VERB"},  {"NN", "NOUN"},
        {"NNP", "NOUN"}, {"NNPS", "NOUN"}, {"NNS", "NOUN"}, {"PDT", "DET"},  {"POS", "PRT"},
        {"PRP", "PRON"}, {"PRP$", "PRON"}, {"RB", "ADV"},   {"RBR", "ADV"},  {"RBS", "ADV"},
        {"RP", "PRT"},   {"SYM", "X"},     {"TO", "PRT"},   {"UH", "X"},     {"VB", "VERB"},
        {"VBD", "VERB"}, {"VBG", "VERB"},  {"VBN", "VERB"}, {"VBP", "VERB"}, {"VBZ", "VERB"},
        {"WDT", "DET"},  {"WP", "PRON"},   {"WP$", "PRON"}, {"WRB", "ADV"}};
    return m;
}

// Calls tag(atom) for each distinct POS strictly between lo and hi, then coarse(atom) for each
// distinct coarse tag, both in tag-id order (the kBetweenT / kBetweenC templates).
template <typename Tag, typename Coarse>
void forEachBetween(const SentenceAtoms& a, int lo, int hi, Tag&& tag, Coarse&& coarse) {
    if (hi - lo <= 1) return;
    if (hi - lo - 1 <= 8) {
        std::uint64_t ids[2][8];
        int count[2] = {0, 0};
        for (int p = lo + 1; p < hi; ++p) {
            ids[0][count[0]++] = static_cast<std::uint64_t>(a.at(p).tagId);
            ids[1][count[1]++] = static_cast<std::uint64_t>(a.at(p).coarseId);
        }
        for (int k = 0; k < 2; ++k) {
            std::sort(ids[k], ids[k] + count[k]);
            count[k] = static_cast<int>(std::unique(ids[k], ids[k] + count[k]) - ids[k]);
        }
        for (int i = 0; i < count[0]; ++i)
            tag(a.tagAtom(static_cast<int>(ids[0][i])));
        for (int i = 0; i < count[1]; ++i)
            coarse(a.coarseAtom(static_cast<int>(ids[1][i])));
    } else {
        for (int t = 0; t < a.distinctTags(); ++t)
            if (a.tagBetween(t, lo, hi)) tag(a.tagAtom(t));
        for (int t = 0; t < a.distinctCoarse(); ++t)
            if (a.coarseBetween(t, lo, hi)) coarse(a.coarseAtom(t));
    }
}

// Slots of SentenceAtoms::arcPrefixes(p). A "full" slot is a whole key of a template whose atoms
// all come from p, followed by mixKey(key, kConj) (the conjoined key then needs only the context).
enum PrefixSlot : int {
    kFullHwHt = 0,
    kFullHw = 2,
    kFullHt = 4, // p as head
    kFullMwMt = 6,
    kFullMw = 8,
    kFullMt = 10, // p as modifier
    kPreHwHtMwMt = 12,
    kPreHtMwMt,
    kPreHwMwMt,
    kPreHwHtMt,
    kPreHwHtMw,
    kPreHwMw,
    kPreHtMt,
    kPreHpMp,
    kPreHpMt,
    kPreHtMp,
    kPreHcMc,
    kPreSurr1,
    kPreSurr2,
    kPreSurr3,
    kPreSurr4,
    kPreSurrC1,
    kPreSurrC2,
    kPreSurrC3,
    kPreSurrC4,
    kPreBetweenT,
    kPreBetweenC,
    kPrefixSlots
};
static_assert(kPrefixSlots == SentenceAtoms::kArcPrefixes);

} // namespace

std::string universalTag(const std::string& ptbTag) {
    const auto& m = universalMap();
    auto it = m.find(ptbTag);
    return it == m.end() ? ptbTag : it->second;
}

int distanceBucket(int d) {
    d = d < 0 ? -d : d;
    if (d <= 5) return std::max(d, 1);
    if (d <= 10) return 6;
    if (d <= 20) return 7;
    return 8;
}

SentenceAtoms::SentenceAtoms(const DepSentence& s) : n_(s.size()) {
    atoms_.resize(static_cast<std::size_t>(n_) + 3);
    std::unordered_map<std::string, int> tagIds, coarseIds;
    auto fill = [&](TokenAtoms& a, const std::string& word, const std::string& tag,
                    const std::string& coarse) {
        const std::string w = lower(word);
        a.word = atom(w);
        a.prefix = w.size() > 5 ? atom(w.substr(0, 5)) : a.word;
        a.tag = atom(tag);
        a.coarse = atom(coarse);
        a.tagId = tagIds.emplace(tag, static_cast<int>(tagIds.size())).first->second;
        a.coarseId = coarseIds.emplace(coarse, static_cast<int>(coarseIds.size())).first->second;
        if (a.tagId == static_cast<int>(tagAtom_.size())) tagAtom_.push_back(a.tag);
        if (a.coarseId == static_cast<int>(coarseAtom_.size())) coarseAtom_.push_back(a.coarse);
    };
    fill(atoms_[0], "<s>", "<s>", "<s>");
    for (int p = 0; p <= n_; ++p) {
        const auto i = static_cast<std::size_t>(p);
        const std::string& coarse =
            i < s.upos.size() && !s.upos[i].empty() ? s.upos[i] : universalTag(s.tags[i]);
        fill(atoms_[i + 1], s.words[i], s.tags[i], p == 0 ? std::string(kRootSymbol) : coarse);
    }
    fill(atoms_[static_cast<std::size_t>(n_) + 2], "</s>", "</s>", "</s>");
    numTags_ = static_cast<int>(tagIds.size());
    numCoarse_ = static_cast<int>(coarseIds.size());
    // prefix counts over positions [0, p) for p in [0, n + 1]
    const auto rows = static_cast<std::size_t>(n_) + 2;
    tagPrefix_.assign(rows * static_cast<std::size_t>(numTags_), 0);
    coarsePrefix_.assign(rows * static_cast<std::size_t>(numCoarse_), 0);
    for (int p = 0; p <= n_; ++p) {
        const auto r = static_cast<std::size_t>(p);
        std::copy_n(tagPrefix_.begin() + static_cast<long>(r * numTags_), numTags_,
                    tagPrefix_.begin() + static_cast<long>((r + 1) * numTags_));
        std::copy_n(coarsePrefix_.begin() + static_cast<long>(r * numCoarse_), numCoarse_,
                    coarsePrefix_.begin() + static_cast<long>((r + 1) * numCoarse_));
        ++tagPrefix_[(r + 1) * static_cast<std::size_t>(numTags_) +
                     static_cast<std::size_t>(at(p).tagId)];
        ++coarsePrefix_[(r + 1) * static_cast<std::size_t>(numCoarse_) +
                        static_cast<std::size_t>(at(p).coarseId)];
    }
    arcPrefix_.resize(static_cast<std::size_t>(n_ + 1) * kArcPrefixes);
    for (int p = 0; p <= n_; ++p) {
        std::uint64_t* P = &arcPrefix_[static_cast<std::size_t>(p) * kArcPrefixes];
        const TokenAtoms &T = at(p), &t0 = at(p - 1), &t1 = at(p + 1);
        auto full = [&](int slot, std::uint64_t key) {
            P[slot] = key;
            P[slot + 1] = mixKey(key, kConj);
        };
        full(kFullHwHt, featureKey(kHwHt, T.word, T.tag));
        full(kFullHw, featureKey(kHw, T.word));
        full(kFullHt, featureKey(kHt, T.tag));
        full(kFullMwMt, featureKey(kMwMt, T.word, T.tag));
        full(kFullMw, featureKey(kMw, T.word));
        full(kFullMt, featureKey(kMt, T.tag));
        P[kPreHwHtMwMt] = featureKey(kHwHtMwMt, T.word, T.tag);
        P[kPreHtMwMt] = featureKey(kHtMwMt, T.tag);
        P[kPreHwMwMt] = featureKey(kHwMwMt, T.word);
        P[kPreHwHtMt] = featureKey(kHwHtMt, T.word, T.tag);
        P[kPreHwHtMw] = featureKey(kHwHtMw, T.word, T.tag);
        P[kPreHwMw] = featureKey(kHwMw, T.word);
        P[kPreHtMt] = featureKey(kHtMt, T.tag);
        P[kPreHpMp] = featureKey(kHpMp, T.prefix);
        P[kPreHpMt] = featureKey(kHpMt, T.prefix);
        P[kPreHtMp] = featureKey(kHtMp, T.tag);
        P[kPreHcMc] = featureKey(kHcMc, T.coarse);
        P[kPreSurr1] = featureKey(kSurr1, T.tag, t1.tag);
        P[kPreSurr2] = featureKey(kSurr2, t0.tag, T.tag);
        P[kPreSurr3] = featureKey(kSurr3, T.tag, t1.tag);
        P[kPreSurr4] = featureKey(kSurr4, t0.tag, T.tag);
        P[kPreSurrC1] = featureKey(kSurrC1, T.coarse, t1.coarse);
        P[kPreSurrC2] = featureKey(kSurrC2, t0.coarse, T.coarse);
        P[kPreSurrC3] = featureKey(kSurrC3, T.coarse, t1.coarse);
        P[kPreSurrC4] = featureKey(kSurrC4, t0.coarse, T.coarse);
        P[kPreBetweenT] = featureKey(kBetweenT, T.tag);
        P[kPreBetweenC] = featureKey(kBetweenC, T.coarse);
    }
}

void arcFeatureKeys(const SentenceAtoms& a, int h, int m, std::vector<std::uint64_t>& out) {
    const std::uint64_t *P = a.arcPrefixes(h), *Q = a.arcPrefixes(m);
    const TokenAtoms &M = a.at(m), &m0 = a.at(m - 1), &m1 = a.at(m + 1);
    const auto ctx = static_cast<std::uint64_t>(distanceBucket(m - h) * 2 + (h < m ? 1 : 0));
    // Room for the most keys this arc can have, written through a cursor (Emitter's keys without a
    // capacity check per key), then trimmed to the keys written.
    const std::size_t start = out.size();
    out.resize(start + arcFeatureKeysBound(a, h, m));
    std::uint64_t* at = out.data() + start;
    auto put = [&](std::uint64_t k, std::uint64_t conj) {
        at[0] = k;
        at[1] = conjoined(conj, ctx);
        at += 2;
    };
    auto full = [&](const std::uint64_t* slot) {
        put(slot[0], slot[1]);
    }; // a per-token key and its conj
    auto both = [&](std::uint64_t k) { put(k, mixKey(k, kConj)); };
    // The templates in arcFeatureKeysNaive's order; each mixes the modifier's atoms into h's
    // prefix.
    full(P + kFullHwHt);
    full(P + kFullHw);
    full(P + kFullHt);
    full(Q + kFullMwMt);
    full(Q + kFullMw);
    full(Q + kFullMt);
    both(mixKey(mixKey(P[kPreHwHtMwMt], M.word), M.tag));
    both(mixKey(mixKey(P[kPreHtMwMt], M.word), M.tag));
    both(mixKey(mixKey(P[kPreHwMwMt], M.word), M.tag));
    both(mixKey(P[kPreHwHtMt], M.tag));
    both(mixKey(P[kPreHwHtMw], M.word));
    both(mixKey(P[kPreHwMw], M.word));
    both(mixKey(P[kPreHtMt], M.tag));
    both(mixKey(P[kPreHpMp], M.prefix));
    both(mixKey(P[kPreHpMt], M.tag));
    both(mixKey(P[kPreHtMp], M.prefix));
    both(mixKey(P[kPreHcMc], M.coarse));
    both(mixKey(mixKey(P[kPreSurr1], m0.tag), M.tag));
    both(mixKey(mixKey(P[kPreSurr2], m0.tag), M.tag));
    both(mixKey(mixKey(P[kPreSurr3], M.tag), m1.tag));
    both(mixKey(mixKey(P[kPreSurr4], M.tag), m1.tag));
    both(mixKey(mixKey(P[kPreSurrC1], m0.coarse), M.coarse));
    both(mixKey(mixKey(P[kPreSurrC2], m0.coarse), M.coarse));
    both(mixKey(mixKey(P[kPreSurrC3], M.coarse), m1.coarse));
    both(mixKey(mixKey(P[kPreSurrC4], M.coarse), m1.coarse));
    forEachBetween(
        a, std::min(h, m), std::max(h, m),
        [&](std::uint64_t t) { both(mixKey(mixKey(P[kPreBetweenT], t), M.tag)); },
        [&](std::uint64_t c) { both(mixKey(mixKey(P[kPreBetweenC], c), M.coarse)); });
    out.resize(static_cast<std::size_t>(at - out.data()));
}

std::size_t arcFeatureKeysBound(const SentenceAtoms& a, int h, int m) {
    constexpr std::size_t kFixedTemplates = 25; // arcFeatureKeys' templates before the between ones
    const int gap = (h < m ? m - h : h - m) - 1;
    const auto between = static_cast<std::size_t>(std::min(gap, a.distinctTags()) +
                                                  std::min(gap, a.distinctCoarse()));
    return 2 * (kFixedTemplates + between);
}

void arcFeatureKeysNaive(const SentenceAtoms& a, int h, int m, std::vector<std::uint64_t>& out) {
    const TokenAtoms &H = a.at(h), &M = a.at(m);
    const bool right = h < m; // the modifier is to the right of its head
    Emitter e{out, static_cast<std::uint64_t>(distanceBucket(m - h) * 2 + (right ? 1 : 0))};
    e.both(kHwHt, H.word, H.tag);
    e.both(kHw, H.word);
    e.both(kHt, H.tag);
    e.both(kMwMt, M.word, M.tag);
    e.both(kMw, M.word);
    e.both(kMt, M.tag);
    e.both(kHwHtMwMt, H.word, H.tag, M.word, M.tag);
    e.both(kHtMwMt, H.tag, M.word, M.tag);
    e.both(kHwMwMt, H.word, M.word, M.tag);
    e.both(kHwHtMt, H.word, H.tag, M.tag);
    e.both(kHwHtMw, H.word, H.tag, M.word);
    e.both(kHwMw, H.word, M.word);
    e.both(kHtMt, H.tag, M.tag);
    e.both(kHpMp, H.prefix, M.prefix);
    e.both(kHpMt, H.prefix, M.tag);
    e.both(kHtMp, H.tag, M.prefix);
    e.both(kHcMc, H.coarse, M.coarse);
    const TokenAtoms &h0 = a.at(h - 1), &h1 = a.at(h + 1), &m0 = a.at(m - 1), &m1 = a.at(m + 1);
    e.both(kSurr1, H.tag, h1.tag, m0.tag, M.tag);
    e.both(kSurr2, h0.tag, H.tag, m0.tag, M.tag);
    e.both(kSurr3, H.tag, h1.tag, M.tag, m1.tag);
    e.both(kSurr4, h0.tag, H.tag, M.tag, m1.tag);
    e.both(kSurrC1, H.coarse, h1.coarse, m0.coarse, M.coarse);
    e.both(kSurrC2, h0.coarse, H.coarse, m0.coarse, M.coarse);
    e.both(kSurrC3, H.coarse, h1.coarse, M.coarse, m1.coarse);
    e.both(kSurrC4, h0.coarse, H.coarse, M.coarse, m1.coarse);
    // POS strictly between head and modifier, each distinct tag once, in tag-id order.
    forEachBetween(
        a, std::min(h, m), std::max(h, m),
        [&](std::uint64_t t) { e.both(kBetweenT, H.tag, t, M.tag); },
        [&](std::uint64_t c) { e.both(kBetweenC, H.coarse, c, M.coarse); });
}

void siblingFeatureKeys(const SentenceAtoms& a, int h, int s, int m,
                        std::vector<std::uint64_t>& out) {
    static const TokenAtoms none = [] {
        TokenAtoms t;
        t.word = t.prefix = t.tag = t.coarse = atom("<no-sibling>");
        return t;
    }();
    const TokenAtoms &H = a.at(h), &S = s == h ? none : a.at(s), &M = a.at(m);
    const bool right = h < m;
    Emitter e{out, static_cast<std::uint64_t>(right ? 1 : 0)};
    e.both(kStMt, S.tag, M.tag);
    e.both(kSwMw, S.word, M.word);
    e.both(kSwMt, S.word, M.tag);
    e.both(kStMw, S.tag, M.word);
    e.both(kHtStMt, H.tag, S.tag, M.tag);
    e.both(kScMc, S.coarse, M.coarse);
    e.both(kHcScMc, H.coarse, S.coarse, M.coarse);
    const auto dist = static_cast<std::uint64_t>(s == h ? 0 : distanceBucket(m - s));
    e.both(kStMtDist, S.tag, M.tag, dist);
    e.both(kHtStMtDist, H.tag, S.tag, M.tag, dist);
}

void grandparentFeatureKeys(const SentenceAtoms& a, int g, int h, int m,
                            std::vector<std::uint64_t>& out) {
    const TokenAtoms &G = a.at(g), &H = a.at(h), &M = a.at(m);
    Emitter e{out, static_cast<std::uint64_t>((g < h ? 2 : 0) + (h < m ? 1 : 0))};
    e.both(kGtHtMt, G.tag, H.tag, M.tag);
    e.both(kGtMt, G.tag, M.tag);
    e.both(kGwMt, G.word, M.tag);
    e.both(kGtMw, G.tag, M.word);
    e.both(kGcHcMc, G.coarse, H.coarse, M.coarse);
    e.both(kGwHtMt, G.word, H.tag, M.tag);
    e.both(kGtHwMt, G.tag, H.word, M.tag);
}

void grandSiblingFeatureKeys(const SentenceAtoms& a, int g, int h, int s, int m,
                             std::vector<std::uint64_t>& out) {
    static const TokenAtoms none = [] {
        TokenAtoms t;
        t.word = t.prefix = t.tag = t.coarse = atom("<no-sibling>");
        return t;
    }();
    const TokenAtoms &G = a.at(g), &H = a.at(h), &S = s == h ? none : a.at(s), &M = a.at(m);
    Emitter e{out, static_cast<std::uint64_t>((g < h ? 2 : 0) + (h < m ? 1 : 0))};
    e.both(kGsGtHtStMt, G.tag, H.tag, S.tag, M.tag);
    e.both(kGsGcHcScMc, G.coarse, H.coarse, S.coarse, M.coarse);
    e.both(kGsGtStMt, G.tag, S.tag, M.tag);
    e.both(kGsGwHtStMt, G.word, H.tag, S.tag, M.tag);
    e.both(kGsGtHtStMw, G.tag, H.tag, S.tag, M.word);
    e.both(kGsGcStMt, G.coarse, S.tag, M.tag);
}

namespace {
void outerKeys(const SentenceAtoms& a, int p, bool towardRight, std::uint64_t base,
               std::vector<std::uint64_t>& out) {
    const TokenAtoms &P = a.at(p), &p0 = a.at(p - 1), &p1 = a.at(p + 1);
    const auto dir = static_cast<std::uint64_t>(towardRight ? 1 : 0);
    const int edgeDistance = towardRight ? a.size() - p : p;
    const auto edge = static_cast<std::uint64_t>(distanceBucket(edgeDistance));
    // Every outer template includes the direction (an outer arc always has one).
    out.push_back(featureKey(base + 0, dir, P.word));
    out.push_back(featureKey(base + 1, dir, P.tag));
    out.push_back(featureKey(base + 2, dir, P.coarse));
    out.push_back(featureKey(base + 3, dir, P.word, P.tag));
    out.push_back(featureKey(base + 4, dir, p0.tag, P.tag, p1.tag));
    out.push_back(featureKey(base + 5, dir, p0.coarse, P.coarse, p1.coarse));
    out.push_back(featureKey(base + 6, dir, edge));
    out.push_back(featureKey(base + 7, dir, P.tag, edge));
}
} // namespace

void outerModifierKeys(const SentenceAtoms& a, int m, bool headOnLeft,
                       std::vector<std::uint64_t>& out) {
    outerKeys(a, m, !headOnLeft, kOutMw, out);
}

void outerHeadKeys(const SentenceAtoms& a, int h, bool modifierOnRight,
                   std::vector<std::uint64_t>& out) {
    outerKeys(a, h, modifierOnRight, kOutHw, out);
}

} // namespace prunescope
