#pragma once
// The cube-pruned span chart (Zhang et al. 2013 sec. 3; core/cube/CubeChart.h) as a pyramid of
// spans — positions along the base (0 = root), the whole sentence at the top, like the CKY heat
// map — each span box split in four: incomplete items on top (left: the arc points left, head at
// the span's right end; right: it points right), complete items below (same directions), leaves
// C(h,h) on the base row. A cell's grey level shows how full its beam is; gold cells are coloured
// by the gold item's rank (in the beam / ranked lower / fell off the beam, also told by a mark:
// none, "#r", "×"); the s-max node has a thick black frame, p-max frontier nodes a dashed blue one,
// the nodes the current strategy updates a star. Click (or Enter on the focused cell) to select.
#include "core/cube/CubeExplain.h"

#include <QStringList>
#include <QWidget>

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace prunescope::widgets {

struct CubeCellView {
    static constexpr int kNotGold = -2;
    int items = 0;                                        // beam size
    float best = std::numeric_limits<float>::quiet_NaN(); // best item's score
    int goldRank = kNotGold;                              // >= 0 rank, -1 fell off, kNotGold
    double violation = 0;                                 // gold cells: v(n)
    bool smax = false, frontier = false, chosen = false;
};

// The per-cell view of a parsed chart, its gold derivation and a strategy's choice (cells indexed
// by CubeChart::cellId).
std::vector<CubeCellView> cubeCellViews(const CubeChart& chart, const GoldDerivation* gold,
                                        const CubeUpdateChoice* choice);

class CubeChartView : public QWidget {
    Q_OBJECT
  public:
    explicit CubeChartView(QWidget* parent = nullptr);

    // words[0] is the root symbol; cells indexed as CubeChart (2 * (n+1)^2).
    void setChart(const QStringList& words, int beam, std::vector<CubeCellView> cells);
    int length() const { return static_cast<int>(words_.size()) - 1; } // n
    const CubeCellView& cellView(int cellId) const {
        return cells_[static_cast<std::size_t>(cellId)];
    }
    int selectedCell() const { return selected_; }
    void setSelectedCell(int cellId); // -1 = none; emits nothing

    // Geometry (widget coordinates) for hit tests, tests and screenshots; empty for cells that do
    // not exist (left-facing cells of the root).
    QRectF cellRect(int cellId) const;
    std::optional<int> cellAt(QPointF p) const;
    // Cell id of (kind, head, end) with the chart's numbering.
    int cellId(CubeKind kind, int head, int end) const;

    QSize sizeHint() const override { return {900, 640}; }
    QSize minimumSizeHint() const override { return {260, 200}; }

  signals:
    void cellClicked(int cellId);

  protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    bool event(QEvent*) override;

  private:
    void relayout();
    QRectF spanRect(int s, int t) const; // the whole box of span (s, t), s <= t
    void paintCell(QPainter& p, int cellId) const;
    void paintLegend(QPainter& p) const;
    QString describe(int cellId) const;

    QStringList words_;
    int beam_ = 1;
    std::vector<CubeCellView> cells_;
    int selected_ = -1;
    double cw_ = 0, ch_ = 0, left_ = 0, top_ = 0, legendH_ = 30;
};

} // namespace prunescope::widgets
