#pragma once
// The CKY chart as a span heat map: one cell per span (i,k) in the classic triangle (words
// along the base, the whole sentence at the top). Colour shows a caller-chosen quantity; pruned
// cells are hatched, gold spans outlined, best-parse spans dotted, unprunable cells (width 1,
// root) have a dotted border, so nothing is told by colour alone. Cells touched by a change can
// be revealed in agenda order (instant, timed or step-by-step).
// On screen the static layer (background, cells, words, legend) is kept in an image and only the
// cells whose shown state changed are repainted into it; change marks, highlights and the focus
// frame are drawn above it in every paint. Figures (SVG, PDF, scaled PNG) are painted directly.
#include "widgets/ColorMap.h"

#include <QElapsedTimer>
#include <QImage>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace prunescope::widgets {

enum class ChangeKind : std::uint8_t { Rose, Fell, Appeared, Vanished };
QString changeKindName(ChangeKind k);
QColor changeKindColor(ChangeKind k);

// One touched cell, in the order the agenda first reached it, summarizing its symbol changes.
struct CellMark {
    int i = 0, k = 0;
    ChangeKind kind = ChangeKind::Rose;
    int rose = 0, fell = 0, appeared = 0, vanished = 0;
};

struct HeatCell {
    float value = std::numeric_limits<float>::quiet_NaN(); // NaN = no value (light grey)
    bool kept = true;
    bool gold = false; // outlined
    bool best = false; // dot marker
    QString label;     // optional short text (e.g. the top label), drawn when cells are large
};

enum class AnimationMode { Instant, Animated, Step };

// A frame drawn above a cell (the CKY replay: the cell being built and its split children), with
// an optional short tag in its top-left corner.
struct CellHighlight {
    int i = 0, k = 0;
    QColor color;
    QString tag;
    bool operator==(const CellHighlight&) const = default;
};

class ChartHeatMap : public QWidget {
    Q_OBJECT
  public:
    explicit ChartHeatMap(QWidget* parent = nullptr);

    // Resets cells, marks and focus. Cells are indexed i*(n+1)+k.
    void setWords(const QStringList& words);
    int length() const { return static_cast<int>(words_.size()); }
    const QStringList& words() const { return words_; }
    void setCells(std::vector<HeatCell> cells);
    const HeatCell& cell(int i, int k) const { return cells_[index(i, k)]; }

    // Colour scale: value v maps to (v - lo) / (hi - lo); title and decimals label the bar.
    void setScale(double lo, double hi, const QString& title, int decimals);
    void setColorMap(ColorMapKind kind);
    ColorMapKind colorMap() const { return colorMap_; }
    // A cell's fill as painted (before hatching): the map's colour of its value; a pruned cell's is
    // washed out on a sequential map, exact on a diverging one (its hatching contrasts instead).
    QColor cellFill(int i, int k) const;
    void setTooltipProvider(std::function<QString(int, int)> f) { tooltip_ = std::move(f); }
    void setLegendVisible(bool on);
    // What the outline and dot markers mean (legend and accessible text); defaults "gold span" and
    // "best parse". Other views reuse them, e.g. randomized pruning: "selected", "current tree".
    void setMarkerNames(const QString& outline, const QString& dot);
    // Whether the legend lists the change kinds of the change animation (default: yes).
    void setChangeLegendVisible(bool on);

    // Change animation. `before` (same indexing as cells) is drawn for touched cells not yet
    // revealed.
    void setAnimationMode(AnimationMode m);
    AnimationMode animationMode() const { return mode_; }
    void setStepInterval(int ms) { stepMs_ = std::max(1, ms); }
    void showChanges(std::vector<CellMark> marks, std::vector<HeatCell> before);
    void clearChanges();
    int revealedChanges() const { return revealed_; }
    int totalChanges() const { return static_cast<int>(marks_.size()); }
    const std::vector<CellMark>& changes() const { return marks_; }

    // Highlights drawn above cells and change marks (empty: none).
    void setHighlights(std::vector<CellHighlight> h);
    const std::vector<CellHighlight>& highlights() const { return highlights_; }

    // Geometry (widget coordinates), for hit tests, tests and screenshots.
    QRectF cellRect(int i, int k) const;
    std::optional<std::pair<int, int>> cellAt(QPointF p) const;
    std::pair<int, int> focusCell() const { return focus_; }
    void setFocusCell(int i, int k);

    // The static layer cache (default on). Off, every paint draws all layers directly, as figures
    // are drawn, and the cache is kept aside untouched; the cache's contract is to give the same
    // pixels as the direct paint (tests/gui/test_heatmap_layer_cache).
    void setLayerCacheEnabled(bool on);
    bool layerCacheEnabled() const { return layerCacheOn_; }
    // Cells repainted into the cache by the last paint that refreshed it (all cells on a rebuild).
    int lastLayerRepaintCells() const { return lastLayerCells_; }

    QSize sizeHint() const override { return {900, 700}; }
    QSize minimumSizeHint() const override { return {240, 200}; }

  public slots:
    void stepChanges();   // reveals the next touched cell
    void finishChanges(); // reveals all

  signals:
    void cellActivated(int i, int k); // click, Space or Enter
    void cellInspected(int i, int k); // right-click or I: look without flipping
    void focusCellChanged(int i, int k);
    void changesProgress(int shown, int total);

  protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void changeEvent(QEvent*) override; // a font or palette change relayouts / repaints the layer
    bool event(QEvent*) override;

  private:
    struct Layout {
        double cw = 0, ch = 0, left = 0, top = 0, legendH = 0, baseY = 0;
        bool rotateWords = false;
        double wordAngle = 45; // degrees; steeper when the font is tall for the column width
    };
    std::size_t index(int i, int k) const {
        return static_cast<std::size_t>(i) * (length() + 1) + k;
    }
    void relayout();
    void updateArea(const QRegion& r);
    QRegion marksArea() const; // the pixels of every change mark's cell
    // Static layer: what cell idx shows (value and label from `before` while its change is not
    // revealed; kept, gold and best from the current cells).
    HeatCell shownCell(std::size_t idx) const;
    void paintStatic(QPainter& p, const QRegion& dirty) const; // background, cells, words, legend
    void paintOverlays(QPainter& p, const QRect& dirty) const; // change marks, highlights, focus
    bool refreshLayer(qreal dpr); // brings layer_ up to date; false if it cannot be used
    void invalidateLayer() { layerValid_ = false; }
    void paintLegend(QPainter& p) const;
    double legendRow() const;
    std::vector<double> legendItemWidths() const;
    int legendRows(double right) const;
    void paintCell(QPainter& p, int i, int k, const HeatCell& shown) const;
    void paintMark(QPainter& p, const QRectF& r, const CellMark& m, bool newest) const;
    void paintWords(QPainter& p) const;
    void paintHighlight(QPainter& p, const CellHighlight& h) const;
    double normalized(float v) const;
    QColor cellFill(const HeatCell& c, bool kept) const;
    void onTimer();
    void updateAccessibleText();

    QStringList words_;
    std::vector<HeatCell> cells_, before_;
    std::vector<int> markOrder_; // per cell: index into marks_, or -1
    std::vector<CellMark> marks_;
    std::vector<CellHighlight> highlights_;
    int revealed_ = 0;
    double lo_ = 0, hi_ = 1;
    QString scaleTitle_;
    int decimals_ = 2;
    ColorMapKind colorMap_ = ColorMapKind::Viridis;
    std::function<QString(int, int)> tooltip_;
    bool legendVisible_ = true;
    bool changeLegend_ = true;
    QString outlineName_, dotName_;
    AnimationMode mode_ = AnimationMode::Instant;
    int stepMs_ = 120;
    QTimer timer_;
    QElapsedTimer clock_;
    std::pair<int, int> focus_{0, 1};
    Layout lay_;
    bool layerCacheOn_ = true, layerValid_ = false;
    QImage layer_;
    QImage scratch_;                   // refreshLayer's drawing area for changed cells (reused)
    std::vector<HeatCell> layerCells_; // the shown state of each cell as layer_ has it
    int lastLayerCells_ = 0;
};

} // namespace prunescope::widgets
