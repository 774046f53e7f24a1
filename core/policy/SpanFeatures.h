#pragma once
// Span features of the pruning policy (Vieira & Eisner 2017, sec. 6 "Features"):
// 16 hashed templates over boundary words, word shapes, span shape, width and length.
// Exact templates: docs/policies.md.
#include "core/util/FeatureHash.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace prunescope {

constexpr int kFeatureHashBits = 22;
constexpr uint32_t kFeatureDim = 1u << kFeatureHashBits;
constexpr int kFeatureSetVersion = 1;
constexpr int kFeatureTemplates = 16;
constexpr int kMaxLengthFeature = 40; // sentence length feature is min(n, 40)

// Symbols standing for the words/shapes beyond the sentence boundary.
inline constexpr const char* kBosSymbol = "<BOS>";
inline constexpr const char* kEosSymbol = "<EOS>";

// Character-class shape: 'A'-'Z' -> 'X', 'a'-'z' -> 'x', '0'-'9' -> 'd', whitespace -> ' ';
// runs of one class are truncated to length two; every other byte (punctuation, non-ASCII)
// is copied unchanged and never truncated. "McDonald's" -> "XxXxx'x", "1,234.5" -> "d,dd.d".
std::string wordShape(const std::string& w);

// Width bucket label: "1".."5", "6-10", "11-20", "21+".
const char* widthBucket(int width);

// The 16 feature strings of span (i,k) (covering words[i..k-1]), in template order; each starts
// with its template id, e.g. "3:F=cat". Valid for 0 <= i < k <= n.
std::vector<std::string> spanFeatureStrings(const std::vector<std::string>& words, int i, int k);

// murmurHash32(s) (util/FeatureHash.h, seed kFeatureHashSeed) masked to kFeatureHashBits bits.
uint32_t hashFeature(const std::string& s);

// All spans' hashed features for one sentence, computed once (features are static) into one
// flat array: 16 bucket ids per span. Produces exactly hashFeature(spanFeatureStrings(...)).
class SentenceFeatures {
  public:
    SentenceFeatures() = default;
    explicit SentenceFeatures(const std::vector<std::string>& words);
    int length() const { return n_; }
    // 16 bucket ids of span (i,k); valid for every span 0 <= i < k <= n (the policy only asks
    // about 1 < k-i < n). The span points into this object, so it is only offered on an lvalue:
    // `SentenceFeatures(words).features(i, k)` (a span into a temporary) does not compile.
    std::span<const uint32_t> features(int i, int k) const& {
        return {ids_.data() + (static_cast<size_t>(rowStart_[i]) + (k - i - 1)) * kFeatureTemplates,
                static_cast<size_t>(kFeatureTemplates)};
    }
    std::span<const uint32_t> features(int i, int k) const&& = delete;
    // Whether (i,k) is a span of this sentence (0 <= i < k <= n): check indices that come from
    // files.
    bool hasSpan(int i, int k) const { return i >= 0 && i < k && k <= n_; }
    const std::vector<std::string>& shapes() const& { return shapes_; }
    const std::vector<std::string>& shapes() const&& = delete;

  private:
    int n_ = 0;
    std::vector<int> rowStart_; // index of span (i, i+1) among all spans
    std::vector<uint32_t> ids_; // [span][template]
    std::vector<std::string> shapes_;
};

} // namespace prunescope
