// prunescope-cli filter-train: an arc filter (Cherry & Bergsma 2011), independent token-role SVMs
// or the joint latent SVM, with its operating point chosen on dev (docs/filters.md).
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/filter/FilterJson.h"
#include "core/dep/DepReader.h"
#include "core/filters/ArcFilterFile.h"
#include "core/filters/FilterEval.h"
#include "core/filters/IndependentTraining.h"
#include "core/filters/LatentSvmTraining.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"

#include <chrono>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

namespace prunescope::cli {

namespace {

struct FilterTrainOptions {
    std::string kind = "joint", train, dev, out, init;
    double coverage = 0.995;
    int maxLen = 0;
    bool noVine = false, noNone = false, noRoot = false, quiet = false;
    IndependentFilterOptions ind;
    JointFilterOptions joint;
};

void declareFilterTrainOptions(CLI::App* sub, FilterTrainOptions& o) {
    sub->add_option("--kind", o.kind,
                    "independent (Bergsma & Cherry 2010 SVMs) or joint (latent SVM)")
        ->check(CLI::IsMember({"independent", "joint"}))
        ->capture_default_str();
    sub->add_option("--train", o.train, "Training treebank (file or directory)")->required();
    sub->add_option("--dev", o.dev, "Dev treebank: chooses the operating point")->required();
    sub->add_option("--out", o.out,
                    "Filter file to write (JSON, atomic; a cancelled joint run saves its finished "
                    "alternations with threshold inf)")
        ->required();
    sub->add_option("--coverage", o.coverage, "Coverage target of the operating point on dev")
        ->check(CLI::Range(0.5, 1.0))
        ->capture_default_str();
    sub->add_option("--hash-bits", o.ind.hashBits, "Weight table size 2^bits")
        ->check(CLI::Range(10, 24))
        ->capture_default_str();
    sub->add_option("--c-pos", o.ind.cPos, "Independent role SVMs: cost of a missed role")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--c-neg", o.ind.cNeg, "Independent role SVMs: cost of a false role")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--vine-c-pos", o.ind.vineCPos, "Independent Vine SVM: cost of a missed filter")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--vine-c-neg", o.ind.vineCNeg,
                    "Independent Vine SVM: cost of filtering a gold arc")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--c0", o.joint.c0, "Joint: C_0, cost of a gold arc (eq. 2)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--c1", o.joint.c1, "Joint: C_1, cost of a non-gold arc (eq. 2)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--alternations", o.joint.maxAlternations,
                    "Joint: most latent-SVM alternations")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    sub->add_option("--solver-iterations", o.joint.solverIterations,
                    "Joint: L-BFGS iterations per convex step")
        ->check(CLI::Range(1, 10000))
        ->capture_default_str();
    sub->add_option("--init", o.init,
                    "Joint: start from this independent filter's token-role SVMs (same data and "
                    "options) instead of training them again");
    sub->add_flag("--no-vine", o.noVine, "Without the Vine event");
    sub->add_flag("--no-none", o.noNone,
                  "Joint without the None event's features (threshold fixed)");
    sub->add_flag("--no-root", o.noRoot, "Without the Root role");
    sub->add_option("--max-len", o.maxLen, "Skip training sentences longer than this (0 = none)")
        ->capture_default_str();
    sub->add_flag("--quiet", o.quiet, "No progress on stderr");
}

// Chooses the operating point on dev and records it in the filter.
void chooseOperatingPoint(ArcFilter& f, const std::vector<DepSentence>& dev, double coverage,
                          const Progress& progress) {
    const FilterMargins m = collectMargins(f, dev, progress);
    if (m.cancelled) throw Cancelled();
    f.threshold = thresholdForCoverage(m, coverage);
    const FilterCounts c = countsAt(m, f.threshold);
    f.training["operatingPoint"] = {{"targetCoverage", coverage},
                                    {"threshold", thresholdJson(f.threshold)},
                                    {"devCoverage", c.coverage()},
                                    {"devReduction", c.reduction()},
                                    {"devSentences", dev.size()}};
    f.training["devCurve"] = curveJson(coverageCurve(m));
}

// The joint filter's start, as in the paper: token-role subclassifiers trained independently (or
// --init's), Vine and None at 0.
ArcFilter jointStart(const FilterTrainOptions& o, const FilterTrainingData& data,
                     const Progress& progress) {
    IndependentFilterOptions init = o.ind;
    init.useVine = false;
    if (o.init.empty()) return trainIndependentFilter(data, init, progress);
    ArcFilter start = loadArcFilter(o.init);
    if (start.kind != ArcFilterKind::Independent || start.hashBits != o.ind.hashBits)
        throw InputError(o.init, 0, 0,
                         "--init needs an independent filter with --hash-bits " +
                             std::to_string(o.ind.hashBits));
    // Vine starts at 0 (sec. 4): clear its buckets (bias and every training tag pair); a role
    // weight sharing a bucket with them is cleared too (hash collisions, rare).
    start.weights[featureBucket(data.vineBias, start.hashBits)] = 0.0f;
    for (const auto& s : data.sentences)
        for (const std::uint64_t k : s.vinePair)
            start.weights[featureBucket(k, start.hashBits)] = 0.0f;
    start.useVine = false;
    start.training["initFrom"] = o.init;
    return start;
}

// The latent SVM's alternations from jointStart. A cancelled run saves its finished alternations
// (threshold inf: the operating point needs dev, which a cancel skips) and throws Cancelled.
ArcFilter trainJoint(const FilterTrainOptions& o, const FilterTrainingData& data,
                     const Progress& progress) {
    const ArcFilter start = jointStart(o, data, progress);
    JointFilterOptions joint = o.joint;
    joint.hashBits = o.ind.hashBits;
    joint.useRoot = !o.noRoot;
    joint.useVine = !o.noVine;
    joint.useNone = !o.noNone;
    auto each = [&](const JointTrainResult& r) {
        const auto& a = r.alternations.back();
        std::ostringstream line;
        line << "alternation " << a.alternation << ": objective " << std::setprecision(6)
             << a.objectiveBefore << " -> " << a.objectiveAfter << ", latent events changed "
             << a.changed << "/" << a.latent << ", " << std::fixed << std::setprecision(1)
             << a.seconds << " s";
        progress.log(line.str());
    };
    JointTrainResult r = trainJointFilter(data, &start, joint, progress, each);
    if (r.alternations.empty()) throw Cancelled();
    ArcFilter f = r.filter;
    f.training["initialization"] = start.training;
    if (r.cancelled) {
        f.threshold = std::numeric_limits<double>::infinity();
        saveArcFilter(f, o.out);
        throw Cancelled();
    }
    return f;
}

int runFilterTrain(FilterTrainOptions o) {
    refuseToOverwriteInput(o.out, {o.train, o.dev});
    const auto train = readDepTreebank(o.train, o.maxLen);
    const auto dev = readDepTreebank(o.dev);
    ConsoleProgress console("filter-train", "alternation", o.quiet);
    const Progress& progress = console.progress();
    const auto t0 = std::chrono::steady_clock::now();
    const FilterTrainingData data = prepareFilterTraining(train, progress);
    o.ind.useRoot = !o.noRoot;
    o.ind.useVine = !o.noVine;
    ArcFilter f = o.kind == "independent" ? trainIndependentFilter(data, o.ind, progress)
                                          : trainJoint(o, data, progress);
    f.training["trainData"] = o.train;
    f.training["devData"] = o.dev;
    f.training["trainSentences"] = train.size();
    f.training["seconds"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    chooseOperatingPoint(f, dev, o.coverage, progress);
    saveArcFilter(f, o.out);
    const auto& op = f.training["operatingPoint"];
    std::cout << "wrote " << o.out << ": " << arcFilterKindName(f.kind) << " filter, threshold "
              << op["threshold"].dump() << ", dev coverage " << std::fixed << std::setprecision(4)
              << op["devCoverage"].get<double>() << ", dev reduction "
              << op["devReduction"].get<double>() << "\n";
    return 0;
}

} // namespace

void addFilterTrainCommand(CLI::App& app) {
    addCommand<FilterTrainOptions>(
        app, "filter-train",
        "Train an arc filter (Cherry & Bergsma 2011): independent token-role SVMs "
        "or the joint latent SVM; operating point chosen on dev",
        declareFilterTrainOptions, runFilterTrain);
}

} // namespace prunescope::cli
