// The online-learning driver (OnlineLearning.h).
#include "core/dep/OnlineLearning.h"

#include "core/util/Clock.h"
#include "core/util/Random.h"

#include <stdexcept>

namespace prunescope {

TrainingSentences usableTrainingSentences(const std::vector<DepSentence>& train, int maxLength,
                                          const std::string& what) {
    if (train.empty()) throw std::invalid_argument(what + ": no training sentences");
    TrainingSentences out;
    for (int i = 0; i < static_cast<int>(train.size()); ++i) {
        const auto& s = train[static_cast<std::size_t>(i)];
        if (!s.hasTree())
            throw std::invalid_argument(what + ": sentence at " + s.file + ":" +
                                        std::to_string(s.line) + " has no tree");
        if (maxLength > 0 && s.size() > maxLength) continue;
        out.indices.push_back(i);
        out.singleRoot = out.singleRoot && rootCount(s.heads) == 1;
        out.nonProjective += !isProjective(s.heads);
    }
    if (out.indices.empty())
        throw std::invalid_argument(what +
                                    ": every training sentence is longer than the length limit (" +
                                    std::to_string(maxLength) + " words)");
    return out;
}

bool runOnlineEpochs(const std::vector<int>& sentences, int epochs, std::uint64_t seed,
                     AveragedWeights& w, const Progress& progress, const OnlineEpochHooks& hooks) {
    for (int epoch = 1; epoch <= epochs; ++epoch) {
        const double t0 = threadCpuSeconds();
        std::vector<int> order = sentences;
        SplitMix64 rng(seed, static_cast<std::uint64_t>(epoch));
        shuffleInPlace(order, rng);
        progress.setStep(epoch, epochs); // as users count epochs (core/util/Progress.h)
        progress.begin("training", static_cast<long>(order.size()));
        if (hooks.begin) hooks.begin(epoch);
        for (const int idx : order) {
            if (progress.cancelled()) return false;
            hooks.visit(idx);
            w.tick();
            progress.advance();
        }
        if (progress.cancelled()) return false;
        if (!hooks.endEpoch(epoch, t0)) break;
    }
    return true;
}

} // namespace prunescope
