// Evaluation sets of frontier points (Vieira & Eisner 2017, sec. 7): see EvaluationSet.h.
#include "core/frontier/EvaluationSet.h"

#include <algorithm>
#include <filesystem>

namespace prunescope {

using nlohmann::json;

namespace {

// The last two components of a lexically normalized path ("ptb-sample/dev").
std::string treebankTail(const std::string& path) {
    std::filesystem::path p = std::filesystem::path(path).lexically_normal();
    if (!p.has_filename()) p = p.parent_path(); // "a/dev/" -> "a/dev"
    const std::filesystem::path parent = p.parent_path().filename();
    const std::string last = p.filename().string();
    const std::string up = parent.string();
    return up.empty() || up == ".." || up == "." ? last : up + "/" + last;
}

void readInto(EvaluationSet& s, const json& e) {
    if (!e.is_object()) return;
    if (auto it = e.find("treebank");
        it != e.end() && it->is_string() && !it->get<std::string>().empty())
        s.treebank = it->get<std::string>();
    if (auto it = e.find("split"); it != e.end() && it->is_string())
        s.split = it->get<std::string>();
    if (auto it = e.find("maxLength");
        it != e.end() && it->is_number_integer() && it->get<long long>() >= 0)
        s.maxLength = static_cast<int>(it->get<long long>());
    if (auto it = e.find("sentences");
        it != e.end() && it->is_number_integer() && it->get<long long>() > 0)
        s.sentences = static_cast<int>(it->get<long long>());
}

void sentencesFromMetrics(EvaluationSet& s, const json& metrics) {
    if (s.sentences > 0 || !metrics.is_object()) return;
    if (auto it = metrics.find("sentences");
        it != metrics.end() && it->is_number_integer() && it->get<long long>() > 0)
        s.sentences = static_cast<int>(it->get<long long>());
}

} // namespace

std::string EvaluationSet::key() const {
    if (!known()) return "unknown";
    return treebankTail(treebank) + ":" +
           (maxLength > 0 ? std::to_string(maxLength) : std::string("all")) + ":" +
           (sentences > 0 ? std::to_string(sentences) : std::string("?"));
}

std::string EvaluationSet::label() const {
    if (!known()) return "unknown evaluation set";
    std::string s = treebankTail(treebank);
    s += maxLength > 0 ? ", <= " + std::to_string(maxLength) + " words"
                       : std::string(", every length");
    s += sentences > 0 ? ", " + std::to_string(sentences) + " sentences"
                       : std::string(", sentence count not recorded");
    return s;
}

json EvaluationSet::toJson() const {
    json j = json::object();
    if (!treebank.empty()) j["treebank"] = treebank;
    if (!split.empty()) j["split"] = split;
    j["maxLength"] = maxLength;
    if (sentences > 0) j["sentences"] = sentences;
    return j;
}

EvaluationSet evaluationSetFromJson(const json& evaluation, const json& metrics) {
    EvaluationSet s;
    readInto(s, evaluation);
    sentencesFromMetrics(s, metrics);
    return s;
}

EvaluationSet frontierEntryEvaluationSet(const FrontierData& d, const FrontierEntry& e) {
    EvaluationSet s;
    readInto(s, d.evaluation);
    sentencesFromMetrics(s, e.metrics);
    return s;
}

EvaluationSet frontierUnprunedEvaluationSet(const FrontierData& d) {
    return evaluationSetFromJson(d.evaluation, d.unpruned);
}

EvaluationSet lolsDevEvaluationSet(const json& runConfig, int sentences) {
    EvaluationSet s;
    s.split = "dev";
    if (auto it = runConfig.find("dev"); it != runConfig.end() && it->is_string())
        s.treebank = it->get<std::string>();
    s.maxLength = 40; // LolsRun's default when config.json does not say
    if (auto it = runConfig.find("maxLength"); it != runConfig.end() && it->is_number_integer())
        s.maxLength = std::max(0, it->get<int>());
    s.sentences = std::max(0, sentences);
    return s;
}

std::vector<EvaluationSetCount> countEvaluationSets(std::span<const EvaluationSet> sets) {
    std::vector<EvaluationSetCount> out;
    for (const EvaluationSet& s : sets) {
        const std::string k = s.key();
        auto it = std::find_if(out.begin(), out.end(),
                               [&](const EvaluationSetCount& c) { return c.set.key() == k; });
        if (it == out.end())
            out.push_back({s, 1});
        else
            ++it->points;
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.points > b.points; });
    return out;
}

} // namespace prunescope
