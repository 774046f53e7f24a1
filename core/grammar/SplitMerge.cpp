// Split-merge training (Petrov et al. 2006, sec. 2-3): N cycles of split, EM, merge, EM, each
// checkpointed atomically so a killed run resumes; see SplitMerge.h.
#include "core/grammar/SplitMerge.h"

#include "core/grammar/GrammarFile.h"
#include "core/grammar/LatentInsideOutside.h"
#include "core/util/AtomicFile.h"
#include "core/util/Clock.h"

#include <filesystem>
#include <stdexcept>

namespace prunescope {

using namespace latent;

namespace {

struct Stats {
    std::size_t binary = 0, unary = 0, lexical = 0;
};
Stats refinedRuleCounts(const LatentGrammar& g) {
    Stats s;
    for (const auto& r : g.binary)
        s.binary += blockSize(g, r);
    for (const auto& r : g.unary)
        s.unary += blockSize(g, r);
    for (const auto& r : g.lexical)
        s.lexical += static_cast<std::size_t>(g.subs[r.tag]);
    return s;
}

nlohmann::json settingsJson(const SplitMergeOptions& opt, std::size_t trainTrees, bool heldOut,
                            std::size_t devTrees) {
    return {{"seed", opt.seed},
            {"perturbation", opt.perturbation},
            {"mergeFraction", opt.mergeFraction},
            {"smoothing", {opt.smoothing.phrasal, opt.smoothing.lexical}},
            {"splitIterations", opt.splitIterations},
            {"mergeIterations", opt.mergeIterations},
            {"patience", opt.patience},
            {"trainTrees", trainTrees},
            {"heldOut", heldOut},
            {"devTrees", devTrees}};
}

} // namespace

Grammar trainSplitMerge(const std::vector<Tree>& train, const std::vector<Tree>& dev,
                        const SplitMergeOptions& opt, const Progress& progress,
                        SplitMergeReport* report) {
    if (opt.cycles < 0 || opt.cycles > 8)
        throw std::invalid_argument("split-merge cycles must be in 0..8, not " +
                                    std::to_string(opt.cycles));
    std::vector<Tree> trainPart, devPart;
    const bool heldOut = dev.empty();
    if (heldOut) {
        for (std::size_t i = 0; i < train.size(); ++i)
            (i % 20 == 19 ? devPart : trainPart).push_back(train[i]);
    } else {
        trainPart = train;
        devPart = dev;
    }
    SplitMergeReport rep;
    rep.heldOut = heldOut;
    const Grammar base = estimatePcfgFromNormalized(trainPart, opt.grammar);
    LatentGrammar g = latentFromBase(base);
    const LatentTrees trainTrees = compileLatentTrees(base, g, trainPart);
    if (trainTrees.skipped != 0)
        throw std::logic_error("a training tree does not fit the grammar estimated from it");
    const LatentTrees devTrees = compileLatentTrees(base, g, devPart);
    rep.trainTrees = trainTrees.trees.size();
    rep.devTrees = devTrees.trees.size();
    rep.devSkipped = devTrees.skipped;
    const nlohmann::json settings = settingsJson(opt, trainPart.size(), heldOut, devPart.size());
    auto extra = [&](int cycle) {
        return nlohmann::json{{"splitMerge", {{"cycle", cycle}, {"settings", settings}}}};
    };

    int start = 0;
    if (!opt.checkpointPrefix.empty()) {
        for (int k = opt.cycles; k >= 1 && start == 0; --k) {
            const std::string path = opt.checkpointPrefix + ".sm" + std::to_string(k);
            if (!std::filesystem::exists(path)) continue;
            const Grammar fine = loadGrammar(path);
            const auto& o = fine.options;
            if (!o.contains("splitMerge") || o["splitMerge"].value("cycle", -1) != k ||
                o["splitMerge"]["settings"] != settings ||
                o["binarize"] != base.options["binarize"] ||
                o["rareWordThreshold"] != base.options["rareWordThreshold"])
                continue; // another run's checkpoint: not resumed, overwritten later
            g = latentFromFine(g, fine);
            start = k;
            for (int c = 1; c <= k; ++c) {
                SplitMergeCycle sc;
                sc.cycle = c;
                sc.resumed = true;
                rep.cycles.push_back(sc);
            }
            progress.log("resuming after cycle " + std::to_string(k) + " from " + path);
        }
    }

    // EM from g for at most maxIterations; g becomes the iterate (>= 1) of best held-out
    // likelihood, and EM stops once `patience` iterations in a row have not improved on it.
    // Returns that iterate's number.
    auto runEm = [&](int maxIterations, int cycle, const char* what, SplitMergeCycle& sc) {
        if (maxIterations <= 0) return 0;
        double bestDev = kNegInf;
        int bestIt = 0;
        LatentGrammar best;
        for (int it = 1; it <= maxIterations && it - bestIt <= opt.patience; ++it) {
            progress.begin(std::string("split-merge EM (") + what + ")",
                           chunkCount(trainTrees.trees.size()));
            progress.setStep(cycle, opt.cycles);
            EmStep step = emIteration(g, trainTrees, opt.smoothing, opt.threads, progress);
            const double devLl = latentLogLikelihood(step.next, devTrees, opt.threads);
            if (bestIt == 0 || devLl > bestDev) {
                bestDev = devLl;
                bestIt = it;
                best = step.next;
            }
            g = std::move(step.next);
        }
        g = std::move(best);
        sc.devLogLikelihood = bestDev;
        return bestIt;
    };

    for (int cycle = start + 1; cycle <= opt.cycles; ++cycle) {
        const double t0 = wallSeconds();
        SplitMergeCycle sc;
        sc.cycle = cycle;
        g = splitLatent(g, opt.perturbation,
                        opt.seed * 1000003ull + static_cast<std::uint64_t>(cycle));
        sc.splitIterations = runEm(opt.splitIterations, cycle, "split", sc);
        progress.begin("merge", 0); // three passes over the trees, seconds; not itemized
        g = mergeLatent(g, trainTrees, opt.mergeFraction, opt.threads, &sc.merged);
        progress.throwIfCancelled();
        sc.mergeIterations = runEm(opt.mergeIterations, cycle, "merge", sc);
        sc.trainLogLikelihood = latentLogLikelihood(g, trainTrees, opt.threads);
        const Stats st = refinedRuleCounts(g);
        sc.refinedSymbols = g.refinedSymbols();
        sc.binaryRules = st.binary;
        sc.unaryRules = st.unary;
        sc.lexicalEntries = st.lexical;
        if (!opt.checkpointPrefix.empty())
            saveGrammar(fineGrammar(g, extra(cycle)),
                        opt.checkpointPrefix + ".sm" + std::to_string(cycle));
        sc.seconds = wallSeconds() - t0;
        progress.log("cycle " + std::to_string(cycle) + ": " + std::to_string(sc.refinedSymbols) +
                     " refined symbols, train log likelihood " +
                     std::to_string(sc.trainLogLikelihood) + ", dev " +
                     std::to_string(sc.devLogLikelihood) + ", " + std::to_string(sc.seconds) +
                     " s");
        rep.cycles.push_back(sc);
    }
    if (report) *report = rep;
    // SM-0 is the X-bar grammar itself, from every training tree (what `grammar --markov 0` gives).
    if (opt.cycles == 0) return estimatePcfgFromNormalized(train, opt.grammar);
    return fineGrammar(g, extra(opt.cycles));
}

} // namespace prunescope
