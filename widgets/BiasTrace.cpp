// Bias vs iterations of randomized pruning (see BiasTrace.h).
#include "widgets/BiasTrace.h"

#include <algorithm>
#include <cmath>

namespace prunescope::widgets {

BiasTrace::BiasTrace(QWidget* parent) : QCustomPlot(parent) {
    setMinimumSize(300, 180);
    QSharedPointer<QCPAxisTickerLog> logTicker(new QCPAxisTickerLog);
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    xAxis->setTicker(logTicker);
    xAxis->setLabel(tr("iterations (masks averaged)"));
    yAxis->setLabel(tr("span L1 to exact"));
    running_ = addGraph();
    running_->setName(tr("running estimate"));
    running_->setPen(QPen(QColor(213, 94, 0), 2));
    running_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
    single_ = addGraph();
    single_->setName(tr("this iteration's mask alone"));
    single_->setPen(QPen(QColor(120, 120, 120), 1));
    single_->setLineStyle(QCPGraph::lsNone);
    single_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(120, 120, 120), 3));
    reference_ = addGraph();
    reference_->setPen(QPen(QColor(0, 114, 178), 1.5, Qt::DashLine));
    reference_->setVisible(false);
    reference_->removeFromLegend();
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 8));
    legend->setBrush(QColor(255, 255, 255, 200));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignLeft);
    clearTrace();
}

void BiasTrace::clearTrace() {
    running_->data()->clear();
    single_->data()->clear();
    maxIteration_ = 1;
    rescale();
}

void BiasTrace::addPoint(int iteration, double runningL1, double maskL1) {
    running_->addData(iteration, runningL1);
    single_->addData(iteration, maskL1);
    maxIteration_ = std::max(maxIteration_, iteration);
    rescale();
}

void BiasTrace::setReference(double l1, const QString& label) {
    referenceValue_ = l1;
    reference_->setVisible(std::isfinite(l1));
    reference_->setName(label);
    if (std::isfinite(l1))
        reference_->addToLegend();
    else
        reference_->removeFromLegend();
    rescale();
}

int BiasTrace::points() const {
    return running_->dataCount();
}

double BiasTrace::lastRunning() const {
    if (running_->dataCount() == 0) return std::numeric_limits<double>::quiet_NaN();
    return (running_->data()->constEnd() - 1)->value;
}

void BiasTrace::rescale() {
    const double xmax = std::max(10.0, maxIteration_ * 1.3);
    xAxis->setRange(0.8, xmax);
    double ymax = std::isfinite(referenceValue_) ? referenceValue_ : 0.0;
    for (auto* g : {running_, single_})
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
            ymax = std::max(ymax, it->value);
    yAxis->setRange(0, std::max(1e-3, ymax * 1.1));
    reference_->data()->clear();
    if (std::isfinite(referenceValue_)) {
        reference_->addData(0.8, referenceValue_);
        reference_->addData(xmax, referenceValue_);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

bool BiasTrace::saveImage(const QString& path, int width, int height) {
    if (path.endsWith(".pdf", Qt::CaseInsensitive)) return savePdf(path, width, height);
    return savePng(path, width, height);
}

} // namespace prunescope::widgets
