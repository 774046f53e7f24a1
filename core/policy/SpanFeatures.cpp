// Span feature templates and hashing (Vieira & Eisner 2017, sec. 6 "Features").
#include "core/policy/SpanFeatures.h"

#include <algorithm>
#include <array>

namespace prunescope {

namespace {

enum CharClass { kUpper, kLower, kDigit, kSpace, kOther };

CharClass classOf(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return kUpper;
    if (c >= 'a' && c <= 'z') return kLower;
    if (c >= '0' && c <= '9') return kDigit;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') return kSpace;
    return kOther;
}

constexpr std::array<char, 4> kClassChar = {'X', 'x', 'd', ' '};

// Template prefixes, in template order (docs/policies.md lists them).
constexpr std::array<const char*, kFeatureTemplates> kPrefix = {
    "0:bias", "1:len=", "2:L=",    "3:F=",    "4:E=",    "5:R=",    "6:LF=",    "7:ER=",
    "8:LR=",  "9:FE=",  "10:sLF=", "11:sER=", "12:sLR=", "13:sFE=", "14:span=", "15:width="};

// Words and shapes with the boundary symbols: index p+1 holds position p, for p in [-1, n].
struct Padded {
    std::vector<std::string> word, shape;
    explicit Padded(const std::vector<std::string>& words) {
        const size_t n = words.size();
        word.reserve(n + 2);
        shape.reserve(n + 2);
        word.emplace_back(kBosSymbol);
        shape.emplace_back(kBosSymbol);
        for (const auto& w : words) {
            word.push_back(w);
            shape.push_back(wordShape(w));
        }
        word.emplace_back(kEosSymbol);
        shape.emplace_back(kEosSymbol);
    }
    const std::string& w(int p) const { return word[static_cast<size_t>(p + 1)]; }
    const std::string& s(int p) const { return shape[static_cast<size_t>(p + 1)]; }
};

// buf = prefix + a [+ " " + b]; reuses buf's capacity.
void compose(std::string& buf, int t, const std::string& a) {
    buf.assign(kPrefix[t]);
    buf += a;
}
void compose(std::string& buf, int t, const std::string& a, const std::string& b) {
    compose(buf, t, a);
    buf += ' ';
    buf += b;
}

std::string lengthValue(int n) {
    return std::to_string(std::min(n, kMaxLengthFeature));
}

} // namespace

std::string wordShape(const std::string& w) {
    std::string out;
    out.reserve(w.size());
    int prev = -1;
    int run = 0;
    for (unsigned char c : w) {
        const CharClass cls = classOf(c);
        if (cls == kOther) {
            out += static_cast<char>(c);
            prev = -1;
            run = 0;
            continue;
        }
        run = (cls == prev) ? run + 1 : 1;
        prev = cls;
        if (run <= 2) out += kClassChar[cls];
    }
    return out;
}

const char* widthBucket(int width) {
    static constexpr std::array<const char*, 6> small = {"0", "1", "2", "3", "4", "5"};
    if (width <= 5) return small[static_cast<size_t>(std::max(width, 0))];
    if (width <= 10) return "6-10";
    if (width <= 20) return "11-20";
    return "21+";
}

uint32_t hashFeature(const std::string& s) {
    return murmurHash32(s) & (kFeatureDim - 1u);
}

std::vector<std::string> spanFeatureStrings(const std::vector<std::string>& words, int i, int k) {
    const Padded p(words);
    const int n = static_cast<int>(words.size());
    std::vector<std::string> f(kFeatureTemplates);
    compose(f[0], 0, "");
    compose(f[1], 1, lengthValue(n));
    compose(f[2], 2, p.w(i - 1));
    compose(f[3], 3, p.w(i));
    compose(f[4], 4, p.w(k - 1));
    compose(f[5], 5, p.w(k));
    compose(f[6], 6, p.w(i - 1), p.w(i));
    compose(f[7], 7, p.w(k - 1), p.w(k));
    compose(f[8], 8, p.w(i - 1), p.w(k));
    compose(f[9], 9, p.w(i), p.w(k - 1));
    compose(f[10], 10, p.s(i - 1), p.s(i));
    compose(f[11], 11, p.s(k - 1), p.s(k));
    compose(f[12], 12, p.s(i - 1), p.s(k));
    compose(f[13], 13, p.s(i), p.s(k - 1));
    compose(f[14], 14, p.s(i));
    for (int j = i + 1; j < k; ++j) {
        f[14] += ' ';
        f[14] += p.s(j);
    }
    compose(f[15], 15, widthBucket(k - i));
    return f;
}

SentenceFeatures::SentenceFeatures(const std::vector<std::string>& words)
    : n_(static_cast<int>(words.size())) {
    const Padded p(words);
    const int n = n_;
    shapes_.assign(p.shape.begin() + 1, p.shape.end() - 1);
    rowStart_.resize(static_cast<size_t>(n) + 1);
    int total = 0;
    for (int i = 0; i < n; ++i) {
        rowStart_[static_cast<size_t>(i)] = total;
        total += n - i;
    }
    rowStart_[static_cast<size_t>(n)] = total;
    ids_.assign(static_cast<size_t>(total) * kFeatureTemplates, 0u);

    std::string buf;
    buf.reserve(256);
    auto h = [&buf]() { return hashFeature(buf); };

    // Pieces that depend on one position only: O(n) hashes.
    compose(buf, 0, "");
    const uint32_t bias = h();
    compose(buf, 1, lengthValue(n));
    const uint32_t len = h();
    std::array<uint32_t, 22> width{}; // bucket id for widths 0..21 (21 stands for 21+)
    for (int w = 0; w < 22; ++w) {
        compose(buf, 15, widthBucket(w));
        width[static_cast<size_t>(w)] = h();
    }
    // Left-end pieces indexed by i in [0,n): templates 2, 3, 6, 10.
    // Right-end pieces indexed by k in [1,n]: templates 4, 5, 7, 11.
    std::vector<std::array<uint32_t, 4>> left(static_cast<size_t>(n) + 1),
        right(static_cast<size_t>(n) + 1);
    for (int i = 0; i < n; ++i) {
        auto& a = left[static_cast<size_t>(i)];
        compose(buf, 2, p.w(i - 1));
        a[0] = h();
        compose(buf, 3, p.w(i));
        a[1] = h();
        compose(buf, 6, p.w(i - 1), p.w(i));
        a[2] = h();
        compose(buf, 10, p.s(i - 1), p.s(i));
        a[3] = h();
    }
    for (int k = 1; k <= n; ++k) {
        auto& a = right[static_cast<size_t>(k)];
        compose(buf, 4, p.w(k - 1));
        a[0] = h();
        compose(buf, 5, p.w(k));
        a[1] = h();
        compose(buf, 7, p.w(k - 1), p.w(k));
        a[2] = h();
        compose(buf, 11, p.s(k - 1), p.s(k));
        a[3] = h();
    }

    // Pieces that depend on both ends: templates 8, 9, 12, 13 and the span shape 14.
    std::string spanShape;
    spanShape.reserve(64);
    for (int i = 0; i < n; ++i) {
        const auto& L = left[static_cast<size_t>(i)];
        spanShape.assign(kPrefix[14]);
        spanShape += p.s(i);
        for (int k = i + 1; k <= n; ++k) {
            if (k > i + 1) {
                spanShape += ' ';
                spanShape += p.s(k - 1);
            }
            const auto& R = right[static_cast<size_t>(k)];
            uint32_t* out = ids_.data() +
                            (static_cast<size_t>(rowStart_[static_cast<size_t>(i)]) + (k - i - 1)) *
                                kFeatureTemplates;
            out[0] = bias;
            out[1] = len;
            out[2] = L[0];
            out[3] = L[1];
            out[4] = R[0];
            out[5] = R[1];
            out[6] = L[2];
            out[7] = R[2];
            compose(buf, 8, p.w(i - 1), p.w(k));
            out[8] = h();
            compose(buf, 9, p.w(i), p.w(k - 1));
            out[9] = h();
            out[10] = L[3];
            out[11] = R[3];
            compose(buf, 12, p.s(i - 1), p.s(k));
            out[12] = h();
            compose(buf, 13, p.s(i), p.s(k - 1));
            out[13] = h();
            out[14] = hashFeature(spanShape);
            out[15] = width[static_cast<size_t>(std::min(k - i, 21))];
        }
    }
}

} // namespace prunescope
