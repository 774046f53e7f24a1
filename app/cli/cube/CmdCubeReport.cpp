// prunescope-cli cube-bench, cube-compare, cube-plot: the numbers and the figure of
// docs/results.md and docs/benchmarks.md for cube pruning (speed vs k, paired significance with
// Holm's correction, dev UAS per epoch).
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "core/cube/CubeModel.h"
#include "core/dep/DepReader.h"
#include "core/dep/UasSignificance.h"
#include "core/plot/LearningCurveSvg.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"
#include "core/util/Spread.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>

namespace prunescope::cli {

namespace {

void addCubeBench(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "cube-bench",
        "Parsing speed (tokens/s, thread CPU) of a cube-pruning model at several beam sizes");
    struct Opts {
        std::string model, treebank;
        std::vector<int> beams{1, 4, 16, 64};
        int repeats = 3, maxLen = 0;
        bool json = false, quiet = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--model", o->model, "Cube-pruning model")->required();
    sub->add_option("--treebank", o->treebank, "Sentences to parse (a treebank file or directory)")
        ->required();
    addDeprecatedAliases(sub, o->beams, "--beam", {"--beams"});
    sub->add_option("--beam", o->beams, "Beam sizes k, comma-separated (as cube-eval's --beam)")
        ->delimiter(',')
        ->capture_default_str();
    sub->add_option("--repeats", o->repeats,
                    "Passes per beam (interleaved; min/median/max reported)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--max-len", o->maxLen, "Skip sentences longer than this (0 = none)")
        ->capture_default_str();
    sub->add_flag("--json", o->json, "Print JSON");
    sub->add_flag("--quiet", o->quiet, "No progress on stderr");
    setAction(sub, [o] {
        const CubeModel model = loadCubeModel(o->model);
        std::vector<DepSentence> gold = readDepTreebank(o->treebank, o->maxLen);
        requireSentencesToEvaluate(gold.size(), o->treebank, o->maxLen); // no table of zeros
        std::map<int, std::vector<double>> speeds;
        std::map<int, DepCorpusResult> last;
        ConsoleProgress console("cube-bench", "sentence", o->quiet);
        const Progress& progress = console.progress();
        for (int r = 0; r < o->repeats; ++r)
            for (int k : o->beams) {
                if (k < 1) throw std::invalid_argument("--beam: every beam must be >= 1");
                DepCorpusResult res = evaluateDepCorpus(gold, cubeDecoder(model, k), progress);
                speeds[k].push_back(res.tokensPerSecond());
                last[k] = std::move(res);
            }
        nlohmann::json rows = nlohmann::json::array();
        for (int k : o->beams) {
            const Spread v = spreadOf(speeds[k]);
            const auto& res = last[k];
            rows.push_back({{"beam", k},
                            {"tokensPerSecondMin", v.min},
                            {"tokensPerSecondMedian", v.median},
                            {"tokensPerSecondMax", v.max},
                            {"uas", res.total.uas()},
                            {"pushesPerSentence", static_cast<double>(res.pushes) /
                                                      static_cast<double>(std::max<std::size_t>(
                                                          1, res.sentences.size()))},
                            {"sentences", res.sentences.size()},
                            {"tokens", res.tokens}});
        }
        if (o->json) {
            std::cout << nlohmann::json{{"model", o->model},
                                        {"treebank", o->treebank},
                                        {"repeats", o->repeats},
                                        {"rows", rows}}
                             .dump(2)
                      << "\n";
            return 0;
        }
        std::cout << "| k | tokens/s min | median | max | UAS | pushes/sentence "
                     "|\n|---|---|---|---|---|---|\n";
        for (const auto& row : rows)
            std::cout << "| " << row["beam"].get<int>() << " | " << std::fixed
                      << std::setprecision(0) << row["tokensPerSecondMin"].get<double>() << " | "
                      << row["tokensPerSecondMedian"].get<double>() << " | "
                      << row["tokensPerSecondMax"].get<double>() << " | " << std::setprecision(2)
                      << row["uas"].get<double>() << " | " << std::setprecision(0)
                      << row["pushesPerSentence"].get<double>() << " |\n";
        return 0;
    });
}

// Per-sentence attachment counts from a `cube-eval --json --per-sentence` file, with where each
// sentence came from ("file:line", empty when the file does not say).
struct PerSentence {
    std::vector<AttachmentScore> scores;
    std::vector<std::string> sources;
};

PerSentence readPerSentence(const std::string& path) {
    const JsonDocument doc(readFile(path), path, "evaluation: ");
    const nlohmann::json& root = doc.root();
    const nlohmann::json* per =
        root.is_object() ? doc.optionalMember(root, "perSentence") : nullptr;
    if (!per || !per->is_array())
        doc.fail(per ? *per : root,
                 "no 'perSentence' array (run cube-eval with --json --per-sentence)");
    PerSentence out;
    for (const auto& s : *per) {
        AttachmentScore a;
        a.scoredTokens = doc.integer(doc.member(s, "scoredTokens"), 0);
        a.scoredCorrect = doc.integer(doc.member(s, "scoredCorrect"), 0, a.scoredTokens);
        a.sentences = 1;
        out.scores.push_back(a);
        // where the sentence came from, when the file says
        const auto* file = doc.optionalMember(s, "file");
        const auto* line = doc.optionalMember(s, "line");
        out.sources.push_back(file && line
                                  ? doc.string(*file) + ":" + std::to_string(doc.integer(*line, 0))
                                  : std::string());
    }
    return out;
}

// The two evaluations must have scored the same sentences in the same order: the test pairs them by
// position.
void checkSameSentences(const std::string& a, const PerSentence& pa, const std::string& b,
                        const PerSentence& pb) {
    if (pa.scores.size() != pb.scores.size())
        throw std::invalid_argument(
            a + " has " + std::to_string(pa.scores.size()) + " sentences, " + b + " has " +
            std::to_string(pb.scores.size()) +
            ": they must be evaluations of the same sentences (same treebank and --max-len)");
    for (std::size_t i = 0; i < pa.sources.size(); ++i)
        if (!pa.sources[i].empty() && !pb.sources[i].empty() && pa.sources[i] != pb.sources[i])
            throw std::invalid_argument("sentence " + std::to_string(i + 1) + " is " +
                                        pa.sources[i] + " in " + a + " but " + pb.sources[i] +
                                        " in " + b +
                                        ": they must be evaluations of the same sentences");
}

void addCubeCompare(CLI::App& app) {
    auto* sub = app.add_subcommand("cube-compare",
                                   "Paired permutation tests of UAS between evaluations (cube-eval "
                                   "--json --per-sentence), Holm-corrected across pairs");
    struct Opts {
        std::vector<std::string> pairs;
        int permutations = 10000;
        std::uint64_t seed = 1;
        bool json = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--pair", o->pairs,
                    "A.json:B.json — test A against B (repeat for every row of the table)")
        ->required();
    sub->add_option("--permutations", o->permutations, "Random swaps per test")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--seed", o->seed, "Seed of the permutations")->capture_default_str();
    sub->add_flag("--json", o->json, "Print JSON");
    setAction(sub, [o] {
        nlohmann::json rows = nlohmann::json::array();
        std::vector<double> p;
        for (const std::string& pair : o->pairs) {
            const auto colon = pair.find(':');
            if (colon == std::string::npos)
                throw UsageError("--pair '" + pair + "' is not A.json:B.json");
            const std::string a = pair.substr(0, colon), b = pair.substr(colon + 1);
            const PerSentence pa = readPerSentence(a), pb = readPerSentence(b);
            checkSameSentences(a, pa, b, pb);
            const UasTestResult r =
                pairedUasPermutationTest(pa.scores, pb.scores, o->permutations, o->seed);
            rows.push_back({{"a", a},
                            {"b", b},
                            {"uasA", r.uasA},
                            {"uasB", r.uasB},
                            {"difference", r.difference},
                            {"p", r.pValue}});
            p.push_back(r.pValue);
        }
        const std::vector<double> holm = holmAdjust(p);
        for (std::size_t i = 0; i < rows.size(); ++i)
            rows[i]["pHolm"] = holm[i];
        if (o->json) {
            std::cout << nlohmann::json{{"permutations", o->permutations},
                                        {"seed", o->seed},
                                        {"tests", rows}}
                             .dump(2)
                      << "\n";
            return 0;
        }
        std::cout
            << "| A | B | UAS A | UAS B | A − B | p | p (Holm) |\n|---|---|---|---|---|---|---|\n";
        for (const auto& r : rows)
            std::cout << "| " << r["a"].get<std::string>() << " | " << r["b"].get<std::string>()
                      << " | " << std::fixed << std::setprecision(2) << r["uasA"].get<double>()
                      << " | " << r["uasB"].get<double>() << " | " << std::showpos
                      << r["difference"].get<double>() << std::noshowpos << " | "
                      << std::setprecision(4) << r["p"].get<double>() << " | "
                      << r["pHolm"].get<double>() << " |\n";
        return 0;
    });
}

std::string strategyLabel(const std::string& update) {
    if (update == "smax") return "s-max";
    if (update == "pmax") return "p-max";
    return update;
}

void addCubePlot(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "cube-plot",
        "Dev UAS per epoch of cube-train models as an SVG figure, one panel per beam size");
    struct Opts {
        std::vector<std::string> models;
        std::string out, title = "UAS on dev per epoch (cube pruning, violation-fixing perceptron)";
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("models", o->models, "Model files written by cube-train")->required();
    sub->add_option("--out", o->out, "SVG file to write")->required();
    sub->add_option("--title", o->title, "Figure title")->capture_default_str();
    setAction(sub, [o] {
        std::map<int, LearningPanel> byBeam;
        const std::vector<std::string> order{"smax", "pmax", "skip", "standard"};
        std::map<int, std::vector<std::pair<int, LearningCurve>>> curves;
        for (const std::string& path : o->models) {
            const CubeModel m = loadCubeModel(path);
            const auto& t = m.training;
            if (!t.contains("curve") || !t["curve"].is_array())
                throw InputError(path, 0, 0, "cube-pruning model: no training curve");
            LearningCurve c;
            const std::string update = t.value("update", std::string("?"));
            c.label = strategyLabel(update);
            for (const auto& e : t["curve"])
                c.y.push_back(e.value("devUas", 0.0));
            c.best = t.value("bestEpoch", 0) - 1;
            const auto rank = std::find(order.begin(), order.end(), update) - order.begin();
            curves[m.beam].push_back({static_cast<int>(rank), c});
        }
        std::vector<LearningPanel> panels;
        for (auto& [beam, cs] : curves) {
            std::stable_sort(cs.begin(), cs.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
            LearningPanel p;
            p.title = "beam k = " + std::to_string(beam);
            for (auto& c : cs)
                p.curves.push_back(c.second);
            panels.push_back(std::move(p));
        }
        LearningCurveSvgOptions opt;
        opt.title = o->title;
        writeLearningCurveSvg(panels, o->out, opt);
        std::cout << "wrote " << o->out << ": " << panels.size()
                  << (panels.size() == 1 ? " panel, " : " panels, ") << o->models.size()
                  << (o->models.size() == 1 ? " curve\n" : " curves\n");
        return 0;
    });
}

} // namespace

void addCubeReportCommands(CLI::App& app) {
    addCubeBench(app);
    addCubeCompare(app);
    addCubePlot(app);
}

} // namespace prunescope::cli
