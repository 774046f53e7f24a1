#pragma once
// Marks drawn over a ChartHeatMap (issue 18, the explorer's mask comparison): each marked cell gets
// a thick frame in its class's colour (with a white halo, readable over any colour map) and the
// class's glyph in its corner, so a class is never told by colour alone; a legend in the empty
// top-left corner of the triangle names the classes with their counts. A transparent child of the
// heat map that follows its size: it is painted with it, also into figures and onto a printer.
#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

namespace prunescope::widgets {

class ChartHeatMap;

struct OverlayClass {
    QString name; // legend text
    QColor color;
    QString glyph; // one or two characters drawn in the cell's corner
};

struct OverlayCell {
    int i = 0, k = 0;
    int cls = 0; // index into the classes
};

class ChartOverlay : public QWidget {
    Q_OBJECT
  public:
    explicit ChartOverlay(ChartHeatMap* map);

    void setTitle(const QString& title);
    void setClasses(std::vector<OverlayClass> classes);
    void setCells(std::vector<OverlayCell> cells);
    void clear(); // no cells, no legend
    const std::vector<OverlayCell>& cells() const { return cells_; }
    const std::vector<OverlayClass>& classes() const { return classes_; }
    int count(int cls) const;

  protected:
    void paintEvent(QPaintEvent*) override;
    bool eventFilter(QObject* watched, QEvent* e) override;

  private:
    void paintLegend(QPainter& p) const;

    ChartHeatMap* map_;
    QString title_;
    std::vector<OverlayClass> classes_;
    std::vector<OverlayCell> cells_;
};

} // namespace prunescope::widgets
