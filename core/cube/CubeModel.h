#pragma once
// A trained cube-pruning model (Zhang et al. 2013): hashed weights over arc, sibling and
// grandparent features, the beam it was trained with, its file format (JSON "prunescope-cube-model"
// version 1, schema in docs/file-formats.md "Cube-pruning model") and decoding with it.
#include "core/cube/CubePruner.h"
#include "core/dep/DepCorpus.h"
#include "core/dep/HashedWeights.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace prunescope {

inline constexpr const char* kCubeModelFormat = "prunescope-cube-model";
inline constexpr const char* kCubeFeatureTemplates =
    "dep-v1"; // core/dep/ArcFeatures.cpp's templates

struct CubeModel {
    CubeFeatureSet features; // which higher-order parts are scored
    bool singleRoot = true;  // the root takes exactly one modifier
    int beam = 16;           // k used in training (the default for parsing)
    HashedWeights weights;
    nlohmann::json training =
        nlohmann::json::object(); // how it was made (strategy, epochs, curves, data)
};

// The header, with the weights inline (JSON arrays) or, given bin, as a binary block.
nlohmann::json cubeModelToJson(const CubeModel& m, BinarySectionWriter* bin = nullptr);
// Validates the whole document; throws InputError(file, line, column, ...) at the bad value.
CubeModel cubeModelFromText(std::string text, const std::string& file = "<model>");
// Atomic; binary weight blocks unless form is WeightsForm::Json (util/BinarySection.h).
void saveCubeModel(const CubeModel& m, const std::string& path,
                   WeightsForm form = WeightsForm::Binary);
CubeModel loadCubeModel(const std::string& path); // cubeModelFromText of the file

// Parses one sentence with the model under the mask (nullptr = all arcs); pruner's options decide
// k. A sentence the pruner cannot fit (CubePruner::fits: empty, too long for the memory budget at
// this k) throws InputError naming the sentence's file and line.
CubeParse cubeParse(const CubeModel& model, const DepSentence& s, const ArcMask* mask,
                    CubePruner& pruner);

// A corpus decoder (DepCorpus.h) at beam k, holding its own copy of the model; masks (optional)
// restricts each sentence's arcs — if no tree exists under the mask the sentence is re-parsed with
// every arc (counted as a fallback).
using ArcMaskSource = std::function<ArcMask(const DepSentence&)>;
DepDecoder cubeDecoder(const CubeModel& model, int beam, ArcMaskSource masks = {});

} // namespace prunescope
