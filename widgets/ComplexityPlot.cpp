// Empirical complexity on QCustomPlot: see ComplexityPlot.h.
#include "widgets/ComplexityPlot.h"

#include "core/plot/SvgPlot.h"
#include "widgets/ImageExport.h"
#include "widgets/PlotHover.h"

#include <algorithm>
#include <cmath>

namespace prunescope::widgets {

ComplexityPlot::ComplexityPlot(QWidget* parent) : QCustomPlot(parent) {
    setMinimumSize(480, 360);
    for (QCPAxis* a : {xAxis, yAxis}) {
        a->setScaleType(QCPAxis::stLogarithmic);
        a->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    }
    xAxis->setLabel("sentence length n (tokens, log)");
    yAxis->setLabel("thread CPU seconds per sentence (log)");
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 8));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setMouseTracking(true);
}

void ComplexityPlot::setSeries(std::vector<ComplexitySeries> series) {
    series_ = std::move(series);
    rebuild();
}

QString ComplexityPlot::legendText(int s) const {
    return QString::fromStdString(complexityLegend(series_.at(static_cast<std::size_t>(s))));
}

void ComplexityPlot::rebuild() {
    clearGraphs();
    double nLo = 1e300, nHi = 0, tLo = 1e300, tHi = 0;
    for (std::size_t k = 0; k < series_.size(); ++k) {
        const ComplexitySeries& se = series_[k];
        const QColor c(plotColor(k));
        QColor faint = c;
        faint.setAlpha(110);
        QCPGraph* dots = addGraph();
        dots->setLineStyle(QCPGraph::lsNone);
        dots->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, faint, 5));
        dots->removeFromLegend();
        for (std::size_t i = 0; i < se.lengths.size(); ++i) {
            if (se.seconds[i] <= 0) continue;
            dots->addData(se.lengths[i], se.seconds[i]);
            nLo = std::min(nLo, static_cast<double>(se.lengths[i]));
            nHi = std::max(nHi, static_cast<double>(se.lengths[i]));
            tLo = std::min(tLo, se.seconds[i]);
            tHi = std::max(tHi, se.seconds[i]);
        }
        if (se.lengths.empty()) continue;
        const auto [lo, hi] = std::minmax_element(se.lengths.begin(), se.lengths.end());
        QCPGraph* fit = addGraph();
        fit->setName(legendText(static_cast<int>(k)));
        QPen pen(c, 2.2);
        if (k % 2 == 1) pen.setStyle(Qt::DashLine); // told apart in grey print too
        fit->setPen(pen);
        fit->addData(*lo, se.timeFit.predict(*lo));
        fit->addData(*hi, se.timeFit.predict(*hi));
    }
    if (nHi <= 0) nLo = 10, nHi = 50, tLo = 1e-5, tHi = 1e-2;
    xAxis->setRange(nLo * 0.9, nHi * 1.1);
    yAxis->setRange(tLo / 1.5, tHi * 1.5);
    replot();
}

QPointF ComplexityPlot::pointPixel(int series, int point) const {
    const ComplexitySeries& se = series_.at(static_cast<std::size_t>(series));
    const auto i = static_cast<std::size_t>(point);
    return {xAxis->coordToPixel(se.lengths.at(i)), yAxis->coordToPixel(se.seconds.at(i))};
}

std::pair<int, int> ComplexityPlot::pointAt(QPointF pos, double radius) const {
    return nearestPoint(
        pos, radius, static_cast<int>(series_.size()),
        [&](int s) {
            return static_cast<int>(series_[static_cast<std::size_t>(s)].lengths.size());
        },
        [&](int s, int p) { return pointPixel(s, p); },
        [&](int s, int p) {
            return series_[static_cast<std::size_t>(s)].seconds[static_cast<std::size_t>(p)] > 0;
        });
}

QString ComplexityPlot::pointDescription(int series, int point) const {
    const ComplexitySeries& se = series_.at(static_cast<std::size_t>(series));
    const auto i = static_cast<std::size_t>(point);
    return QString("%1\n%2 words: %3 ms, %4 pushes\nfit: %5 ms")
        .arg(QString::fromStdString(se.label))
        .arg(se.lengths.at(i))
        .arg(1000 * se.seconds.at(i), 0, 'f', 3)
        .arg(se.pushes.at(i))
        .arg(1000 * se.timeFit.predict(se.lengths.at(i)), 0, 'f', 3);
}

void ComplexityPlot::mouseMoveEvent(QMouseEvent* e) {
    showPointTooltip(this, e, pointAt(e->position()),
                     [&](int s, int p) { return pointDescription(s, p); });
    QCustomPlot::mouseMoveEvent(e);
}

bool ComplexityPlot::saveImage(const QString& path, int width, int height, QString* error) {
    return savePlotImage(this, path, width, height, error);
}

} // namespace prunescope::widgets
