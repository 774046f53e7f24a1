#pragma once
// A runtime/accuracy frontier plot (Vieira & Eisner 2017, sec. 7, Fig. 2; footnote 12) on
// QCustomPlot, driven by plain structs: policies as points (baseline and LOLS in distinct marker
// shapes and colours), the Pareto frontier, the fitted sigmoid, each baseline's lambda arrow
// (the gradient of accuracy - lambda_i * runtime) and the cone of lambdas for which it is
// optimal, LOLS trajectories as connected points, and the iso-reward line of the current lambda
// through the highlighted policy. The iso-reward line can be dragged to change lambda.
#include "core/frontier/Frontier.h"
#include "widgets/LabelPlacement.h"

#include <qcustomplot.h>

#include <QString>
#include <QStringList>

#include <limits>
#include <optional>
#include <vector>

namespace prunescope::widgets {

enum class PlotPolicyKind { Baseline, Lols, Other, Unpruned };

struct PlotPolicy {
    double runtime = 0, accuracy = 0;
    QString id;
    PlotPolicyKind kind = PlotPolicyKind::Baseline;
    double lambda = std::numeric_limits<double>::quiet_NaN(); // fitted lambda_i = h'(x_i): arrow
    LambdaRange lambdaRange;                                  // cone; empty = none
    bool onFrontier = false;
};

struct FrontierPlotData {
    std::vector<PlotPolicy> points;
    std::optional<SigmoidFit> fit;
    std::vector<std::vector<int>> trajectories; // point indices in iteration order (LOLS runs)
    QString xLabel = "runtime", yLabel = "accuracy";
};

class FrontierPlot : public QCustomPlot {
    Q_OBJECT
  public:
    explicit FrontierPlot(QWidget* parent = nullptr);

    void setPlotData(FrontierPlotData d); // keeps the highlight index if still valid
    const FrontierPlotData& plotData() const { return data_; }
    void setLogX(bool on);
    bool logX() const { return logX_; }
    void setShowLambdaGlyphs(bool arrows, bool cones);
    // Highlights point `index` (-1 = none) and draws the iso-reward line of `lambda` through it.
    void setHighlight(int index, double lambda);
    int highlighted() const { return highlight_; }
    double lambda() const { return lambda_; }
    void rescaleToData();

    // Nearest point within `radius` pixels of a widget position, or -1.
    int pointAt(QPointF pos, double radius = 8) const;
    QPointF pointPixel(int index) const;
    // Distance in pixels from pos to the iso-reward line (infinity without a highlight).
    double isoLineDistance(QPointF pos) const;
    // The lambda >= 0 of the line through the highlighted point and pos (data coordinates).
    double lambdaThrough(QPointF pos) const;

    // The λ label: the selected policy's λ, accuracy, runtime and reward. It sits at the first
    // place in the axis rect that covers no point, curve, arrow, cone or the legend
    // (LabelPlacement.h); if there is none, it moves above the axis rect as the plot's title
    // until the selection, λ or the plot's size changes. lambdaLabelRect() is its pixel rectangle
    // inside the axis rect (empty when hidden or moved to the title).
    QRectF lambdaLabelRect() const;
    bool lambdaLabelInTitle() const { return titleMode_; }
    QString lambdaLabelText() const;
    // What the label must not cover, in pixels, for the current layout.
    LabelObstacles labelObstacles() const;
    // The legend's entries in order (plottables' names and the glyph entries).
    QStringList legendEntries() const;

    // PNG or PDF by extension (width/height 0 = current size), written atomically (ImageExport.h);
    // false with a message in *error on failure.
    bool saveImage(const QString& path, int width = 0, int height = 0, QString* error = nullptr);

  signals:
    void pointClicked(int index);
    void lambdaDragged(double lambda);

  protected:
    void updateLayout() override; // then places the λ label for the new layout
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;

  private:
    void rebuild(); // the steps below, in this order
    void setupAxes();
    void addParetoLine();
    void addFittedSigmoid();
    void addTrajectories();
    void addPointGraphs();
    void addHighlight();
    void updateHighlightItems();
    void syncGlyphLegend();  // FrontierPlotLabel.cpp
    bool placeLambdaLabel(); // true if it changed the layout (title shown or hidden)
    void setTitleShown(bool on);
    QPolygonF isoPolyline() const;

    FrontierPlotData data_;
    bool logX_ = true, arrows_ = true, cones_ = true;
    int highlight_ = -1;
    double lambda_ = 0;
    bool draggingLine_ = false;
    QPointF pressPos_;
    QCPGraph* highlightGraph_ = nullptr;
    QCPItemText* highlightLabel_ = nullptr;
    QCPTextElement* title_ = nullptr; // the λ label's place when no spot in the axis rect is free
    bool titleMode_ = false, titleShown_ = false;
    QSize titleSize_;                                 // the plot size titleMode_ was decided for
    std::vector<QCPAbstractLegendItem*> glyphLegend_; // owned by the legend
    class Glyphs;
    class IsoLine;
    Glyphs* glyphs_ = nullptr;
    IsoLine* iso_ = nullptr;
};

} // namespace prunescope::widgets
