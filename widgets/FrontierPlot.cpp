// Frontier plot (Vieira & Eisner 2017, sec. 7 Fig. 2, footnote 12): see FrontierPlot.h.
#include "widgets/FrontierPlot.h"

#include "widgets/FrontierPlotLegend.h"
#include "widgets/ImageExport.h"

#include <algorithm>
#include <cmath>

namespace prunescope::widgets {

namespace {
const QColor kBaseline(31, 119, 180), kLols(214, 39, 40), kOther(110, 110, 110), kUnpruned(0, 0, 0);

QColor kindColor(PlotPolicyKind k) {
    switch (k) {
    case PlotPolicyKind::Baseline:
        return kBaseline;
    case PlotPolicyKind::Lols:
        return kLols;
    case PlotPolicyKind::Unpruned:
        return kUnpruned;
    default:
        return kOther;
    }
}

QCPScatterStyle kindScatter(PlotPolicyKind k) {
    const QColor c = kindColor(k);
    switch (k) {
    case PlotPolicyKind::Baseline:
        return {QCPScatterStyle::ssCircle, c, QColor(c.red(), c.green(), c.blue(), 90), 8};
    case PlotPolicyKind::Lols:
        return {QCPScatterStyle::ssTriangle, c, QColor(c.red(), c.green(), c.blue(), 90), 9};
    case PlotPolicyKind::Unpruned:
        return {QCPScatterStyle::ssSquare, c, Qt::white, 9};
    default:
        return {QCPScatterStyle::ssDiamond, c, Qt::white, 8};
    }
}

QString kindName(PlotPolicyKind k) {
    switch (k) {
    case PlotPolicyKind::Baseline:
        return "baseline policies";
    case PlotPolicyKind::Lols:
        return "LOLS policies";
    case PlotPolicyKind::Unpruned:
        return "unpruned parser";
    default:
        return "other policies";
    }
}

// The unit normal (pixels) of the iso-reward line of slope lambda at data point (x, y), pointing
// towards higher accuracy / lower runtime: the direction in which the reward grows.
QPointF rewardNormal(const QCPAxis* xa, const QCPAxis* ya, double x, double y, double lambda) {
    const QPointF p0(xa->coordToPixel(x), ya->coordToPixel(y));
    QPointF t;
    if (std::isinf(lambda)) {
        t = QPointF(0, ya->coordToPixel(y + 1) - p0.y());
    } else {
        const double dx = std::max(std::abs(x), 1e-9) * 1e-3;
        t = QPointF(xa->coordToPixel(x + dx), ya->coordToPixel(y + lambda * dx)) - p0;
    }
    const double len = std::hypot(t.x(), t.y());
    if (len <= 0) return {0, -1};
    QPointF n(t.y() / len, -t.x() / len);
    if (n.y() > 0 || (n.y() == 0 && n.x() > 0)) n = -n; // up (higher accuracy) or left (faster)
    return n;
}
} // namespace

// Arrows and cones of all points, drawn in pixel space so they stay perpendicular to the
// iso-reward lines whatever the axis scales.
class FrontierPlot::Glyphs : public QCPAbstractItem {
  public:
    explicit Glyphs(FrontierPlot* plot) : QCPAbstractItem(plot), plot_(plot) {
        setSelectable(false);
    }
    double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }

  protected:
    void draw(QCPPainter* painter) override {
        const auto* xa = plot_->xAxis;
        const auto* ya = plot_->yAxis;
        for (const PlotPolicy& p : plot_->data_.points) {
            const QPointF p0(xa->coordToPixel(p.runtime), ya->coordToPixel(p.accuracy));
            const QColor c = kindColor(p.kind);
            if (plot_->cones_ && !p.lambdaRange.empty) {
                const QPointF a = rewardNormal(xa, ya, p.runtime, p.accuracy, p.lambdaRange.lo);
                const QPointF b = rewardNormal(xa, ya, p.runtime, p.accuracy, p.lambdaRange.hi);
                const double angA = std::atan2(-a.y(), a.x()) * 180 / M_PI;
                double angB = std::atan2(-b.y(), b.x()) * 180 / M_PI;
                double span = angB - angA; // counter-clockwise from the lo normal to the hi normal
                while (span < 0)
                    span += 360;
                if (span > 180) span -= 360;
                const double r = 30;
                QPainterPath path(p0);
                path.arcTo(QRectF(p0.x() - r, p0.y() - r, 2 * r, 2 * r), angA, span);
                path.closeSubpath();
                painter->setPen(conePen(c));
                painter->setBrush(coneBrush(c));
                painter->drawPath(path);
            }
            if (plot_->arrows_ && std::isfinite(p.lambda)) {
                drawGlyphArrow(painter, p0, rewardNormal(xa, ya, p.runtime, p.accuracy, p.lambda),
                               30, c);
            }
        }
    }

  private:
    FrontierPlot* plot_;
};

// accuracy - lambda * runtime = const through the highlighted point; a curve on a log axis.
class FrontierPlot::IsoLine : public QCPAbstractItem {
  public:
    explicit IsoLine(FrontierPlot* plot) : QCPAbstractItem(plot), plot_(plot) {
        setSelectable(false);
    }
    double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }
    QPolygonF polyline() const {
        QPolygonF poly;
        const int h = plot_->highlight_;
        if (h < 0 || h >= static_cast<int>(plot_->data_.points.size())) return poly;
        const PlotPolicy& p = plot_->data_.points[static_cast<std::size_t>(h)];
        const QCPRange r = plot_->xAxis->range();
        const bool lg = plot_->logX_ && r.lower > 0;
        constexpr int kSteps = 96;
        for (int s = 0; s <= kSteps; ++s) {
            const double f = static_cast<double>(s) / kSteps;
            const double x =
                lg ? r.lower * std::pow(r.upper / r.lower, f) : r.lower + f * (r.upper - r.lower);
            const double y = p.accuracy + plot_->lambda_ * (x - p.runtime);
            poly << QPointF(plot_->xAxis->coordToPixel(x), plot_->yAxis->coordToPixel(y));
        }
        return poly;
    }

  protected:
    void draw(QCPPainter* painter) override {
        const QPolygonF poly = polyline();
        if (poly.isEmpty()) return;
        painter->setPen(isoRewardLinePen());
        painter->drawPolyline(poly);
    }

  private:
    FrontierPlot* plot_;
};

FrontierPlot::FrontierPlot(QWidget* parent) : QCustomPlot(parent) {
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 8));
    legend->setBrush(QColor(255, 255, 255, 220));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    setMinimumSize(360, 260);
    glyphs_ = new Glyphs(this);
    iso_ = new IsoLine(this);
    rebuild();
}

void FrontierPlot::setPlotData(FrontierPlotData d) {
    data_ = std::move(d);
    if (highlight_ >= static_cast<int>(data_.points.size())) highlight_ = -1;
    rebuild();
}

void FrontierPlot::setLogX(bool on) {
    logX_ = on;
    rebuild();
}

void FrontierPlot::setShowLambdaGlyphs(bool arrows, bool cones) {
    arrows_ = arrows;
    cones_ = cones;
    syncGlyphLegend();
    replot();
}

void FrontierPlot::setHighlight(int index, double lambda) {
    const double l = std::max(0.0, lambda);
    if (index != highlight_ || l != lambda_)
        titleMode_ = false; // a new label: look for a free spot again
    highlight_ = index >= 0 && index < static_cast<int>(data_.points.size()) ? index : -1;
    lambda_ = l;
    updateHighlightItems();
    syncGlyphLegend();
    replot();
}

void FrontierPlot::setupAxes() {
    xAxis->setLabel(data_.xLabel);
    yAxis->setLabel(data_.yLabel);
    bool positive = true;
    for (const auto& p : data_.points)
        positive = positive && p.runtime > 0;
    const bool lg = logX_ && positive;
    xAxis->setScaleType(lg ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (lg) {
        QSharedPointer<QCPAxisTickerLog> t(new QCPAxisTickerLog);
        t->setTickCount(8);
        t->setSubTickCount(8);
        xAxis->setTicker(t);
        xAxis->setNumberFormat("g");
    } else
        xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
}

void FrontierPlot::addParetoLine() {
    // Pareto frontier: a thin grey line through the non-dominated points, by runtime.
    std::vector<int> front;
    for (int i = 0; i < static_cast<int>(data_.points.size()); ++i)
        if (data_.points[static_cast<std::size_t>(i)].onFrontier) front.push_back(i);
    std::sort(front.begin(), front.end(), [&](int a, int b) {
        return data_.points[static_cast<std::size_t>(a)].runtime <
               data_.points[static_cast<std::size_t>(b)].runtime;
    });
    if (front.size() > 1) {
        QCPGraph* g = addGraph();
        g->setName("Pareto frontier");
        g->setPen(QPen(QColor(150, 150, 150), 1, Qt::DotLine));
        g->setLineStyle(QCPGraph::lsStepLeft);
        for (int i : front)
            g->addData(data_.points[static_cast<std::size_t>(i)].runtime,
                       data_.points[static_cast<std::size_t>(i)].accuracy);
    }
}

void FrontierPlot::addFittedSigmoid() {
    // The footnote-12 sigmoid over the data's runtime range.
    if (data_.fit && !data_.points.empty()) {
        double lo = std::numeric_limits<double>::infinity(), hi = 0;
        for (const auto& p : data_.points)
            lo = std::min(lo, p.runtime), hi = std::max(hi, p.runtime);
        lo = std::max(lo / 2, std::max(1e-12, -data_.fit->c + 1e-9));
        hi *= 2;
        QCPGraph* g = addGraph();
        g->setName("fitted sigmoid h(x)");
        g->setPen(QPen(QColor(44, 160, 44), 1.6));
        constexpr int kSteps = 200;
        for (int s = 0; s <= kSteps; ++s) {
            const double f = static_cast<double>(s) / kSteps;
            const double x = lo * std::pow(hi / lo, f);
            g->addData(x, (*data_.fit)(x));
        }
    }
}

void FrontierPlot::addTrajectories() {
    // LOLS trajectories: one connected curve per run, in iteration order.
    bool firstTrajectory = true;
    for (const auto& t : data_.trajectories) {
        if (t.size() < 2) continue;
        auto* c = new QCPCurve(xAxis, yAxis);
        c->setPen(QPen(QColor(214, 39, 40, 140), 1.2));
        c->setScatterStyle(QCPScatterStyle::ssNone);
        for (int i : t)
            c->addData(data_.points[static_cast<std::size_t>(i)].runtime,
                       data_.points[static_cast<std::size_t>(i)].accuracy);
        if (firstTrajectory)
            c->setName("LOLS trajectory");
        else
            c->removeFromLegend();
        firstTrajectory = false;
    }
}

void FrontierPlot::addPointGraphs() {
    // Points, one graph per kind.
    for (PlotPolicyKind k : {PlotPolicyKind::Baseline, PlotPolicyKind::Lols, PlotPolicyKind::Other,
                             PlotPolicyKind::Unpruned}) {
        QVector<double> xs, ys;
        for (const auto& p : data_.points)
            if (p.kind == k) xs << p.runtime, ys << p.accuracy;
        if (xs.isEmpty()) continue;
        QCPGraph* g = addGraph();
        g->setName(kindName(k));
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(kindScatter(k));
        g->setData(xs, ys, false);
    }
}

void FrontierPlot::addHighlight() {
    highlightGraph_ = addGraph();
    highlightGraph_->setName("selected for lambda");
    highlightGraph_->setLineStyle(QCPGraph::lsNone);
    highlightGraph_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(230, 140, 0), 3), Qt::NoBrush, 18));
    if (!highlightLabel_) {
        highlightLabel_ = new QCPItemText(this);
        highlightLabel_->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        highlightLabel_->position->setType(
            QCPItemPosition::ptAbsolute); // placed by placeLambdaLabel
        highlightLabel_->setTextAlignment(Qt::AlignLeft);
        highlightLabel_->setPadding(QMargins(4, 2, 4, 2));
        highlightLabel_->setBrush(QColor(255, 245, 225, 230));
        highlightLabel_->setPen(QPen(QColor(230, 140, 0)));
        highlightLabel_->setClipToAxisRect(true);
    }
}

void FrontierPlot::rebuild() {
    clearGraphs();
    clearPlottables();
    setupAxes(); // titles, log or linear runtime axis
    addParetoLine();
    addFittedSigmoid();
    addTrajectories();
    addPointGraphs();
    addHighlight(); // the ring around the λ-selected point and its label
    rescaleToData();
    updateHighlightItems();
    titleMode_ = false;
    syncGlyphLegend();
    replot();
}

void FrontierPlot::rescaleToData() {
    if (data_.points.empty()) {
        xAxis->setRange(logX_ ? 0.1 : 0, 1);
        yAxis->setRange(0, 100);
        return;
    }
    double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
    for (const auto& p : data_.points) {
        xlo = std::min(xlo, p.runtime), xhi = std::max(xhi, p.runtime);
        ylo = std::min(ylo, p.accuracy), yhi = std::max(yhi, p.accuracy);
    }
    if (xAxis->scaleType() == QCPAxis::stLogarithmic) {
        xAxis->setRange(xlo / 1.6, xhi * 1.6);
    } else {
        const double m = std::max(1e-9, 0.08 * (xhi - xlo));
        xAxis->setRange(xlo - m, xhi + m);
    }
    const double m = std::max(0.5, 0.08 * (yhi - ylo));
    yAxis->setRange(ylo - m, yhi + m);
}

void FrontierPlot::updateHighlightItems() {
    if (!highlightGraph_) return;
    highlightGraph_->data()->clear();
    if (highlight_ < 0) {
        highlightLabel_->setVisible(false);
        return;
    }
    const PlotPolicy& p = data_.points[static_cast<std::size_t>(highlight_)];
    highlightGraph_->addData(p.runtime, p.accuracy);
    highlightLabel_->setVisible(true);
    highlightLabel_->setText(lambdaLabelText());
}

QString FrontierPlot::lambdaLabelText() const {
    if (highlight_ < 0) return QString();
    const PlotPolicy& p = data_.points[static_cast<std::size_t>(highlight_)];
    return (QString("selected for \u03bb = %1: %2\naccuracy %3, runtime %4, reward %5")
                .arg(lambda_, 0, 'g', 4)
                .arg(p.id)
                .arg(p.accuracy, 0, 'f', 2)
                .arg(p.runtime, 0, 'g', 4)
                .arg(p.accuracy - lambda_ * p.runtime, 0, 'g', 5));
}

QPolygonF FrontierPlot::isoPolyline() const {
    return iso_->polyline();
}

int FrontierPlot::pointAt(QPointF pos, double radius) const {
    int best = -1;
    double bestD = radius;
    for (int i = 0; i < static_cast<int>(data_.points.size()); ++i) {
        const double d = std::hypot(pointPixel(i).x() - pos.x(), pointPixel(i).y() - pos.y());
        if (d <= bestD) bestD = d, best = i;
    }
    return best;
}

QPointF FrontierPlot::pointPixel(int index) const {
    const PlotPolicy& p = data_.points.at(static_cast<std::size_t>(index));
    return {xAxis->coordToPixel(p.runtime), yAxis->coordToPixel(p.accuracy)};
}

double FrontierPlot::isoLineDistance(QPointF pos) const {
    const QPolygonF poly = isoPolyline();
    double best = std::numeric_limits<double>::infinity();
    for (int s = 1; s < poly.size(); ++s) {
        const QPointF a = poly[s - 1], b = poly[s], ab = b - a, ap = pos - a;
        const double len2 = QPointF::dotProduct(ab, ab);
        const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(ap, ab) / len2, 0.0, 1.0) : 0.0;
        const QPointF q = a + t * ab;
        best = std::min(best, std::hypot(pos.x() - q.x(), pos.y() - q.y()));
    }
    return best;
}

double FrontierPlot::lambdaThrough(QPointF pos) const {
    if (highlight_ < 0) return lambda_;
    const PlotPolicy& p = data_.points[static_cast<std::size_t>(highlight_)];
    const double x = xAxis->pixelToCoord(pos.x()), y = yAxis->pixelToCoord(pos.y());
    const double dx = x - p.runtime;
    if (std::abs(dx) < 1e-12 * std::max(1.0, std::abs(p.runtime))) return lambda_;
    return std::max(0.0, (y - p.accuracy) / dx);
}

void FrontierPlot::mousePressEvent(QMouseEvent* e) {
    pressPos_ = e->position();
    if (e->button() == Qt::LeftButton && pointAt(e->position()) < 0 &&
        isoLineDistance(e->position()) < 7) {
        draggingLine_ = true;
        setCursor(Qt::ClosedHandCursor);
        return; // no range drag while the line is held
    }
    QCustomPlot::mousePressEvent(e);
}

void FrontierPlot::mouseMoveEvent(QMouseEvent* e) {
    if (draggingLine_) {
        emit lambdaDragged(lambdaThrough(e->position()));
        return;
    }
    if (!(e->buttons() & Qt::LeftButton))
        setCursor(isoLineDistance(e->position()) < 7 ? Qt::OpenHandCursor : Qt::ArrowCursor);
    QCustomPlot::mouseMoveEvent(e);
}

void FrontierPlot::mouseReleaseEvent(QMouseEvent* e) {
    if (draggingLine_) {
        draggingLine_ = false;
        setCursor(Qt::OpenHandCursor);
        emit lambdaDragged(lambdaThrough(e->position()));
        return;
    }
    const QPointF d = e->position() - pressPos_;
    if (e->button() == Qt::LeftButton && std::hypot(d.x(), d.y()) < 4) {
        const int i = pointAt(e->position());
        if (i >= 0) emit pointClicked(i);
    }
    QCustomPlot::mouseReleaseEvent(e);
}

bool FrontierPlot::saveImage(const QString& path, int width, int height, QString* error) {
    return savePlotImage(this, path, width, height, error);
}

} // namespace prunescope::widgets
