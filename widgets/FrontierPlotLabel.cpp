// The frontier plot's legend entries for its items and the placement of its λ label
// (Vieira & Eisner 2017, sec. 7 Fig. 2): see FrontierPlot.h, FrontierPlotLegend.h,
// LabelPlacement.h.
#include "widgets/FrontierPlot.h"
#include "widgets/FrontierPlotLegend.h"

#include <algorithm>
#include <cmath>

namespace prunescope::widgets {

namespace {
const QColor kGlyphLegendColor(31, 119, 180); // the baseline colour; LOLS glyphs are drawn red
constexpr double kGlyphRadius = 31;           // arrows and cones reach 30 px from their point

// A plottable's line as pixel segments and its markers as disks.
void addPlottable(LabelObstacles& o, const QCPAbstractPlottable* pl) {
    const QCPAxis* xa = pl->keyAxis();
    const QCPAxis* ya = pl->valueAxis();
    std::vector<QPointF> px;
    bool step = false, line = true;
    double marker = 0;
    if (const auto* g = qobject_cast<const QCPGraph*>(pl)) {
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
            px.emplace_back(xa->coordToPixel(it->key), ya->coordToPixel(it->value));
        line = g->lineStyle() != QCPGraph::lsNone;
        step = g->lineStyle() == QCPGraph::lsStepLeft;
        if (g->scatterStyle().shape() != QCPScatterStyle::ssNone)
            marker = g->scatterStyle().size() / 2 + g->scatterStyle().pen().widthF() + 1;
    } else if (const auto* c = qobject_cast<const QCPCurve*>(pl)) {
        for (auto it = c->data()->constBegin(); it != c->data()->constEnd(); ++it)
            px.emplace_back(xa->coordToPixel(it->key), ya->coordToPixel(it->value));
    }
    for (std::size_t i = 0; i < px.size(); ++i) {
        if (marker > 0) o.disks.push_back({px[i], marker});
        if (!line || i == 0) continue;
        if (step) {
            const QPointF corner(px[i].x(),
                                 px[i - 1].y()); // lsStepLeft: the left point's value, then up/down
            o.segments.emplace_back(px[i - 1], corner);
            o.segments.emplace_back(corner, px[i]);
        } else {
            o.segments.emplace_back(px[i - 1], px[i]);
        }
    }
}
} // namespace

void FrontierPlot::syncGlyphLegend() {
    for (auto* item : glyphLegend_)
        legend->removeItem(item);
    glyphLegend_.clear();
    const bool anyArrow = std::any_of(data_.points.begin(), data_.points.end(),
                                      [](const PlotPolicy& p) { return std::isfinite(p.lambda); });
    const bool anyCone = std::any_of(data_.points.begin(), data_.points.end(),
                                     [](const PlotPolicy& p) { return !p.lambdaRange.empty; });
    auto add = [&](GlyphLegendItem::Glyph g, const QString& text) {
        auto* item = new GlyphLegendItem(legend, g, kGlyphLegendColor, text);
        item->setFont(legend->font());
        legend->addItem(item);
        glyphLegend_.push_back(item);
    };
    if (highlight_ >= 0)
        add(GlyphLegendItem::Glyph::IsoRewardLine, QString::fromUtf8("iso-reward line of \u03bb"));
    if (arrows_ && anyArrow)
        add(GlyphLegendItem::Glyph::Arrow, QString::fromUtf8("\u03bb\u1d62 arrows (fitted)"));
    if (cones_ && anyCone)
        add(GlyphLegendItem::Glyph::Cone, QString::fromUtf8("optimal-\u03bb cones"));
}

LabelObstacles FrontierPlot::labelObstacles() const {
    LabelObstacles o;
    auto* self = const_cast<FrontierPlot*>(this); // QCustomPlot::plottable(int) is not const
    for (int i = 0; i < plottableCount(); ++i)
        if (self->plottable(i)->visible()) addPlottable(o, self->plottable(i));
    for (const PlotPolicy& p : data_.points)
        if ((arrows_ && std::isfinite(p.lambda)) || (cones_ && !p.lambdaRange.empty))
            o.disks.push_back(
                {QPointF(xAxis->coordToPixel(p.runtime), yAxis->coordToPixel(p.accuracy)),
                 kGlyphRadius});
    const QPolygonF iso = isoPolyline();
    for (int s = 1; s < iso.size(); ++s)
        o.segments.emplace_back(iso[s - 1], iso[s]);
    if (legend->visible()) o.rects.push_back(QRectF(legend->outerRect()));
    return o;
}

void FrontierPlot::setTitleShown(bool on) {
    if (!title_) {
        title_ = new QCPTextElement(this, QString(), QFont(font().family(), 8));
        title_->setTextColor(QColor(120, 70, 0));
        title_->setVisible(false); // not in the layout until needed
    }
    title_->setText(lambdaLabelText());
    if (on == titleShown_) return;
    titleShown_ = on;
    if (on) {
        plotLayout()->insertRow(0);
        plotLayout()->addElement(0, 0, title_);
    } else {
        plotLayout()->take(title_);
        plotLayout()->simplify();
    }
    title_->setVisible(on);
}

bool FrontierPlot::placeLambdaLabel() {
    if (!highlightLabel_) return false;
    const bool wasShown = titleShown_;
    if (highlight_ < 0) {
        highlightLabel_->setVisible(false);
        setTitleShown(false);
        return wasShown != titleShown_;
    }
    if (titleMode_ && viewport().size() != titleSize_)
        titleMode_ = false; // another size: look again
    if (!titleMode_) {
        // The label's size from its own anchors (font, padding and text as drawn).
        highlightLabel_->position->setCoords(0, 0);
        const QSizeF size(highlightLabel_->bottomRight->pixelPosition().x() -
                              highlightLabel_->topLeft->pixelPosition().x(),
                          highlightLabel_->bottomRight->pixelPosition().y() -
                              highlightLabel_->topLeft->pixelPosition().y());
        if (const auto r = findFreeLabelRect(size, QRectF(axisRect()->rect()), labelObstacles())) {
            highlightLabel_->position->setCoords(r->topLeft());
            highlightLabel_->setVisible(true);
            setTitleShown(false);
            return wasShown != titleShown_;
        }
        titleMode_ =
            true; // kept until the selection, λ or the size changes, so the layout does not flip
        titleSize_ = viewport().size();
    }
    highlightLabel_->setVisible(false);
    setTitleShown(true);
    return wasShown != titleShown_;
}

void FrontierPlot::updateLayout() {
    QCustomPlot::updateLayout();
    // Showing or hiding the title changes the axis rect: lay out again and place for that layout.
    for (int pass = 0; pass < 3 && placeLambdaLabel(); ++pass)
        QCustomPlot::updateLayout();
}

QRectF FrontierPlot::lambdaLabelRect() const {
    if (!highlightLabel_ || !highlightLabel_->visible()) return {};
    return QRectF(highlightLabel_->topLeft->pixelPosition(),
                  highlightLabel_->bottomRight->pixelPosition());
}

QStringList FrontierPlot::legendEntries() const {
    QStringList out;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (auto* p = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
            out << p->plottable()->name();
        else if (const auto* g = qobject_cast<GlyphLegendItem*>(legend->item(i)))
            out << g->text();
    }
    return out;
}

} // namespace prunescope::widgets
