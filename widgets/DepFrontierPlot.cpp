// The dependency frontier on QCustomPlot (Rush & Petrov 2012 sec. 6): see DepFrontierPlot.h.
#include "widgets/DepFrontierPlot.h"

#include "widgets/ImageExport.h"
#include "widgets/PlotHover.h"

#include <algorithm>
#include <cmath>

namespace prunescope::widgets {

namespace {
QCPScatterStyle depFrontierScatter(DepFrontierStyle s, const QColor& c) {
    switch (s) {
    case DepFrontierStyle::Reference:
        return {QCPScatterStyle::ssSquare, QPen(Qt::black), QBrush(c), 10};
    case DepFrontierStyle::Points:
        return {QCPScatterStyle::ssDiamond, QPen(c), QBrush(c), 11};
    default:
        return {QCPScatterStyle::ssDisc, c, 7};
    }
}
} // namespace

DepFrontierPlot::DepFrontierPlot(QWidget* parent) : QCustomPlot(parent) {
    setMinimumSize(480, 360);
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    xAxis->setLabel("tokens per second (CPU, log)");
    yAxis->setLabel("UAS (%, no punctuation)");
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 8));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignLeft);
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0,
                             new QCPTextElement(this, "", QFont(font().family(), 11, QFont::Bold)));
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setMouseTracking(true);
}

int DepFrontierPlot::pointCount() const {
    int n = 0;
    for (const auto& s : frontier_.series)
        n += static_cast<int>(s.points.size());
    return n;
}

void DepFrontierPlot::setFrontier(DepFrontier f) {
    frontier_ = std::move(f);
    rebuild();
}

void DepFrontierPlot::rebuild() {
    clearGraphs();
    clearItems();
    if (auto* title = qobject_cast<QCPTextElement*>(plotLayout()->element(0, 0)))
        title->setText(QString::fromStdString(frontier_.title));
    double tLo = 1e300, tHi = 0, uLo = 100, uHi = 0;
    for (const auto& s : frontier_.series) {
        const QColor c(QString::fromStdString(s.colour));
        QCPGraph* g = addGraph();
        g->setName(QString::fromStdString(s.name + " — model " + s.model));
        g->setScatterStyle(depFrontierScatter(s.style, c));
        g->setLineStyle(s.style == DepFrontierStyle::Sweep ? QCPGraph::lsLine : QCPGraph::lsNone);
        g->setPen(QPen(c, 1.5));
        std::vector<const DepFrontierPoint*> pts;
        for (const auto& q : s.points)
            pts.push_back(&q);
        std::sort(pts.begin(), pts.end(),
                  [](auto* a, auto* b) { return a->tokensPerSecond < b->tokensPerSecond; });
        for (const auto* q : pts) {
            g->addData(std::max(q->tokensPerSecond, 1e-3), q->uas);
            tLo = std::min(tLo, std::max(q->tokensPerSecond, 1e-3)),
            tHi = std::max(tHi, q->tokensPerSecond);
            uLo = std::min(uLo, q->uas), uHi = std::max(uHi, q->uas);
            auto* label = new QCPItemText(this);
            label->position->setCoords(std::max(q->tokensPerSecond, 1e-3), q->uas);
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
            label->setPadding(QMargins(5, 0, 0, 3));
            label->setText(QString::fromStdString(q->label));
            label->setColor(c);
            label->setFont(QFont(font().family(), 7));
            if (q->chosen) {
                auto* ring = new QCPItemEllipse(this);
                ring->topLeft->setType(QCPItemPosition::ptAbsolute);
                ring->bottomRight->setType(QCPItemPosition::ptAbsolute);
                ring->topLeft->setParentAnchor(label->position);
                ring->bottomRight->setParentAnchor(label->position);
                ring->topLeft->setCoords(-8, -8);
                ring->bottomRight->setCoords(8, 8);
                ring->setPen(QPen(Qt::black));
            }
        }
    }
    if (tHi <= 0) tLo = 1, tHi = 10, uLo = 0, uHi = 100;
    const double upad = std::max(0.5, 0.05 * (uHi - uLo));
    xAxis->setRange(tLo / 1.3, std::max(tHi * 1.3, tLo * 2));
    yAxis->setRange(std::floor(uLo - upad), std::ceil(uHi + upad));
    replot();
}

QPointF DepFrontierPlot::pointPixel(int series, int point) const {
    const auto& q = frontier_.series.at(static_cast<std::size_t>(series))
                        .points.at(static_cast<std::size_t>(point));
    return {xAxis->coordToPixel(std::max(q.tokensPerSecond, 1e-3)), yAxis->coordToPixel(q.uas)};
}

std::pair<int, int> DepFrontierPlot::pointAt(QPointF pos, double radius) const {
    return nearestPoint(
        pos, radius, seriesCount(),
        [&](int s) {
            return static_cast<int>(frontier_.series[static_cast<std::size_t>(s)].points.size());
        },
        [&](int s, int p) { return pointPixel(s, p); }, [](int, int) { return true; });
}

QString DepFrontierPlot::pointDescription(int series, int point) const {
    const auto& s = frontier_.series.at(static_cast<std::size_t>(series));
    const auto& q = s.points.at(static_cast<std::size_t>(point));
    QString d =
        QString::fromStdString(s.name + " " + q.label) + "\nmodel " +
        QString::fromStdString(s.model) +
        QString("\nUAS %1%, %2 tokens/s").arg(q.uas, 0, 'f', 2).arg(q.tokensPerSecond, 0, 'f', 0);
    if (q.arcsKept >= 0)
        d += QString("\narcs reaching the first exact stage %1%").arg(100 * q.arcsKept, 0, 'f', 1);
    if (q.chosen) d += "\n(dev-chosen)";
    return d;
}

void DepFrontierPlot::mouseMoveEvent(QMouseEvent* e) {
    showPointTooltip(this, e, pointAt(e->position()),
                     [&](int s, int p) { return pointDescription(s, p); });
    QCustomPlot::mouseMoveEvent(e);
}

bool DepFrontierPlot::saveImage(const QString& path, int width, int height, QString* error) {
    return savePlotImage(this, path, width, height, error);
}

} // namespace prunescope::widgets
