// prunescope-cli bench-parse: CKY throughput (pushes/s) by sentence length, unpruned and pruned.
#include "app/cli/Commands.h"
#include "core/policy/GoldSpans.h"
#include "core/grammar/GrammarFile.h"
#include "core/treebank/Normalize.h"
#include "core/parse/Parser.h"
#include "core/grammar/PcfgEstimator.h"

#include <chrono>
#include <iomanip>
#include <iostream>
#include <random>

namespace prunescope::cli {

void addBenchParseCommand(CLI::App& app) {
    auto* sub = app.add_subcommand("bench-parse", "Benchmark CKY: pushes/second and words/second by sentence length");
    struct Opts {
        std::string grammar, treebank, mask = "all";
        int maxLen = 40, repeat = 3;
        bool json = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--grammar", o->grammar, "Grammar file")->required();
    sub->add_option("--treebank", o->treebank, "Treebank file or directory (its words are parsed)")->required();
    sub->add_option("--max-len", o->maxLen, "Longest sentence to include")->capture_default_str();
    sub->add_option("--repeat", o->repeat, "Passes over the data (the best pass per bucket is reported)")->capture_default_str();
    sub->add_option("--mask", o->mask, "all (exhaustive), gold (keep only the spans of the binarized gold tree), or random:P (keep each span with probability P)")
        ->capture_default_str();
    sub->add_flag("--json", o->json, "Print JSON");
    setAction(sub, [o] {
        Grammar g = loadGrammar(o->grammar);
        std::vector<Tree> gold = readNormalizedTreebank(o->treebank);
        std::erase_if(gold, [&](const Tree& t) { return t.size() > o->maxLen; });
        double keepP = -1;
        if (o->mask.rfind("random:", 0) == 0) keepP = std::stod(o->mask.substr(7));
        else if (o->mask != "all" && o->mask != "gold") throw std::invalid_argument("--mask must be all, gold or random:P");
        std::mt19937 rng(12345);
        std::vector<PruningMask> masks;
        for (const auto& t : gold) {
            const int n = t.size();
            if (o->mask == "gold") masks.push_back(spanMask(binarizeLike(g, t)));
            else {
                PruningMask m = PruningMask::allKeep(n);
                if (keepP >= 0) {
                    std::bernoulli_distribution keep(keepP);
                    for (int w = 2; w < n; ++w)
                        for (int i = 0; i + w <= n; ++i) m.set(i, i + w, keep(rng));
                }
                masks.push_back(std::move(m));
            }
        }
        const int nb = (o->maxLen + 9) / 10;
        struct Bucket { int sentences = 0; long words = 0, pushes = 0; double best = 1e300; };
        std::vector<Bucket> buckets(nb);
        Parser parser(g);
        std::size_t peakChart = 0, peakScratch = 0;
        for (int rep = 0; rep < std::max(1, o->repeat); ++rep) {
            std::vector<double> secs(nb, 0);
            std::vector<long> pushes(nb, 0), words(nb, 0);
            std::vector<int> count(nb, 0);
            for (std::size_t s = 0; s < gold.size(); ++s) {
                auto w = gold[s].words();
                const int b = (static_cast<int>(w.size()) - 1) / 10;
                auto t0 = std::chrono::steady_clock::now();
                ParseStats st = parser.parse(w, &masks[s]);
                secs[b] += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                pushes[b] += st.pushes;
                words[b] += static_cast<long>(w.size());
                ++count[b];
                peakChart = std::max(peakChart, parser.chart().memoryBytes());
                peakScratch = std::max(peakScratch, parser.scratchBytes());
            }
            for (int b = 0; b < nb; ++b) {
                buckets[b].sentences = count[b];
                buckets[b].words = words[b];
                buckets[b].pushes = pushes[b];
                buckets[b].best = std::min(buckets[b].best, secs[b]);
            }
        }
        nlohmann::json out = {{"grammar", o->grammar}, {"mask", o->mask}, {"buckets", nlohmann::json::array()}};
        long tw = 0, tp = 0;
        double ts = 0;
        if (!o->json) std::cout << "length   sents   mpush/sent   pushes/s(M)   words/s     ms/sent\n";
        for (int b = 0; b < nb; ++b) {
            const auto& k = buckets[b];
            if (k.sentences == 0) continue;
            tw += k.words; tp += k.pushes; ts += k.best;
            const double pps = k.pushes / k.best, wps = k.words / k.best;
            out["buckets"].push_back({{"from", b * 10 + 1}, {"to", b * 10 + 10}, {"sentences", k.sentences},
                                      {"mpushPerSentence", k.pushes / 1e6 / k.sentences}, {"pushesPerSecond", pps},
                                      {"wordsPerSecond", wps}, {"msPerSentence", 1000 * k.best / k.sentences}});
            if (!o->json)
                std::cout << std::setw(3) << b * 10 + 1 << "-" << std::setw(3) << std::left << b * 10 + 10 << std::right
                          << std::setw(7) << k.sentences << std::fixed << std::setprecision(3) << std::setw(13)
                          << k.pushes / 1e6 / k.sentences << std::setprecision(1) << std::setw(14) << pps / 1e6
                          << std::setw(11) << wps << std::setprecision(2) << std::setw(11) << 1000 * k.best / k.sentences << "\n";
        }
        out["total"] = {{"sentences", gold.size()}, {"pushesPerSecond", ts > 0 ? tp / ts : 0},
                        {"wordsPerSecond", ts > 0 ? tw / ts : 0}, {"peakChartMiB", peakChart / 1048576.0},
                        {"peakParserScratchMiB", peakScratch / 1048576.0}};
        if (o->json) std::cout << out.dump(2) << "\n";
        else
            std::cout << "total: " << gold.size() << " sentences, " << std::setprecision(1) << (ts > 0 ? tp / ts / 1e6 : 0)
                      << " M pushes/s, " << (ts > 0 ? tw / ts : 0) << " words/s, peak chart " << std::setprecision(1)
                      << peakChart / 1048576.0 << " MiB, parser scratch " << peakScratch / 1048576.0 << " MiB\n";
        return 0;
    });
}

} // namespace prunescope::cli
