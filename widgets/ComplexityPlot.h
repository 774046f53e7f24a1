#pragma once
// Empirical complexity on QCustomPlot (Rush & Petrov 2012 sec. 6; core/vine/EmpiricalComplexity.h):
// thread CPU seconds per sentence against its length, both axes logarithmic, one scatter graph per
// series and its fitted line c·n^b, the legend giving each exponent ± its standard error, and a
// tooltip on hover with the sentence's series, length, time and pushes. The same series the SVG
// writer draws (complexitySvg).
#include "core/vine/EmpiricalComplexity.h"

#include <qcustomplot.h>

#include <QString>

namespace prunescope::widgets {

class ComplexityPlot : public QCustomPlot {
    Q_OBJECT
  public:
    explicit ComplexityPlot(QWidget* parent = nullptr);

    void setSeries(std::vector<ComplexitySeries> series);
    const std::vector<ComplexitySeries>& series() const { return series_; }

    // The legend text of series s: "label: time ∝ n^b ± se (pushes n^b', k sentences)".
    QString legendText(int s) const;
    // The point nearest to a widget position within `radius` pixels: {series, point}, or {-1, -1}.
    std::pair<int, int> pointAt(QPointF pos, double radius = 6) const;
    QPointF pointPixel(int series, int point) const;
    QString pointDescription(int series, int point) const; // the hover tooltip

    // PNG or PDF by extension (0 = current size), atomic (ImageExport.h).
    bool saveImage(const QString& path, int width = 0, int height = 0, QString* error = nullptr);

  protected:
    void mouseMoveEvent(QMouseEvent* e) override;

  private:
    void rebuild();

    std::vector<ComplexitySeries> series_;
};

} // namespace prunescope::widgets
