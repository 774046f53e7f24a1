#pragma once
// Empirical complexity of dependency parsing (Rush & Petrov 2012, sec. 6 and the seed's slides:
// exhaustive parsing grows as n^2.8 / n^2.8 / n^3.8 for first / second / third order, the cascade
// as n^1.4 / n^1.8 / n^1.9): the thread CPU time of each sentence's decode against its length n,
// for several decoders on the same sentences, with the exponent of time ≈ c·n^b fitted by least
// squares on log–log (core/stats/PowerLawFit.h), and the same fit of the pushes (hyperedges
// visited, machine-independent). Repeats interleave the decoders; a sentence's time is its minimum
// over the repeats (the least disturbed measurement of a deterministic decode).
#include "core/dep/DepCorpus.h"
#include "core/stats/PowerLawFit.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace prunescope {

struct ComplexityDecoder {
    std::string label; // e.g. "exhaustive 2nd order", "cascade 2nd order"
    DepDecoder decode;
};

struct ComplexitySeries {
    std::string label;
    std::vector<int> lengths;     // per sentence
    std::vector<double> seconds;  // per sentence: min thread CPU over the repeats
    std::vector<long> pushes;     // per sentence (the same in every repeat)
    double uas = 0;               // over the sentences measured (punctuation excluded)
    double arcsKeptFraction = 1;  // arcs reaching the first exact stage
    PowerLawFit timeFit, pushFit; // seconds and pushes against n
};

// Sentences of minLength..maxLength tokens (inclusive) of `sentences`.
std::vector<DepSentence> sentencesOfLength(const std::vector<DepSentence>& sentences, int minLength,
                                           int maxLength);

// Decodes every sentence with every decoder, `repeats` times (repeat-major, decoders interleaved),
// then fits each series. Progress: one step per repeat and decoder, evaluateDepCorpus's phase
// within it; a cancel throws Cancelled after the current sentence. Throws std::invalid_argument if
// fewer than two distinct lengths.
std::vector<ComplexitySeries> measureComplexity(const std::vector<DepSentence>& sentences,
                                                const std::vector<ComplexityDecoder>& decoders,
                                                int repeats, const Progress& progress = {});

// {label, exponent, exponentStdErr, r2, pushExponent, pushExponentStdErr, pushR2, sentences, uas,
//  arcsKeptFraction, points: [[n, seconds, pushes], ...]} and back (std::invalid_argument naming
// the missing or wrong field).
nlohmann::json complexitySeriesJson(const ComplexitySeries& s);
ComplexitySeries complexitySeriesFromJson(const nlohmann::json& j);

// The series of a `vine-complexity --out-json` file (format "prunescope-complexity"); every
// problem is an InputError at file:line:column.
std::vector<ComplexitySeries> loadComplexityFile(const std::string& path);
inline constexpr const char* kComplexityFormat = "prunescope-complexity";

// "label: time ∝ n^b ± se (pushes n^b', k sentences)": the legend of the SVG and of the GUI plot.
std::string complexityLegend(const ComplexitySeries& s);

struct ComplexitySvgOptions {
    std::string title = "Empirical complexity: CPU time per sentence vs length";
    double width = 760, height = 560;
};
// Log–log scatter of every series (one colour and marker each) with its fitted line over the
// lengths it covers, the legend giving each exponent ± its standard error. Elements (for tests):
// <polyline class="fit" data-label=...>, markers with data-series=....
std::string complexitySvg(const std::vector<ComplexitySeries>& series,
                          const ComplexitySvgOptions& opt = {});

} // namespace prunescope
