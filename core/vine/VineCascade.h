#pragma once
// The vine-pruning cascade (Rush & Petrov 2012 sec. 3-5): vine -> first-order -> second-order (->
// third-order), each pruning stage with its hashed weights and its dev-chosen alpha; the final
// stage is a dependency model file (core/dep/DepModel.h) referenced by path. File format: JSON,
// versioned, docs/file-formats.md "Vine cascade".
//
// Public API (shared by dep-eval, dep-bench and the explorer; keep stable):
//   VineCascade loadVineCascade(const std::string& path);
//   void saveVineCascade(const VineCascade& c, const std::string& path,
//                        WeightsForm form = WeightsForm::Binary);   // atomic
//   void appendCascadeStages(DepPipeline& p, const VineCascade& c, std::span<const double> alphas);
//       one ArcPruningStage per pruning stage, named "vine", "first-order" and (in front of a
//       third-order model) "second-order" (exact = false / true / true), alphas.size() ==
//       c.stages.size() (std::invalid_argument otherwise); c.alphas are the dev-chosen defaults.
//       The stages refer to c: it must outlive the pipeline.
//   StageMarginals cascadeStageMarginals(const VineCascade& c, std::size_t stage, const
//   DepSentence& s,
//                                        const ArcMask& incoming);
//       the per-arc max-marginals of one stage (StageMarginals::arc(h, m)); cheap for the vine,
//       one first-order inside-outside for the first-order stage.
//   ArcPruningStage lengthVineStage(int band);
//       the plain length-only vine (no learning): keeps root arcs and arcs of length <= band.
#include "core/dep/DepPipeline.h"
#include "core/dep/HashedWeights.h"
#include "core/vine/CascadeStage.h"

#include <nlohmann/json.hpp>

#include <span>
#include <string>
#include <vector>

namespace prunescope {

inline constexpr const char* kVineCascadeFormat = "prunescope-vine-cascade";
// Version 3: the vine stage names its structure ("token" or "tree", VineParser.h); version 2 files
// (no structure: the per-token vine) are read as "token"; version 1 files (one-sided vine, before
// outer-head parts) are refused with a message to retrain.
inline constexpr int kVineCascadeVersion = 3;

struct VineCascadeStage {
    std::string name; // "vine" | "first-order" | "second-order"
    CascadeStageKind kind = CascadeStageKind::Vine;
    int band = 3; // vine band b (vine stage; 0 for first-order)
    HashedWeights weights;
    nlohmann::json training =
        nlohmann::json::object();                      // how it was trained (alpha, epochs, losses)
    VineStructure structure = VineStructure::PerToken; // which vine (vine stage)
};

struct VineCascade {
    bool singleRoot = true;
    std::vector<VineCascadeStage> stages; // pruning stages in order: vine, first-, second-order
    std::vector<double> alphas;           // dev-chosen alpha per pruning stage
    std::string finalModel; // the final (second- or third-order) model's path as written
    std::string
        finalModelResolved; // finalModel resolved against the cascade file's folder (on load)
    nlohmann::json training = nlohmann::json::object(); // data, selection grid, dev numbers
};

// The header, with each stage's weights inline (JSON arrays) or, given bin, as binary blocks.
nlohmann::json vineCascadeToJson(const VineCascade& c, BinarySectionWriter* bin = nullptr);
// Validates everything; throws InputError(file, line, column, ...) at the offending value.
VineCascade vineCascadeFromText(std::string text, const std::string& file);
VineCascade loadVineCascade(const std::string& path);
// Atomic; binary weight blocks unless form is WeightsForm::Json (util/BinarySection.h).
void saveVineCascade(const VineCascade& c, const std::string& path,
                     WeightsForm form = WeightsForm::Binary);

void appendCascadeStages(DepPipeline& p, const VineCascade& c, std::span<const double> alphas);
StageMarginals cascadeStageMarginals(const VineCascade& c, std::size_t stage, const DepSentence& s,
                                     const ArcMask& incoming);
ArcPruningStage lengthVineStage(int band);

} // namespace prunescope
