// The plot frame every core figure draws on (core/plot/SvgPlot.h): data-to-pixel mapping (linear,
// log, a one-value range), round ticks inside the ranges, explicit tick labels, the palette and the
// marks; and the learning-curve figure (core/plot/LearningCurveSvg.h) built on it.
#include "core/plot/LearningCurveSvg.h"
#include "core/plot/SvgPlot.h"

#include "support/TestSuite.h"

#include <regex>

using namespace prunescope;

namespace {

int count(const std::string& s, const std::string& what) {
    int n = 0;
    for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
        ++n;
    return n;
}

// The numbers of every <text ...>N</text> whose x attribute is left of `x`: the y tick labels.
std::vector<double> yTickLabels(const std::string& s, double x) {
    std::vector<double> out;
    const std::regex re(
        "<text x=\"([0-9.]+)\" y=\"[0-9.]+\" text-anchor=\"end\"[^>]*>(-?[0-9.]+)<");
    for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator(); ++it)
        if (std::stod((*it)[1]) < x) out.push_back(std::stod((*it)[2]));
    return out;
}

} // namespace

class TestSvgPlot : public QObject {
    Q_OBJECT
  private slots:
    void mapping() {
        const PlotArea a{100, 50, 300, 250, 0, 10, 0, 100};
        QCOMPARE(a.px(0), 100.0);
        QCOMPARE(a.px(10), 300.0);
        QCOMPARE(a.px(5), 200.0);
        QCOMPARE(a.py(0), 250.0); // y up on the page
        QCOMPARE(a.py(100), 50.0);
        PlotArea l = a;
        l.logX = true;
        l.x0 = 1;
        l.x1 = 100;
        QCOMPARE(l.px(10), 200.0);
        const PlotArea one{0, 0, 10, 10, 3, 3, 5, 5}; // a single value: the middle, not NaN
        QCOMPARE(one.px(3), 5.0);
        QCOMPARE(one.py(5), 5.0);
    }
    void padding() {
        double lo = 2, hi = 2;
        padRange(lo, hi);
        QVERIFY(lo < 1 && hi > 3);
        lo = 0, hi = 100;
        padRange(lo, hi, 0.1);
        QCOMPARE(lo, -10.0);
        QCOMPARE(hi, 110.0);
    }
    void axesTicksInsideTheRange() {
        const PlotArea a{80, 50, 560, 460, 96.85, 100.15, -0.79, 42.3};
        const std::string s = svgAxes(a, "coverage", "reduction");
        const auto ys = yTickLabels(s, a.left);
        QVERIFY(ys.size() >= 3);
        for (double y : ys)
            QVERIFY2(y >= a.y0 && y <= a.y1, qPrintable(QString::number(y)));
        QCOMPARE(count(s, "stroke=\"#ddd\""), static_cast<int>(ys.size())); // a grid line each
        QVERIFY(s.find(">coverage<") != std::string::npos);
        QVERIFY(s.find("rotate(-90)") != std::string::npos);
        AxesStyle st;
        st.xTickLabels = {{1, "0"}, {2, "1"}, {3, "2 & 3"}};
        const std::string e = svgAxes(PlotArea{0, 0, 100, 100, 1, 3, 0, 1}, "x", "y", st);
        QVERIFY(e.find(">2 &amp; 3<") != std::string::npos);
    }
    void paletteAndMarks() {
        QCOMPARE(std::string(plotColor(0)), std::string(plotColor(8)));
        QVERIFY(std::string(plotColor(0)) != plotColor(1));
        QCOMPARE(std::string(plotDash(0)), std::string());
        const PlotArea a{0, 0, 100, 100, 0, 1, 0, 1};
        const std::string p = svgPolyline(a, {{0, 0}, {0.5, 0.5}, {1, 1}}, "#000", "curve", "4,4");
        QVERIFY(p.find("points=\"0.0,100.0 50.0,50.0 100.0,0.0 \"") != std::string::npos);
        QVERIFY(p.find("stroke-dasharray=\"4,4\"") != std::string::npos);
        const std::string l = svgLegendEntry(10, 20, "a<b", "#123456");
        QVERIFY(l.find(">a&lt;b<") != std::string::npos);
        const std::string doc = svgOpen(200, 100, "T") + svgClose();
        QVERIFY(doc.starts_with("<svg") && doc.ends_with("</svg>\n") && count(doc, ">T<") == 1);
    }
    void learningCurves() {
        std::vector<LearningPanel> panels(3);
        for (int p = 0; p < 3; ++p) {
            panels[p].title = "beam k = " + std::to_string(1 << p);
            panels[p].curves.push_back({"s-max", {80, 82, 83.5}, 2});
            panels[p].curves.push_back({"standard", {79}, -1}); // one point: no polyline
        }
        const std::string s = learningCurveSvg(panels);
        QCOMPARE(count(s, "<g class=\"panel\">"), 3);
        QCOMPARE(count(s, "<polyline class=\"curve\""), 3);
        QCOMPARE(count(s, "data-label=\"s-max\""), 3);
        QCOMPARE(count(s, "<circle class=\"point\""), 3 * 4);
        QCOMPARE(count(s, "r=\"6.5\""), 3); // the chosen epoch, ringed
        QVERIFY(s.find(">beam k = 4<") != std::string::npos);
        // The legend names each label once, in the same colour as its curves.
        QCOMPARE(count(s, ">standard</text>"), 1);
        QVERIFY(learningCurveSvg({}).starts_with("<svg"));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestSvgPlot)
#include "test_svg_plot.moc"
