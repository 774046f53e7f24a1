// Empirical complexity of dependency decoders (see EmpiricalComplexity.h).
#include "core/vine/EmpiricalComplexity.h"

#include "core/plot/SvgPlot.h"
#include "core/plot/SvgText.h"
#include "core/util/AtomicFile.h"
#include "core/util/JsonDocument.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

namespace prunescope {

std::vector<DepSentence> sentencesOfLength(const std::vector<DepSentence>& sentences, int minLength,
                                           int maxLength) {
    std::vector<DepSentence> out;
    for (const DepSentence& s : sentences)
        if (s.size() >= minLength && s.size() <= maxLength) out.push_back(s);
    return out;
}

namespace {

void fitSeries(ComplexitySeries& s) {
    std::vector<double> n(s.lengths.begin(), s.lengths.end()), p(s.pushes.begin(), s.pushes.end());
    s.timeFit = fitPowerLaw(n, s.seconds);
    s.pushFit = fitPowerLaw(n, p);
}

} // namespace

std::vector<ComplexitySeries> measureComplexity(const std::vector<DepSentence>& sentences,
                                                const std::vector<ComplexityDecoder>& decoders,
                                                int repeats, const Progress& progress) {
    std::set<int> distinct;
    for (const DepSentence& s : sentences)
        distinct.insert(s.size());
    if (distinct.size() < 2)
        throw std::invalid_argument("empirical complexity: the sentences have " +
                                    std::to_string(distinct.size()) +
                                    " distinct lengths; a fit needs at least two");
    if (repeats < 1) throw std::invalid_argument("empirical complexity: repeats must be >= 1");
    std::vector<ComplexitySeries> out(decoders.size());
    for (std::size_t d = 0; d < decoders.size(); ++d) {
        out[d].label = decoders[d].label;
        out[d].seconds.assign(sentences.size(), std::numeric_limits<double>::infinity());
        for (const DepSentence& s : sentences)
            out[d].lengths.push_back(s.size());
    }
    const int steps = repeats * static_cast<int>(decoders.size());
    for (int r = 1; r <= repeats; ++r) {
        for (std::size_t d = 0; d < decoders.size(); ++d) {
            // one step per repeat and decoder; evaluateDepCorpus counts the sentences
            progress.setStep((r - 1) * static_cast<int>(decoders.size()) + static_cast<int>(d) + 1,
                             steps);
            const DepCorpusResult res = evaluateDepCorpus(sentences, decoders[d].decode, progress);
            progress.throwIfCancelled();
            ComplexitySeries& s = out[d];
            for (std::size_t i = 0; i < sentences.size(); ++i) {
                if (r == 1) s.pushes.push_back(res.sentences[i].pushes); // the same every repeat
                s.seconds[i] = std::min(s.seconds[i], res.sentences[i].cpuSeconds);
            }
            s.uas = res.total.uas();
            s.arcsKeptFraction = res.arcsKeptFraction();
        }
    }
    for (ComplexitySeries& s : out)
        fitSeries(s);
    return out;
}

nlohmann::json complexitySeriesJson(const ComplexitySeries& s) {
    nlohmann::json points = nlohmann::json::array();
    for (std::size_t i = 0; i < s.lengths.size(); ++i)
        points.push_back({s.lengths[i], s.seconds[i], s.pushes[i]});
    return {{"label", s.label},
            {"exponent", s.timeFit.exponent},
            {"exponentStdErr", s.timeFit.exponentStdErr},
            {"r2", s.timeFit.r2},
            {"pushExponent", s.pushFit.exponent},
            {"pushExponentStdErr", s.pushFit.exponentStdErr},
            {"pushR2", s.pushFit.r2},
            {"sentences", s.lengths.size()},
            {"uas", s.uas},
            {"arcsKeptFraction", s.arcsKeptFraction},
            {"points", points}};
}

ComplexitySeries complexitySeriesFromJson(const nlohmann::json& j) {
    try {
        ComplexitySeries s;
        s.label = j.at("label").get<std::string>();
        s.uas = j.at("uas").get<double>();
        s.arcsKeptFraction = j.at("arcsKeptFraction").get<double>();
        for (const auto& p : j.at("points")) {
            if (!p.is_array() || p.size() != 3)
                throw std::invalid_argument("a point is not [n, seconds, pushes]");
            s.lengths.push_back(p.at(0).get<int>());
            s.seconds.push_back(p.at(1).get<double>());
            s.pushes.push_back(p.at(2).get<long>());
        }
        fitSeries(s);
        return s;
    } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument(std::string("not an empirical-complexity series: ") + e.what());
    }
}

std::string complexityLegend(const ComplexitySeries& s) {
    return s.label + ": time ∝ n^" + svgFixed(s.timeFit.exponent, 2) + " ± " +
           svgFixed(s.timeFit.exponentStdErr, 2) + " (pushes n^" + svgFixed(s.pushFit.exponent, 2) +
           ", " + std::to_string(s.lengths.size()) + " sentences)";
}

std::vector<ComplexitySeries> loadComplexityFile(const std::string& path) {
    const JsonDocument doc(readFile(path), path, "empirical complexity: ");
    const nlohmann::json& format = doc.member(doc.root(), "format");
    if (format != kComplexityFormat)
        doc.fail(format, std::string("'format' must be \"") + kComplexityFormat + "\"");
    const nlohmann::json& list = doc.member(doc.root(), "series");
    if (!list.is_array()) doc.fail(list, "'series' must be an array");
    std::vector<ComplexitySeries> out;
    for (const auto& j : list) {
        try {
            out.push_back(complexitySeriesFromJson(j));
        } catch (const std::invalid_argument& e) {
            doc.fail(j, e.what());
        }
    }
    return out;
}

namespace {

// The lengths measured on x; whole decades of time on y.
PlotArea complexityArea(const std::vector<ComplexitySeries>& series, double width, double height) {
    double xmin = std::numeric_limits<double>::infinity(), xmax = 0;
    double ymin = std::numeric_limits<double>::infinity(), ymax = 0;
    for (const ComplexitySeries& s : series)
        for (std::size_t i = 0; i < s.lengths.size(); ++i) {
            xmin = std::min(xmin, static_cast<double>(s.lengths[i]));
            xmax = std::max(xmax, static_cast<double>(s.lengths[i]));
            if (s.seconds[i] > 0) ymin = std::min(ymin, s.seconds[i]);
            ymax = std::max(ymax, s.seconds[i]);
        }
    if (!std::isfinite(xmin)) xmin = 1, xmax = 100;
    if (!std::isfinite(ymin) || ymax <= 0) ymin = 1e-6, ymax = 1;
    PlotArea a{82, 46, width - 24, height - 46 - 22 * static_cast<double>(series.size()) - 40};
    a.logX = a.logY = true;
    a.x0 = 0.9 * xmin; // lengths rarely span a decade: the x axis fits them
    a.x1 = 1.1 * xmax;
    a.y0 = std::pow(10.0, std::floor(std::log10(ymin)));
    a.y1 = std::pow(10.0, std::ceil(std::log10(ymax) + 1e-9));
    return a;
}

const char* markerShape(std::size_t i) {
    static const char* shapes[] = {"circle", "square", "triangle", "diamond"};
    return shapes[i % 4];
}

} // namespace

std::string complexitySvg(const std::vector<ComplexitySeries>& series,
                          const ComplexitySvgOptions& opt) {
    const PlotArea a = complexityArea(series, opt.width, opt.height);
    std::string s = svgOpen(opt.width, opt.height, opt.title);
    AxesStyle style;
    style.xGrid = true;
    s += svgAxes(a, "sentence length n (tokens, log)", "thread CPU seconds per sentence (log)",
                 style);
    for (std::size_t k = 0; k < series.size(); ++k) {
        const ComplexitySeries& se = series[k];
        const std::string attr = "data-series=\"" + svgEscape(se.label) + "\" fill-opacity=\"0.5\"";
        for (std::size_t i = 0; i < se.lengths.size(); ++i)
            if (se.seconds[i] > 0)
                s += svgMarker(markerShape(k), a.px(se.lengths[i]), a.py(se.seconds[i]),
                               plotColor(k), attr);
        if (se.lengths.empty()) continue;
        const auto [lo, hi] = std::minmax_element(se.lengths.begin(), se.lengths.end());
        s += svgPolyline(a, {{*lo, se.timeFit.predict(*lo)}, {*hi, se.timeFit.predict(*hi)}},
                         plotColor(k), "fit", plotDash(k), 2.5,
                         "data-label=\"" + svgEscape(se.label) + "\"");
    }
    double ly = a.bottom + 58;
    for (std::size_t k = 0; k < series.size(); ++k) {
        const ComplexitySeries& se = series[k];
        s += svgLegendEntry(a.left + 4, ly, complexityLegend(se), plotColor(k), plotDash(k));
        ly += 22;
    }
    return s + svgClose();
}

} // namespace prunescope
