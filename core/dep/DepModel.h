#pragma once
// A trained dependency scoring model (first order: arcs; second order: arcs + siblings; third
// order: + grandparents and grand-siblings, Koo & Collins 2010 Model 1), its file
// format (JSON, schema in docs/file-formats.md "Dependency model") and its scores for a sentence.
#include "core/dep/ArcFeatures.h"
#include "core/dep/DepSentenceFeatures.h"
#include "core/dep/Eisner.h"
#include "core/dep/HashedWeights.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace prunescope {

inline constexpr const char* kDepModelFormat = "prunescope-dep-model";
inline constexpr const char* kDepFeatureSet = "dep-v1"; // ArcFeatures.cpp's templates

struct DepModel {
    int order = 1; // 1 = arc-factored, 2 = arcs + siblings (McDonald & Pereira 2006), 3 = + grand-
                   // parents and grand-siblings (Koo & Collins 2010 Model 1)
    bool singleRoot = true; // the root takes exactly one modifier (true for PTB-style data)
    HashedWeights weights;
    nlohmann::json training =
        nlohmann::json::object(); // how it was made (trainer, epochs, dev UAS, data)

    EisnerOptions eisnerOptions() const {
        EisnerOptions o;
        o.singleRoot = singleRoot;
        return o;
    }
};

// The header, with the weights inline (JSON arrays) or, given bin, as a binary block.
nlohmann::json depModelToJson(const DepModel& m, BinarySectionWriter* bin = nullptr);
// Validates the whole document; throws InputError(file, line, column, ...) at the bad value.
DepModel depModelFromText(std::string text, const std::string& file = "<model>");
// Atomic; binary weight blocks unless form is WeightsForm::Json (util/BinarySection.h).
void saveDepModel(const DepModel& m, const std::string& path,
                  WeightsForm form = WeightsForm::Binary);
DepModel loadDepModel(const std::string& path); // depModelFromText of the file

// Scores of one model on one sentence: the arc matrix (first order) and the higher-order parts
// (computed on request), all from the same features the trainer used.
class DepScorer : public GrandSiblingScorer {
  public:
    DepScorer(const HashedWeights& weights, const DepSentence& s)
        : w_(&weights), own_(std::in_place, s), atoms_(&*own_) {}
    DepScorer(const DepModel& m, const DepSentence& s) : DepScorer(m.weights, s) {}
    // Refers to `atoms` (a sentence's shared DepSentenceFeatures), which must outlive the scorer.
    DepScorer(const HashedWeights& weights, const SentenceAtoms& atoms)
        : w_(&weights), atoms_(&atoms) {}
    DepScorer(const DepScorer&) = delete; // it may point at atoms it owns
    DepScorer& operator=(const DepScorer&) = delete;

    int size() const { return atoms_->size(); }
    const SentenceAtoms& atoms() const { return *atoms_; }
    float arc(int h, int m) const;
    // Every arc the mask keeps (all without a mask); pruned arcs are -inf and never scored.
    void arcScores(ArcScores& out, const ArcMask* mask = nullptr) const;
    ArcScores arcScores(const ArcMask* mask = nullptr) const {
        ArcScores s;
        arcScores(s, mask);
        return s;
    }
    float sibling(int h, int q, int m) const override;
    float grandparent(int g, int h, int m) const override;
    float grandSibling(int g, int h, int q, int m) const override;
    void grandparents(std::span<const int> gs, int h, int m, float* out) const override;
    void grandSiblings(std::span<const int> gs, int h, int q, int m, float* out) const override;

  private:
    const HashedWeights* w_;
    std::optional<SentenceAtoms> own_;
    const SentenceAtoms* atoms_;
    mutable std::vector<std::uint64_t> buf_;
    mutable std::vector<std::size_t> ends_; // batch: where each part's keys end in buf_
};

// Parses s with the model (order 1, 2 or 3) under mask; the scores come from DepScorer.
DepParse parseWithModel(const DepModel& model, const DepSentence& s, const ArcMask* mask,
                        EisnerParser& parser);
// The same parse from a sentence's shared features (DepSentenceFeatures.h): arcs already scored by
// earlier stages reuse their keys, the rest are scored without being cached.
DepParse parseWithModel(const DepModel& model, DepSentenceFeatures& features, const ArcMask* mask,
                        EisnerParser& parser);

// The feature keys of every part of a tree under the model's order: arcs, plus siblings if
// order >= 2, plus grandparents and grand-siblings if order >= 3 (what the trainers add and
// subtract).
void treeFeatureKeys(const SentenceAtoms& a, const std::vector<int>& heads, int order,
                     std::vector<std::uint64_t>& out);

} // namespace prunescope
