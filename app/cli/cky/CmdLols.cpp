// prunescope-cli lols | regret | compare: LOLS training into a run directory (paper sec. 4, 7),
// the regret analysis of sec. 7.3, and the held-out baseline-vs-LOLS comparison of Fig. 3.
#include "app/cli/CommandLineGuard.h"
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "core/eval/CorpusEvaluator.h"
#include "core/eval/PermutationTest.h"
#include "core/grammar/GrammarFile.h"
#include "core/lols/LolsRun.h"
#include "core/lols/Regret.h"
#include "core/lols/RunConfig.h"
#include "core/lols/RunDirectory.h"
#include "core/lols/SurrogateLambda.h"
#include "core/parse/Chart.h"
#include "core/policy/PolicyMask.h"
#include "core/rollout/ChangePropagator.h"
#include "core/treebank/Normalize.h"
#include "core/util/AtomicFile.h"
#include "core/util/Parallel.h"
#if PRUNESCOPE_WITH_MPI
#include "core/lols_mpi/MpiRollouts.h"
#endif

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <optional>

namespace prunescope::cli {

namespace {

std::vector<LolsSentence> firstN(std::vector<LolsSentence> s, int limit) {
    if (limit > 0 && static_cast<int>(s.size()) > limit) s.resize(static_cast<std::size_t>(limit));
    return s;
}

struct LolsOpts {
    LolsRunSpec spec; // what to train (core/lols/LolsRun.h)
    std::string out, resume;
    int iterations = -1, threads = 0;
    bool quiet = false;
};

void printRecord(const LolsIterationRecord& r) {
    std::cout << std::fixed << std::setprecision(5) << "iter " << std::setw(3) << r.iteration
              << "  train(roll-in) " << std::setw(9) << r.trainRollInReward << "  dev reward "
              << std::setw(9) << r.dev.reward << "  dev acc " << r.dev.accuracy
              << std::setprecision(1) << "  runtime " << r.dev.runtime << "  F1 "
              << std::setprecision(2) << r.dev.f1 << std::setprecision(4) << "  mpush "
              << r.dev.mpush << "  states " << r.datasetStates << std::setprecision(1) << "  "
              << r.seconds << "s" << (r.best ? "  *best*" : "") << "\n"
              << std::flush;
}

// The run directory of `lols` and its inputs: created from the flags (the inputs are read and
// checked first, so bad input leaves no directory behind), or reopened by --resume (a new
// --iterations total is written into its config.json).
struct OpenedRun {
    RunDirectory rd;
    LolsRunInputs in;
};
OpenedRun openRun(LolsOpts o, const Progress& progress) {
    if (!o.resume.empty()) {
        RunDirectory rd = RunDirectory::open(o.resume);
        nlohmann::json config = rd.config();
        if (o.iterations >= 0 && o.iterations != config["lols"]["iterations"].get<int>()) {
            config["lols"]["iterations"] = o.iterations; // extend (or shorten) the run
            rd.writeConfig(config);
        }
        LolsRunInputs in = loadLolsRunInputs(rd.config(), progress);
        return {std::move(rd), std::move(in)};
    }
    const LolsRunSpec& s = o.spec;
    if (o.out.empty() || s.grammar.empty() || s.init.empty() || s.train.empty() || s.dev.empty())
        throw UsageError(
            "lols needs --grammar, --init, --train, --dev and --out (or --resume RUNDIR)");
    o.spec.lols.iterations = o.iterations >= 0 ? o.iterations : 10;
    const nlohmann::json config = newLolsRunConfig(o.spec);
    LolsRunInputs in = loadLolsRunInputs(config, progress);
    return {RunDirectory::create(o.out, config), std::move(in)};
}

// Trains (core's runLols, the driver the GUI's training queue calls too) and reports.
int runAndReport(RunDirectory& rd, const LolsRunInputs& in, const LolsOpts& o, LolsRunOptions opt,
                 ConsoleProgress& console) {
    if (!o.quiet) opt.onCommit = [](const LolsState& st) { printRecord(st.log.back()); };
    const LolsRunResult r = runLols(rd, in, opt, console.progress());
    if (r.cancelled) {
        std::cerr << "lols: cancelled; "
                  << (r.state.log.empty()
                          ? std::string("no iteration was committed")
                          : "iterations up to " + std::to_string(r.state.iteration) + " are kept")
                  << " in " << rd.path() << " (continue with --resume)\n";
        return 130;
    }
    std::cout << "best iteration " << r.state.bestIteration << " (dev reward "
              << std::setprecision(6) << r.state.bestDevReward << "): " << rd.bestPath() << "\n";
    return 0;
}

#if PRUNESCOPE_WITH_MPI
// `mpirun -n N prunescope-cli lols ...` (core/lols_mpi/MpiRollouts.h): rank 0 owns the run
// directory and trains; ranks > 0 roll out their share of each minibatch and write nothing.
int trainLolsOnRanks(const LolsOpts& o) {
    MpiWorld world;
    const int threads =
        o.threads > 0 ? o.threads : std::max(1, defaultThreads(0) / std::max(1, world.localSize()));
    if (world.rank() != 0) {
        const std::string text = broadcastRunConfig({});
        if (text.empty()) return 1; // rank 0 could not open the run and says why
        try {
            const nlohmann::json config = nlohmann::json::parse(text);
            const LolsRunInputs in = loadLolsRunInputs(config);
            LolsConfig cfg = LolsConfig::fromJson(config.at("lols"));
            cfg.threads = threads;
            const LolsTrainer trainer(in.grammar, in.train, {}, cfg);
            serveRollouts(trainer);
        } catch (const std::exception& e) {
            std::cerr << "error: rank " << world.rank() << ": " << e.what() << "\n";
            MpiWorld::abort(1);
        }
        return 0;
    }
    // Rank 0 opens the run and reads its inputs before the others start on them, so bad input
    // is reported once, by rank 0, and the other ranks just exit.
    ConsoleProgress console("lols", "iteration", o.quiet);
    std::optional<RunDirectory> rd;
    std::optional<LolsRunInputs> in;
    try {
        OpenedRun opened = openRun(o, console.progress());
        rd = std::move(opened.rd);
        in = std::move(opened.in);
    } catch (...) {
        broadcastRunConfig({});
        throw;
    }
    broadcastRunConfig(rd->config().dump());
    struct StopWorkers { // on every way out of rank 0 (done, cancelled, error between iterations)
        ~StopWorkers() { stopRolloutWorkers(); }
    } stop;
    LolsRunOptions opt;
    opt.threads = threads;
    opt.ranks = world.size();
    opt.distributor =
        mpiRolloutDistributor(console.progress().cancelFlag(), [&](int t, const MpiTraffic& m) {
            console.progress().log("lols: iteration " + std::to_string(t) + " sent " +
                                   std::to_string(m.policyBytes) +
                                   " bytes of policy to each rank, gathered " +
                                   std::to_string(m.rolloutBytes) + " bytes of rollouts");
        });
    return runAndReport(*rd, *in, o, opt, console);
}
#endif

// Processes an MPI launcher started, as far as its environment tells (1 if none).
int launcherProcesses() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"})
        if (const char* x = std::getenv(v)) return std::max(1, std::atoi(x));
    return 1;
}

int trainLols(const LolsOpts& o) {
    if (o.threads < 0) throw std::invalid_argument("--threads must be >= 0 (0 = all cores)");
#if PRUNESCOPE_WITH_MPI
    if (launchedByMpi()) return trainLolsOnRanks(o);
#endif
#if PRUNESCOPE_WITH_MPI
    if (const int n = launcherProcesses(); n > 1) // the launch, not the input: exit 1
        throw std::runtime_error(
            "lols: started as " + std::to_string(n) +
            " processes, but not by an MPI launcher (no PMI/PMIx in the environment: use "
            "mpirun, or srun --mpi=pmix); each copy would train alone");
#else
    if (const int n = launcherProcesses(); n > 1) // the launch, not the input: exit 1
        throw std::runtime_error(
            "lols: started as " + std::to_string(n) +
            " processes by an MPI launcher, but this prunescope-cli was built without MPI "
            "(configure with -DPRUNESCOPE_MPI=ON); each copy would train alone");
#endif
    ConsoleProgress console("lols", "iteration", o.quiet);
    OpenedRun run = openRun(o, console.progress());
    LolsRunOptions opt;
    opt.threads = o.threads;
    return runAndReport(run.rd, run.in, o, opt, console);
}

} // namespace

namespace {
void addLolsTrainCommand(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "lols", "Train a pruning policy with LOLS (Alg. 2) into a run directory");
    auto o = std::make_shared<LolsOpts>();
    auto surrogate = std::make_shared<std::string>("rdp"),
         engine = std::make_shared<std::string>("fast");
    auto noQ0 = std::make_shared<bool>(false);
    LolsRunSpec& s = o->spec;
    sub->add_option("--grammar", s.grammar, "Grammar file");
    sub->add_option("--init", s.init, "Initial (baseline) policy; its Q0 is aggregated too");
    sub->add_option("--lambda", s.lols.lambda,
                    "Reward trade-off in the surrogate's units (required unless the initial "
                    "policy's lambda is in them)")
        ->check(CLI::NonNegativeNumber);
    sub->add_option("--surrogate", *surrogate, "rcp | rdp")->check(CLI::IsMember({"rcp", "rdp"}));
    sub->add_option("--engine", *engine, "fast (CP/DP rollouts) | naive (reparse; for checks)")
        ->check(CLI::IsMember({"fast", "naive"}));
    addCpWorkBudgetOption(sub, s.lols.cpWorkBudget);
    sub->add_option("--train", s.train, "Training treebank (file or directory)");
    sub->add_option("--dev", s.dev, "Development treebank (early stopping)");
    sub->add_option("--iterations", o->iterations,
                    "LOLS iterations (default 10; with --resume: new total)")
        ->check(CLI::Range(0, kMaxLolsIterations));
    sub->add_option("--minibatch", s.lols.minibatch, "Roll-in sentences per iteration")
        ->check(CLI::Range(1, kMaxMinibatch))
        ->capture_default_str();
    sub->add_option("--max-len", s.maxLength,
                    "Use sentences with n <= this"
                    " (default 40: the paper's sentences of at most 40 words)")
        ->check(CLI::Range(1, kMaxSentenceLength))
        ->capture_default_str();
    addMaxTrainSentencesOption(sub, s.trainLimit, {"--train-limit"})->check(CLI::NonNegativeNumber);
    addMaxDevSentencesOption(sub, s.devLimit, {"--dev-limit"})->check(CLI::NonNegativeNumber);
    sub->add_option("--cp-rollouts-per-word", s.lols.cpRolloutsPerWord,
                    "rCP: roll out <= this*n sampled spans (0 = all)")
        ->check(CLI::Range(0, kMaxSentenceLength))
        ->capture_default_str();
    sub->add_option("--train-eval", s.lols.trainEvalSentences,
                    "Also evaluate each policy on the first N train sentences")
        ->check(CLI::NonNegativeNumber);
    sub->add_option("--q0-scale", s.q0Scale, "Multiplier on the baseline dataset Q0's weights")
        ->check(CLI::NonNegativeNumber);
    sub->add_flag("--no-q0", *noQ0, "Do not aggregate the baseline dataset Q0");
    sub->add_option("--seed", s.lols.seed, "Random seed (minibatches, rCP span samples)")
        ->capture_default_str();
    sub->add_option("--lbfgs-gradient-reduction", s.lols.logreg.gradientReduction,
                    "Retraining stops once the gradient norm fell by this factor from the warm "
                    "start (0 = off; "
                    "docs/benchmarks.md)")
        ->check(CLI::Range(0.0, 0.999999));
    sub->add_option("--lbfgs-max-iterations", s.lols.logreg.maxIterations,
                    "Cap on L-BFGS iterations per LOLS iteration's retraining (warm-started from "
                    "the previous "
                    "policy; docs/benchmarks.md)")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    sub->add_option("--lbfgs-max-iterations-after-first", s.lols.lbfgsMaxIterationsAfterFirst,
                    "Cap on L-BFGS iterations in the retraining of iterations 2, 3, ... "
                    "(warm-started from a policy "
                    "trained on nearly the same aggregate; iteration 1 keeps "
                    "--lbfgs-max-iterations; 0 = off; the default was chosen on dev, "
                    "docs/lols.md)")
        ->check(CLI::Range(0, 1000000))
        ->capture_default_str();
    sub->add_option("--threads", o->threads,
                    "Worker threads (0 = all cores; under mpirun: per rank, 0 = cores / ranks on "
                    "the node; results do not depend on it)")
        ->capture_default_str();
    sub->add_option("--out", o->out, "New run directory");
    sub->add_option("--resume", o->resume, "Continue an existing run directory");
    sub->add_flag("--quiet", o->quiet,
                  "Print no line per iteration and no progress (Ctrl-C still cancels)");
    setAction(sub, [o, surrogate, engine, noQ0] {
        // The deprecated spelling sets the same value without the option's own check.
        if (o->spec.trainLimit < 0)
            throw UsageError("--max-train-sentences (--train-limit): must be 0 (all) or more");
        o->spec.lols.surrogate = surrogateFromName(*surrogate);
        o->spec.lols.engine = rolloutEngineFromName(*engine);
        o->spec.q0 = !*noQ0;
        return trainLols(*o);
    });
}

void addRegretCommand(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "regret", "Regret of the gold (baseline) oracle vs the rollout oracle (sec. 7.3, eq. 4)");
    struct Opts {
        std::string grammar, policy, treebank, surrogate = "rcp", engine = "fast", json;
        double lambda = std::numeric_limits<double>::quiet_NaN();
        int maxLen = 40, limit = 0, threads = 0, cpPerWord = 0;
        std::uint64_t seed = 1;
        bool quiet = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--grammar", o->grammar, "Grammar file")->required();
    sub->add_option("--policy", o->policy, "Roll-in policy")->required();
    sub->add_option("--treebank", o->treebank, "Gold treebank (e.g. the train split)")->required();
    sub->add_option("--lambda", o->lambda,
                    "Reward trade-off in the surrogate's units (required unless the policy's "
                    "lambda is in them)");
    sub->add_option("--surrogate", o->surrogate, "rcp | rdp")->check(CLI::IsMember({"rcp", "rdp"}));
    sub->add_option("--engine", o->engine, "fast | naive")->check(CLI::IsMember({"fast", "naive"}));
    sub->add_option(
           "--max-len", o->maxLen,
           "Use sentences with n <= this (default 40: the paper's sentences of at most 40 words)")
        ->capture_default_str();
    addMaxSentencesOption(sub, o->limit, "the treebank", {"--limit"});
    sub->add_option("--cp-rollouts-per-word", o->cpPerWord,
                    "Sample <= this*n states per sentence (0 = all)")
        ->capture_default_str();
    sub->add_option("--seed", o->seed, "Seed for sampled states")->capture_default_str();
    sub->add_option("--threads", o->threads, "Worker threads (0 = all cores)")
        ->capture_default_str();
    addOutJsonOption(sub, o->json, /*jsonTookAFile=*/true);
    addQuietOption(sub, o->quiet);
    setAction(sub, [o] {
        const Grammar g = loadGrammar(o->grammar);
        const Policy p = loadPolicy(o->policy);
        RegretOptions opt;
        opt.surrogate = surrogateFromName(o->surrogate);
        opt.engine = rolloutEngineFromName(o->engine);
        opt.lambda = surrogateLambda(o->lambda, p.meta, opt.surrogate);
        opt.threads = o->threads;
        opt.cpRolloutsPerWord = o->cpPerWord;
        opt.seed = o->seed;
        ConsoleProgress console("regret", "step", o->quiet);
        const auto sentences = firstN(
            lolsSentences(readNormalizedTreebank(o->treebank, 0, console.progress()), o->maxLen),
            o->limit);
        requireSentencesToEvaluate(sentences.size(), o->treebank, o->maxLen);
        const RegretStats r = regretAnalysis(g, sentences, p, opt, console.progress());
        nlohmann::json j = r.toJson();
        j["policy"] = o->policy;
        j["lambda"] = opt.lambda;
        j["surrogate"] = o->surrogate;
        j["eq4"] = r.eq4();
        std::cout << std::setprecision(6);
        if (!printsJsonOnly(o->json))
            for (const char* k :
                 {"sentences", "states", "p(gold)", "p(diff)", "p(gold|diff)", "p(not gold|diff)",
                  "E[regret|diff,gold]", "E[regret|diff,not gold]", "E[regret]", "E[regret|gold]",
                  "E[regret|not gold]"})
                std::cout << std::left << std::setw(26) << k << j[k].dump() << "\n";
        writeJsonOutput(o->json, j.dump(2) + "\n");
        return 0;
    });
}

void addCompareCommand(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "compare", "Held-out comparison of two policies on true reward F1 - lambda*mpush "
                   "with a paired permutation test (paper Fig. 3)");
    struct Opts {
        std::string grammar, treebank, baseline, lols, json;
        double lambda = 0;
        int maxLen = 0, permutations = 10000, threads = 0;
        std::uint64_t seed = 1;
        bool quiet = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--grammar", o->grammar, "Grammar file")->required();
    sub->add_option("--treebank", o->treebank, "Test treebank")->required();
    sub->add_option("--baseline", o->baseline, "Baseline policy (A)")->required();
    sub->add_option("--lols", o->lols, "LOLS policy (B), e.g. RUNDIR/best.json")->required();
    sub->add_option("--lambda", o->lambda, "True-reward lambda, F1 points per mpush")->required();
    sub->add_option("--max-len", o->maxLen, "Skip longer sentences (0 = all, as the paper's test)")
        ->capture_default_str();
    sub->add_option("--permutations", o->permutations, "Permutation samples")
        ->capture_default_str();
    sub->add_option("--seed", o->seed, "Permutation seed")->capture_default_str();
    sub->add_option("--threads", o->threads,
                    "Sentences parsed in parallel (0 = all cores; results do not depend on it)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    addOutJsonOption(sub, o->json, /*jsonTookAFile=*/true);
    addQuietOption(sub, o->quiet);
    setAction(sub, [o] {
        const Grammar g = loadGrammar(o->grammar);
        ConsoleProgress console("compare", "policy", o->quiet);
        const auto gold = readNormalizedTreebank(o->treebank, 0, console.progress());
        requireTreesToEvaluate(gold, o->treebank, o->maxLen);
        EvaluationOptions eo;
        eo.maxLength = o->maxLen;
        eo.threads = o->threads;
        int step = 0;
        auto run = [&](const Policy& p) {
            console.progress().setStep(++step, 2);
            return evaluateCorpus(g, gold, policyMaskFunction(p), eo, console.progress());
        };
        const Policy pa = loadPolicy(o->baseline), pb = loadPolicy(o->lols);
        const CorpusResult a = run(pa), b = run(pb);
        auto scores = [&](const CorpusResult& r) {
            std::vector<SentenceScore> s;
            for (const auto& x : r.sentences)
                s.push_back({x.counts, static_cast<double>(x.stats.pushes)});
            return s;
        };
        const CorpusReward reward{o->lambda, 1e6};
        const auto t =
            pairedPermutationTest(scores(b), scores(a), reward, o->permutations, o->seed);
        auto sys = [&](const CorpusResult& r, const std::string& path) {
            return nlohmann::json{{"policy", path},
                                  {"f1", 100 * r.f1()},
                                  {"mpush", r.meanPushes() / 1e6},
                                  {"wordsPerSecond", r.wordsPerSecond()},
                                  {"failures", r.failures},
                                  {"reward", reward(scores(r))},
                                  {"sentences", r.sentences.size()}};
        };
        nlohmann::json j = {{"lambda", o->lambda},     {"baseline", sys(a, o->baseline)},
                            {"lols", sys(b, o->lols)}, {"rewardDifference", t.difference},
                            {"pValue", t.pValue},      {"permutations", t.permutations}};
        if (printsJsonOnly(o->json)) {
            writeJsonOutput(o->json, j.dump(2) + "\n");
            return 0;
        }
        std::cout << std::fixed << std::setprecision(4) << "lambda " << o->lambda << "\n";
        for (const char* k : {"baseline", "lols"})
            std::cout << std::left << std::setw(9) << k << " F1 " << j[k]["f1"].get<double>()
                      << "  mpush " << j[k]["mpush"].get<double>() << "  kw/s "
                      << j[k]["wordsPerSecond"].get<double>() / 1000 << "  reward "
                      << j[k]["reward"].get<double>() << "\n";
        std::cout << "difference (lols - baseline) " << t.difference << "  p = " << t.pValue
                  << "\n";
        writeJsonOutput(o->json, j.dump(2) + "\n");
        return 0;
    });
}

} // namespace

void addLolsCommands(CLI::App& app) {
    addLolsTrainCommand(app);
    addRegretCommand(app);
    addCompareCommand(app);
}

} // namespace prunescope::cli
