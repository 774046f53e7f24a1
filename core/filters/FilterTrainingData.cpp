// Filter training data (Cherry & Bergsma 2011, sec. 2-3).
#include "core/filters/FilterTrainingData.h"

#include "core/filters/FilterFeatures.h"

#include <stdexcept>

namespace prunescope {

FilterTrainingData prepareFilterTraining(const std::vector<DepSentence>& treebank,
                                         const Progress& progress) {
    FilterTrainingData d;
    progress.begin("features", static_cast<long>(treebank.size()));
    for (const DepSentence& s : treebank) {
        progress.throwIfCancelled();
        if (!s.hasTree())
            throw std::invalid_argument(
                "filter training: a sentence without a complete gold tree (" + s.file + ")");
        FilterTrainingSentence t;
        t.n = s.size();
        t.heads = s.heads;
        const SentenceAtoms atoms(s);
        t.keyStart.assign(static_cast<std::size_t>(t.n) + 2, 0);
        for (int p = 1; p <= t.n; ++p) {
            tokenFeatureKeys(atoms, p, t.tokenKeys);
            t.keyStart[static_cast<std::size_t>(p) + 1] =
                static_cast<std::uint32_t>(t.tokenKeys.size());
        }
        const auto N = static_cast<std::size_t>(t.n + 1);
        t.vinePair.assign(N * N, 0);
        t.nonePair.assign(N * N, 0);
        for (int h = 0; h <= t.n; ++h)
            for (int m = 1; m <= t.n; ++m) {
                if (h == m) continue;
                const ArcLengthFeatures v = arcLengthFeatures(atoms, h, m, FilterEventKind::Vine);
                const ArcLengthFeatures z = arcLengthFeatures(atoms, h, m, FilterEventKind::None);
                t.vinePair[t.arc(h, m)] = v.pairKey;
                t.nonePair[t.arc(h, m)] = z.pairKey;
                d.vineBias = v.biasKey;
                d.noneBias = z.biasKey;
            }
        t.roles = tokenRoleEvents(s.heads);
        d.arcs += static_cast<long>(t.n) * t.n;
        d.goldArcs += t.n;
        d.tokens += t.n;
        d.sentences.push_back(std::move(t));
        progress.advance();
    }
    return d;
}

} // namespace prunescope
