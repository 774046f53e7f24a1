#pragma once
// Legend entries for the frontier plot's drawn items (Vieira & Eisner 2017, sec. 7 Fig. 2): the
// iso-reward line of the current λ, the λ_i arrows and the optimal-λ cones are QCustomPlot items,
// not plottables, so they get custom legend items (QCPAbstractLegendItem) drawing the same pen
// and brush as the plot.
#include <qcustomplot.h>

#include <QString>

namespace prunescope::widgets {

class GlyphLegendItem : public QCPAbstractLegendItem {
    Q_OBJECT
  public:
    enum class Glyph { IsoRewardLine, Arrow, Cone };
    GlyphLegendItem(QCPLegend* legend, Glyph glyph, QColor color, QString text);
    Glyph glyph() const { return glyph_; }
    const QString& text() const { return text_; }

  protected:
    void draw(QCPPainter* painter) override;
    QSize minimumOuterSizeHint() const override;

  private:
    void drawIcon(QCPPainter* painter, const QRectF& r) const;
    Glyph glyph_;
    QColor color_;
    QString text_;
};

// The pens and brushes the plot and its legend share.
QPen isoRewardLinePen();
QPen arrowPen(QColor kind);
QPen conePen(QColor kind);
QBrush coneBrush(QColor kind);

// Draws an arrow of `length` pixels from `from` along the unit vector `n`, head included.
void drawGlyphArrow(QCPPainter* painter, QPointF from, QPointF n, double length, QColor kind);

} // namespace prunescope::widgets
