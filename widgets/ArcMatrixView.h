#pragma once
// The dependency arc matrix (Rush & Petrov 2012's pruning picture): one cell per possible arc,
// rows = heads (row 0 = the root), columns = modifiers. Colour shows either the arc's
// max-marginal relative to the best tree (a colour bar, 0 = on a best tree) or the stage that
// pruned it (a swatch legend). Nothing is told by colour alone: pruned arcs are hatched, gold arcs
// outlined, predicted arcs dotted, and arcs whose bit the user flipped carry a corner mark.
// Click (or Space on the focused cell) emits arcActivated(h, m).
#include "widgets/ColorMap.h"

#include <QStringList>
#include <QWidget>

#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace prunescope::widgets {

struct ArcCell {
    float value = std::numeric_limits<float>::quiet_NaN(); // max-marginal - best (<= 0); NaN = no
                                                           // tree uses it
    bool kept = true;                                      // in the mask of the final parse
    int prunedBy = -1;    // stage index that pruned it, -1 = no stage
    bool flipped = false; // the user overrode the stages' decision
    bool gold = false;
    bool predicted = false;
    int event =
        -1; // pruned by an arc filter: the event that filtered it (index into setEventNames)
    bool differs = false; // the other loaded arc filter decides this arc differently (outlined)
};

enum class ArcColoring { MaxMarginal, Stage };

class ArcMatrixView : public QWidget {
    Q_OBJECT
  public:
    explicit ArcMatrixView(QWidget* parent = nullptr);

    // words[0] = the root; resets the cells (n + 1) x (n + 1), indexed h * (n + 1) + m.
    void setWords(const QStringList& words);
    int length() const { return static_cast<int>(words_.size()) - 1; } // n
    const QStringList& words() const { return words_; }
    void setCells(std::vector<ArcCell> cells);
    const ArcCell& cell(int h, int m) const { return cells_[index(h, m)]; }
    // Names of the pipeline's stages (legend and tooltips in stage colouring).
    void setStageNames(const QStringList& names);
    // Arc filter events (Cherry & Bergsma 2011): names of ArcCell::event values (stage colouring
    // shows a filtered arc in its event's colour, with a legend row), a label per token (index 0 =
    // root, unused) drawn under the matrix (the detected roles), and what a `differs` outline
    // means.
    void setEventNames(const QStringList& names);
    void setTokenNotes(const QStringList& notes);
    void setDiffersLabel(const QString& label);
    static QColor eventColor(int event);
    // Max-marginal colour scale: values in [lo, 0] (lo < 0) map onto the colour map.
    void setScaleLow(double lo);
    double scaleLow() const { return lo_; }
    void setColoring(ArcColoring c);
    ArcColoring coloring() const { return coloring_; }
    void setColorMap(ColorMapKind k);
    void setTooltipProvider(std::function<QString(int, int)> f) { tooltip_ = std::move(f); }
    void setMessage(const QString& m);

    // The colour a cell is filled with (tests and the legend use it).
    QColor cellColor(int h, int m) const;
    static QColor stageColor(int stage); // -1 = kept, -2 = pruned by the user
    // The colour of stage `stage` of the current stages, by its name ("filter", "vine",
    // "first-order"; others in order), the same whichever stages come before it.
    QColor stageColorOf(int stage) const;
    QRectF cellRect(int h, int m) const;
    std::optional<std::pair<int, int>> cellAt(QPointF p) const;
    std::pair<int, int> focusCell() const { return focus_; }
    void setFocusCell(int h, int m);

    QSize sizeHint() const override { return {760, 640}; }
    QSize minimumSizeHint() const override { return {260, 220}; }

  signals:
    void arcActivated(int h, int m);

  protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    bool event(QEvent*) override;

  private:
    struct Layout {
        double left = 0, top = 0, cell = 0, legendTop = 0;
    };
    std::size_t index(int h, int m) const {
        return static_cast<std::size_t>(h) * static_cast<std::size_t>(length() + 1) +
               static_cast<std::size_t>(m);
    }
    Layout layout() const;
    void paintLegend(QPainter& p, const Layout& L) const;

    double notesHeight() const;
    QStringList words_, stages_, events_, notes_;
    QString differsLabel_;
    std::vector<ArcCell> cells_;
    double lo_ = -10;
    ArcColoring coloring_ = ArcColoring::MaxMarginal;
    ColorMapKind colorMap_ = ColorMapKind::Viridis;
    std::function<QString(int, int)> tooltip_;
    QString message_;
    std::pair<int, int> focus_{0, 1};
};

} // namespace prunescope::widgets
