#pragma once
// Bias of randomized pruning against exact inside-outside, iteration by iteration (Bouchard-Côté,
// Petrov & Klein 2009, Fig. 4(c) for one sentence): the span-posterior L1 of the running
// estimate (averaged masks) and of each iteration's single mask, on a logarithmic iteration
// axis, with a dashed reference line (e.g. a fixed mask's bias).
#include <qcustomplot.h>

#include <limits>

namespace prunescope::widgets {

class BiasTrace : public QCustomPlot {
    Q_OBJECT
  public:
    explicit BiasTrace(QWidget* parent = nullptr);
    void clearTrace();
    void addPoint(int iteration, double runningL1, double maskL1);
    // A horizontal reference (NaN hides it), labelled in the legend.
    void setReference(double l1, const QString& label);
    int points() const;
    double lastRunning() const;                                         // NaN when empty
    bool saveImage(const QString& path, int width = 0, int height = 0); // PNG or PDF by extension

  private:
    void rescale();
    QCPGraph *running_ = nullptr, *single_ = nullptr, *reference_ = nullptr;
    double referenceValue_ = std::numeric_limits<double>::quiet_NaN();
    int maxIteration_ = 1;
};

} // namespace prunescope::widgets
