#pragma once
// The data a frontier point was measured on (Vieira & Eisner 2017, sec. 7: policies are compared
// by accuracy - lambda * runtime on one evaluation set). Points of different sets are not
// comparable: a LOLS iteration scored on 20 dev sentences of <= 20 words must not beat a baseline
// scored on 300 sentences of <= 40 words. Old files: docs/file-formats.md "Evaluation sets".
#include "core/frontier/FrontierFile.h"

#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope {

struct EvaluationSet {
    std::string treebank; // as recorded (file or directory); "" = not recorded
    std::string split;    // "dev", "test", ... ("" = not recorded); shown, not compared
    int maxLength = 0;    // longest sentence evaluated, in words; 0 = every length
    int sentences = 0;    // sentences evaluated; 0 = not recorded

    bool known() const { return !treebank.empty(); }
    // Identity of the set: the treebank's last two path components (paths are recorded relative
    // to wherever the writing program ran), the length limit and the sentence count, e.g.
    // "ptb-sample/dev:40:300"; "all" for no limit, "?" for an unrecorded count; "unknown" when
    // the treebank is not recorded. Two points are comparable iff their keys are equal.
    std::string key() const;
    // For people: "ptb-sample/dev, <= 40 words, 300 sentences" or "unknown evaluation set".
    std::string label() const;
    nlohmann::json toJson() const; // {"treebank", "split", "maxLength", "sentences"} (known fields)
};

// From an "evaluation" object ({"treebank", "split", "maxLength", "sentences"}, any subset; wrong
// types count as absent) with the sentence count falling back to metrics["sentences"].
EvaluationSet evaluationSetFromJson(const nlohmann::json& evaluation,
                                    const nlohmann::json& metrics = {});

// A frontier.json point's set: the file's "evaluation" (every point of one file is evaluated on
// the same data), with the sentence count from the point's metrics when the file does not record
// it.
EvaluationSet frontierEntryEvaluationSet(const FrontierData& d, const FrontierEntry& e);
EvaluationSet frontierUnprunedEvaluationSet(const FrontierData& d);
// A LOLS run's dev evaluation: config.json's "dev" and "maxLength", and the sentences the
// iteration's dev evaluation counted (LolsIterationRecord::dev.sentences).
EvaluationSet lolsDevEvaluationSet(const nlohmann::json& runConfig, int sentences);

struct EvaluationSetCount {
    EvaluationSet set;
    int points = 0;
};
// The distinct sets (by key) with how many of `sets` each holds, most points first (ties: first
// seen).
std::vector<EvaluationSetCount> countEvaluationSets(std::span<const EvaluationSet> sets);

} // namespace prunescope
