// Dependency model file and scores.
#include "core/dep/DepModel.h"

#include "core/dep/ModelFile.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"

#include <stdexcept>

namespace prunescope {

nlohmann::json depModelToJson(const DepModel& m, BinarySectionWriter* bin) {
    return {{"format", kDepModelFormat},       {"version", 1},
            {"featureSet", kDepFeatureSet},    {"order", m.order},
            {"singleRoot", m.singleRoot},      {"training", m.training},
            {"weights", m.weights.toJson(bin)}};
}

void saveDepModel(const DepModel& m, const std::string& path, WeightsForm form) {
    BinarySectionWriter bin;
    BinarySectionWriter* b = form == WeightsForm::Binary ? &bin : nullptr;
    writeFileAtomically(path, modelFileText(depModelToJson(m, b), b));
}

DepModel depModelFromText(std::string text, const std::string& file) {
    const JsonDocument doc(std::move(text), file, "dependency model: ", 1,
                           JsonDocument::Binary::Allowed);
    ModelFields f = readModelFields(doc, kDepModelFormat, 1, "featureSet", kDepFeatureSet);
    const auto& order = doc.member(doc.root(), "order");
    const int n = doc.int32(order);
    if (n < 1 || n > 3) doc.fail(order, "'order' must be 1, 2 or 3");
    return {.order = n,
            .singleRoot = f.singleRoot,
            .weights = std::move(f.weights),
            .training = std::move(f.training)};
}

DepModel loadDepModel(const std::string& path) {
    return depModelFromText(readFile(path), path);
}

float DepScorer::arc(int h, int m) const {
    buf_.clear();
    arcFeatureKeys(*atoms_, h, m, buf_);
    return w_->score(buf_);
}

void DepScorer::arcScores(ArcScores& out, const ArcMask* mask) const {
    const int n = atoms_->size();
    if (mask && mask->n != n)
        throw std::invalid_argument("DepScorer: mask length differs from the sentence");
    out.reset(n);
    for (int h = 0; h <= n; ++h)
        for (int m = 1; m <= n; ++m)
            if (h != m && (!mask || mask->keep(h, m))) out.at(h, m) = arc(h, m);
}

float DepScorer::sibling(int h, int q, int m) const {
    buf_.clear();
    siblingFeatureKeys(*atoms_, h, q, m, buf_);
    return w_->score(buf_);
}

float DepScorer::grandparent(int g, int h, int m) const {
    buf_.clear();
    grandparentFeatureKeys(*atoms_, g, h, m, buf_);
    return w_->score(buf_);
}

float DepScorer::grandSibling(int g, int h, int q, int m) const {
    buf_.clear();
    grandSiblingFeatureKeys(*atoms_, g, h, q, m, buf_);
    return w_->score(buf_);
}

namespace {
// Keys of every part first, then one prefetch of them all, then each part's sum in key order (the
// same floats as one score() per part).
template <typename Keys>
void scoreBatch(const HashedWeights& w, std::span<const int> gs, float* out,
                std::vector<std::uint64_t>& buf, std::vector<std::size_t>& ends, Keys&& keys) {
    buf.clear();
    ends.clear();
    for (const int g : gs) {
        keys(g, buf);
        ends.push_back(buf.size());
    }
    w.prefetch(buf);
    std::size_t begin = 0;
    for (std::size_t i = 0; i < gs.size(); ++i) {
        out[i] = w.score(std::span<const std::uint64_t>(buf.data() + begin, ends[i] - begin));
        begin = ends[i];
    }
}
} // namespace

void DepScorer::grandparents(std::span<const int> gs, int h, int m, float* out) const {
    scoreBatch(*w_, gs, out, buf_, ends_, [&](int g, std::vector<std::uint64_t>& b) {
        grandparentFeatureKeys(*atoms_, g, h, m, b);
    });
}

void DepScorer::grandSiblings(std::span<const int> gs, int h, int q, int m, float* out) const {
    scoreBatch(*w_, gs, out, buf_, ends_, [&](int g, std::vector<std::uint64_t>& b) {
        grandSiblingFeatureKeys(*atoms_, g, h, q, m, b);
    });
}

namespace {
DepParse parseOrder(int order, EisnerParser& parser, const ArcScores& arcs, const DepScorer& scorer,
                    const ArcMask* mask) {
    if (order >= 3) return parser.parseGrandSiblings(arcs, scorer, mask);
    if (order == 2) return parser.parse(arcs, scorer, mask);
    return parser.parse(arcs, mask);
}
} // namespace

DepParse parseWithModel(const DepModel& model, const DepSentence& s, const ArcMask* mask,
                        EisnerParser& parser) {
    const DepScorer scorer(model, s);
    const ArcScores arcs = scorer.arcScores(mask);
    return parseOrder(model.order, parser, arcs, scorer, mask);
}

DepParse parseWithModel(const DepModel& model, DepSentenceFeatures& features, const ArcMask* mask,
                        EisnerParser& parser) {
    ArcScores arcs;
    features.arcScores(model.weights, mask, arcs, /*cache=*/false);
    if (model.order < 2) return parser.parse(arcs, mask);
    return parseOrder(model.order, parser, arcs, DepScorer(model.weights, features.atoms()), mask);
}

void treeFeatureKeys(const SentenceAtoms& a, const std::vector<int>& heads, int order,
                     std::vector<std::uint64_t>& out) {
    for (int m = 1; m < static_cast<int>(heads.size()); ++m)
        arcFeatureKeys(a, heads[static_cast<std::size_t>(m)], m, out);
    if (order >= 2)
        for (const auto& p : siblingParts(heads))
            siblingFeatureKeys(a, p[0], p[1], p[2], out);
    if (order >= 3)
        for (const auto& p : grandSiblingParts(heads)) {
            grandparentFeatureKeys(a, p[0], p[1], p[3], out);
            grandSiblingFeatureKeys(a, p[0], p[1], p[2], p[3], out);
        }
}

} // namespace prunescope
