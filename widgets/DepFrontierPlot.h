#pragma once
// The dependency speed/accuracy frontier (core/frontier/DepFrontier.h: Rush & Petrov 2012 sec. 6;
// Cherry & Bergsma 2011 sec. 5) on QCustomPlot: UAS against tokens/s (log), one graph per series
// (sweeps joined by lines, separate systems as diamonds, exhaustive references as squares in
// their series' colour), the legend naming each series and its final model, and a tooltip on
// hover with the point's series, label, model, UAS and tokens/s. The same DepFrontier the SVG
// writer draws (core/frontier/DepFrontierSvg.h).
#include "core/frontier/DepFrontier.h"

#include <qcustomplot.h>

#include <QString>

namespace prunescope::widgets {

class DepFrontierPlot : public QCustomPlot {
    Q_OBJECT
  public:
    explicit DepFrontierPlot(QWidget* parent = nullptr);

    void setFrontier(DepFrontier f);
    const DepFrontier& frontier() const { return frontier_; }

    int seriesCount() const { return static_cast<int>(frontier_.series.size()); }
    int pointCount() const;
    // The point nearest to a widget position within `radius` pixels: {series, point}, or {-1, -1}.
    std::pair<int, int> pointAt(QPointF pos, double radius = 8) const;
    QPointF pointPixel(int series, int point) const;
    // "name label [model]: UAS …, … tokens/s" — the hover tooltip of a point.
    QString pointDescription(int series, int point) const;

    // PNG or PDF by extension (0 = current size), atomic (ImageExport.h).
    bool saveImage(const QString& path, int width = 0, int height = 0, QString* error = nullptr);

  protected:
    void mouseMoveEvent(QMouseEvent* e) override;

  private:
    void rebuild();

    DepFrontier frontier_;
};

} // namespace prunescope::widgets
