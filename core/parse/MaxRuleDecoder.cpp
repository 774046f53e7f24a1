// Max-rule-product decoding over base symbols (Petrov & Klein 2007, sec. 3).
#include "core/parse/MaxRuleDecoder.h"

#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace prunescope {

namespace {
constexpr double kNoScore = -std::numeric_limits<double>::infinity();
constexpr std::int64_t kLexicalBack = -1;
} // namespace

ParseStats MaxRuleResult::parseStats() const {
    ParseStats st;
    st.pushes = inside.pushes;
    st.spansKept = inside.spansKept;
    st.success = success;
    st.logProb = success ? logScore : 0.0;
    return st;
}

const char* parseDecoderName(ParseDecoder d) {
    return d == ParseDecoder::MaxRule ? "max-rule" : "viterbi";
}

bool parseDecoderFromName(const std::string& name, ParseDecoder& out) {
    if (name == "viterbi")
        out = ParseDecoder::Viterbi;
    else if (name == "max-rule")
        out = ParseDecoder::MaxRule;
    else
        return false;
    return true;
}

MaxRuleDecoder::MaxRuleDecoder(const Grammar& g) : g_(&g), io_(g) {
    std::unordered_map<std::string, std::uint32_t> ids;
    baseOf_.resize(g.symbols.size());
    for (std::size_t x = 0; x < g.symbols.size(); ++x) {
        const std::string& label = g.outputLabel(static_cast<SymbolId>(x));
        auto [it, fresh] = ids.emplace(label, static_cast<std::uint32_t>(baseNames_.size()));
        if (fresh) baseNames_.push_back(label);
        baseOf_[x] = it->second;
    }
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t> binIds;
    for (const BinaryRule& r : g.binary) {
        const auto key = std::make_tuple(baseOf_[r.parent], baseOf_[r.left], baseOf_[r.right]);
        auto [it, fresh] = binIds.emplace(key, static_cast<std::uint32_t>(baseBinary_.size()));
        if (fresh) baseBinary_.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key)});
        binaryToBase_.push_back(it->second);
    }
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> unIds;
    for (const UnaryRule& r : g.unary) {
        const auto key = std::make_pair(baseOf_[r.parent], baseOf_[r.child]);
        auto [it, fresh] = unIds.emplace(key, static_cast<std::uint32_t>(baseUnary_.size()));
        if (fresh) baseUnary_.push_back({key.first, key.second});
        unaryToBase_.push_back(it->second);
    }
    accBinary_.assign(baseBinary_.size(), 0.0);
    accUnary_.assign(baseUnary_.size(), 0.0);
    accLexical_.assign(baseNames_.size(), 0.0);
}

int MaxRuleDecoder::cellIndex(int i, int k) const {
    return i * (2 * n_ - i + 1) / 2 + (k - i - 1);
}

MaxRuleResult MaxRuleDecoder::decode(std::span<const std::string> words, const PruningMask* mask,
                                     const Progress& progress) {
    const int n = static_cast<int>(words.size());
    if (n == 0) throw std::invalid_argument("max-rule decoding: empty sentence");
    const PruningMask all = mask ? PruningMask{} : PruningMask::allKeep(n);
    MaxRuleResult out;
    out.inside = io_.inside(words, mask ? *mask : all, progress); // throws for bad input
    if (!out.inside.success) return out;
    io_.outside(expectations_); // fills oPost; the rule counts themselves are not used here
    n_ = n;
    words_ = words;
    const std::size_t cells = static_cast<std::size_t>(n) * (n + 1) / 2 * baseNames_.size();
    pre_.assign(cells, kNoScore);
    post_.assign(cells, kNoScore);
    preBack_.assign(cells, 0);
    postBack_.assign(cells, -1);
    for (int w = 1; w <= n; ++w) {
        progress.throwIfCancelled();
        for (int i = 0; i + w <= n; ++i)
            decodeCell(i, i + w);
    }
    // ROOT -> A over the whole sentence: the root rules' posteriors summed per base child.
    const Grammar& g = *g_;
    std::vector<double> root(baseNames_.size(), 0.0);
    for (std::size_t r = 0; r < g.rootRules.size(); ++r)
        root[baseOf_[g.rootRules[r].child]] += io_.rootPosterior(r);
    const int top = cellIndex(0, n);
    std::uint32_t best = 0;
    for (std::uint32_t a = 0; a < root.size(); ++a) {
        if (root[a] <= 0.0 || post_[at(top, a)] == kNoScore) continue;
        const double v = std::log(root[a]) + post_[at(top, a)];
        if (v > out.logScore) out.logScore = v, best = a;
    }
    if (out.logScore == kNoScore) return out; // posteriors underflowed to 0 everywhere
    out.success = true;
    out.binarized = Tree{g.outputLabel(g.root), {buildPost(0, n, best)}};
    return out;
}

void MaxRuleDecoder::decodeCell(int i, int k) {
    const int c = cellIndex(i, k);
    touchedUnary_.clear();
    int split = -1;
    auto flush = [&] { // the base binary rules of one split point
        if (split < 0) return;
        const int l = cellIndex(i, split), r = cellIndex(split, k);
        for (const std::uint32_t b : touched_) {
            const BaseBinary& rule = baseBinary_[b];
            const double v =
                std::log(accBinary_[b]) + post_[at(l, rule.left)] + post_[at(r, rule.right)];
            accBinary_[b] = 0.0;
            if (v > pre_[at(c, rule.parent)]) {
                pre_[at(c, rule.parent)] = v;
                preBack_[at(c, rule.parent)] = (static_cast<std::int64_t>(split) << 32) | b;
            }
        }
        touched_.clear();
    };
    // One visitor for every width: lexical() fires at width 1 only, binary() at width >= 2 only,
    // split by split in ascending order (cellPosteriors' loop order).
    struct Visitor {
        MaxRuleDecoder& d;
        int& split;
        decltype(flush)& flushSplit;
        void unary(std::uint32_t u, double p) {
            const std::uint32_t b = d.unaryToBase_[u];
            if (d.accUnary_[b] == 0.0) d.touchedUnary_.push_back(b);
            d.accUnary_[b] += p;
        }
        void lexical(SymbolId tag, double p) { // tags: lexical posteriors summed per base tag
            const std::uint32_t a = d.baseOf_[tag];
            if (d.accLexical_[a] == 0.0) d.touchedTags_.push_back(a);
            d.accLexical_[a] += p;
        }
        void binary(int j, std::uint32_t ri, double p) {
            if (j != split) {
                flushSplit();
                split = j;
            }
            const std::uint32_t b = d.binaryToBase_[ri];
            if (d.accBinary_[b] == 0.0) d.touched_.push_back(b);
            d.accBinary_[b] += p;
        }
    };
    touchedTags_.clear();
    io_.cellPosteriors(i, k, Visitor{*this, split, flush});
    flush();
    for (const std::uint32_t a : touchedTags_) {
        pre_[at(c, a)] = std::log(accLexical_[a]);
        preBack_[at(c, a)] = kLexicalBack;
        accLexical_[a] = 0.0;
    }
    // the unary layer: identity, or one base unary rule over a pre-layer symbol
    for (std::uint32_t a = 0; a < baseNames_.size(); ++a)
        post_[at(c, a)] = pre_[at(c, a)];
    for (const std::uint32_t b : touchedUnary_) {
        const BaseUnary& rule = baseUnary_[b];
        const double child = pre_[at(c, rule.child)];
        const double v = std::log(accUnary_[b]) + child;
        accUnary_[b] = 0.0;
        if (child != kNoScore && v > post_[at(c, rule.parent)]) {
            post_[at(c, rule.parent)] = v;
            postBack_[at(c, rule.parent)] = static_cast<std::int32_t>(b);
        }
    }
}

Tree MaxRuleDecoder::buildPost(int i, int k, std::uint32_t a) const {
    const std::int32_t u = postBack_[at(cellIndex(i, k), a)];
    if (u < 0) return buildPre(i, k, a);
    return Tree{baseNames_[a], {buildPre(i, k, baseUnary_[static_cast<std::size_t>(u)].child)}};
}

Tree MaxRuleDecoder::buildPre(int i, int k, std::uint32_t a) const {
    const std::int64_t back = preBack_[at(cellIndex(i, k), a)];
    if (back == kLexicalBack)
        return Tree{baseNames_[a], {Tree{words_[static_cast<std::size_t>(i)], {}}}};
    const int j = static_cast<int>(back >> 32);
    const BaseBinary& rule = baseBinary_[static_cast<std::size_t>(back & 0xFFFFFFFFll)];
    return Tree{baseNames_[a], {buildPost(i, j, rule.left), buildPost(j, k, rule.right)}};
}

} // namespace prunescope
