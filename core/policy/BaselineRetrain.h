#pragma once
// Retraining one point of a baseline frontier from its recorded settings (Vieira & Eisner 2017,
// sec. 7 ¬: one asymmetrically weighted logistic-regression policy per positive-class weight): a
// frontier.json point written without its policy file can be made loadable again. The settings
// come from the file: the point's training {positiveWeight, l2}, the run's info.train {treebank,
// maxLength, firstTrees}, its evaluation {treebank, maxLength} and grammar. The recorded sweep
// warm-started each weight from the previous one's solution; a retrain starts from zero, so on
// this convex objective it reaches the same optimum up to L-BFGS's tolerance, not bit for bit.
#include "core/frontier/FrontierFile.h"
#include "core/policy/Policy.h"
#include "core/util/Progress.h"

#include <string>

#include <nlohmann/json.hpp>

namespace prunescope {

struct BaselineRetrainSettings {
    std::string pointId;
    std::string grammar, train, dev; // resolved paths (see resolveRecordedPath)
    double positiveWeight = 0, l2 = 0;
    int maxTrainLength = 40, maxDevLength = 40, trainSentences = 0; // 0 = all
    std::string why; // non-empty: what is not recorded or not found
    bool ok() const { return why.empty(); }
};

// A path recorded in a frontier file: as given if absolute and existing; else its last two
// components under dataDir ("ptb-sample/train"), when dataDir is given and holds them; else
// relative to the frontier's directory or one of its ancestors (files written from a repository
// root); else relative to the working directory. "" if none exists.
std::string resolveRecordedPath(const std::string& recorded, const std::string& frontierPath,
                                const std::string& dataDir = std::string());

// The settings of point `pointId` of the frontier at frontierPath (d = its contents).
BaselineRetrainSettings baselineRetrainSettings(const FrontierData& d,
                                                const std::string& frontierPath,
                                                const std::string& pointId,
                                                const std::string& dataDir = std::string());

// The equivalent command line: `prunescope-cli baseline ... --weights W --l2 L --out OUT`, which
// writes OUT/<pointId>.json (and a one-point frontier.json).
std::string baselineRetrainCommand(const BaselineRetrainSettings& s, const std::string& outDir);

struct RetrainedPoint {
    Policy policy;             // meta.name = the point's id, meta.training = weight and l2
    nlohmann::json devMetrics; // CorpusResult::summaryJson() on the recorded dev data
};

// Trains the point as runBaseline does with that single weight and l2 (throws InputError if the
// settings are not ok). Progress as runBaseline's; a cancel throws Cancelled.
RetrainedPoint retrainBaselinePoint(const BaselineRetrainSettings& s,
                                    const Progress& progress = {});

} // namespace prunescope
