// ChartHeatMap state, geometry and input: cells, scale, change animation, focus, hit tests.
#include "widgets/ChartHeatMap.h"
#include "widgets/ChartHeatMapDraw.h"

#include <QAccessible>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace prunescope::widgets {

using heatdraw::cellPixels;
using heatdraw::kHeatMargin;
using heatdraw::sameShown;

ChartHeatMap::ChartHeatMap(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAccessibleName(tr("Chart heat map"));
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, &ChartHeatMap::onTimer);
}

void ChartHeatMap::setWords(const QStringList& words) {
    words_ = words;
    invalidateLayer();
    int n = length();
    cells_.assign(static_cast<std::size_t>(n + 1) * (n + 1), HeatCell{});
    highlights_.clear();
    clearChanges();
    focus_ = {0, n > 0 ? 1 : 0};
    relayout();
    update();
}

// Marks the cells whose own state changed (a new value, label or marker); what they show may
// also depend on the change animation (shownCell), whose changes update the marked cells.
void ChartHeatMap::setCells(std::vector<HeatCell> cells) {
    if (cells.size() != cells_.size()) return update();
    const int n = length();
    QRegion dirty;
    for (int w = n; w >= 1; --w)
        for (int i = 0; i + w <= n; ++i) {
            const std::size_t idx = index(i, i + w);
            if (!sameShown(cells[idx], cells_[idx])) dirty += cellPixels(cellRect(i, i + w));
        }
    cells_ = std::move(cells);
    updateArea(dirty);
}

// After a click only a few cells and change marks differ: their pixels are repainted, not the whole
// widget (issue 18). Many scattered rectangles are joined into their bounding rectangle.
void ChartHeatMap::updateArea(const QRegion& r) {
    if (r.isEmpty()) return;
    if (r.rectCount() > 48)
        update(r.boundingRect());
    else
        update(r);
}

QRegion ChartHeatMap::marksArea() const {
    QRegion r;
    for (const CellMark& m : marks_)
        r += cellPixels(cellRect(m.i, m.k));
    return r;
}

void ChartHeatMap::setScale(double lo, double hi, const QString& title, int decimals) {
    const double newHi = hi > lo ? hi : lo + 1;
    if (lo != lo_ || newHi != hi_ || decimals != decimals_)
        invalidateLayer(); // every cell's colour or text
    lo_ = lo;
    hi_ = newHi;
    const bool legendChanged = title != scaleTitle_ || decimals != decimals_;
    scaleTitle_ = title;
    decimals_ = decimals;
    if (legendChanged) relayout();
    if (!layerValid_ || legendChanged) update(); // all cells' colours or the legend
}

void ChartHeatMap::setColorMap(ColorMapKind kind) {
    if (kind != colorMap_) invalidateLayer();
    colorMap_ = kind;
    update();
}

void ChartHeatMap::setMarkerNames(const QString& outline, const QString& dot) {
    outlineName_ = outline;
    dotName_ = dot;
    relayout();
    update();
}

void ChartHeatMap::setChangeLegendVisible(bool on) {
    changeLegend_ = on;
    relayout();
    update();
}

void ChartHeatMap::setLegendVisible(bool on) {
    legendVisible_ = on;
    relayout();
    update();
}

void ChartHeatMap::setAnimationMode(AnimationMode m) {
    mode_ = m;
    if (m == AnimationMode::Instant) finishChanges();
    if (m == AnimationMode::Step) timer_.stop();
    if (m == AnimationMode::Animated && revealed_ < totalChanges()) {
        clock_.restart();
        timer_.start(16);
    }
}

void ChartHeatMap::showChanges(std::vector<CellMark> marks, std::vector<HeatCell> before) {
    timer_.stop();
    QRegion dirty = marksArea(); // the old marks and the cells they showed
    marks_ = std::move(marks);
    before_ = before.size() == cells_.size() ? std::move(before) : cells_;
    markOrder_.assign(cells_.size(), -1);
    for (std::size_t m = 0; m < marks_.size(); ++m)
        markOrder_[index(marks_[m].i, marks_[m].k)] = static_cast<int>(m);
    revealed_ = 0;
    if (mode_ == AnimationMode::Instant || marks_.empty()) {
        revealed_ = totalChanges();
    } else if (mode_ == AnimationMode::Step) {
        revealed_ = 1;
    } else {
        revealed_ = 1;
        clock_.restart();
        timer_.start(16);
    }
    emit changesProgress(revealed_, totalChanges());
    updateArea(dirty + marksArea());
}

void ChartHeatMap::setHighlights(std::vector<CellHighlight> h) {
    if (h == highlights_) return;
    highlights_ = std::move(h);
    update();
}

void ChartHeatMap::clearChanges() {
    timer_.stop();
    marks_.clear();
    before_.clear();
    markOrder_.assign(cells_.size(), -1);
    revealed_ = 0;
    emit changesProgress(0, 0);
    update();
}

void ChartHeatMap::stepChanges() {
    if (revealed_ >= totalChanges()) return;
    ++revealed_;
    emit changesProgress(revealed_, totalChanges());
    update();
}

void ChartHeatMap::finishChanges() {
    timer_.stop();
    if (revealed_ == totalChanges()) return;
    revealed_ = totalChanges();
    emit changesProgress(revealed_, totalChanges());
    update();
}

void ChartHeatMap::onTimer() {
    // Reveal by elapsed time, so short intervals stay exact even at a 60 Hz frame rate.
    int target = std::min(totalChanges(), 1 + static_cast<int>(clock_.elapsed() / stepMs_));
    if (target != revealed_) {
        revealed_ = target;
        emit changesProgress(revealed_, totalChanges());
        update();
    }
    if (revealed_ >= totalChanges()) timer_.stop();
}

void ChartHeatMap::setFocusCell(int i, int k) {
    int n = length();
    if (n == 0) return;
    int w = std::clamp(k - i, 1, n);
    i = std::clamp(i, 0, n - w);
    if (focus_ == std::pair{i, i + w}) return;
    update(cellRect(focus_.first, focus_.second).adjusted(-4, -4, 4, 4).toAlignedRect());
    focus_ = {i, i + w};
    update(cellRect(i, i + w).adjusted(-4, -4, 4, 4).toAlignedRect());
    updateAccessibleText();
    emit focusCellChanged(i, i + w);
}

void ChartHeatMap::updateAccessibleText() {
    int n = length();
    if (n == 0) return;
    auto [i, k] = focus_;
    const HeatCell& c = cell(i, k);
    QString s =
        tr("Span %1 to %2, %3, %4")
            .arg(i)
            .arg(k)
            .arg(c.kept ? tr("kept") : tr("pruned"))
            .arg(std::isnan(c.value) ? tr("no value") : QString::number(c.value, 'f', decimals_));
    if (c.gold) s += ", " + (outlineName_.isEmpty() ? tr("gold span") : outlineName_);
    if (c.best) s += ", " + (dotName_.isEmpty() ? tr("in best parse") : dotName_);
    setAccessibleDescription(s);
    QAccessibleEvent ev(this, QAccessible::DescriptionChanged);
    QAccessible::updateAccessibility(&ev);
}

void ChartHeatMap::relayout() {
    int n = std::max(1, length());
    Layout L;
    QFontMetricsF fm(font());
    double W = width() - 2 * kHeatMargin, H = height() - 2 * kHeatMargin;
    L.cw = std::max(2.0, W / n);
    // Legend rows: the same flow as paintLegend.
    L.legendH = legendVisible_ ? legendRows(width() - kHeatMargin) * legendRow() + 6 : 0;
    double maxWord = 0;
    for (const auto& w : words_)
        maxWord = std::max(maxWord, fm.horizontalAdvance(w.left(16)));
    L.rotateWords = maxWord + 6 > L.cw;
    // Rotated words do not overlap while the column width times sin(angle) exceeds the line height.
    if (L.rotateWords)
        L.wordAngle = std::max(45.0, std::asin(std::min(1.0, fm.height() / L.cw)) * 180 / M_PI);
    const double sinA = std::sin(L.wordAngle * M_PI / 180);
    double wordsH =
        fm.height() + 4 + (L.rotateWords ? maxWord * sinA + fm.height() * 0.7 : fm.height());
    double avail = H - L.legendH - wordsH;
    L.ch = std::clamp(avail / n, 2.0, std::max(2.0, L.cw * 0.8));
    L.left = kHeatMargin + (W - L.cw * n) / 2;
    L.top = kHeatMargin + L.legendH + std::max(0.0, avail - L.ch * n) * 0.35;
    L.baseY = L.top + L.ch * n;
    lay_ = L;
    invalidateLayer();
}

QRectF ChartHeatMap::cellRect(int i, int k) const {
    int n = length();
    int w = k - i;
    return QRectF(lay_.left + i * lay_.cw + (w - 1) * lay_.cw / 2, lay_.top + (n - w) * lay_.ch,
                  lay_.cw, lay_.ch);
}

std::optional<std::pair<int, int>> ChartHeatMap::cellAt(QPointF p) const {
    int n = length();
    if (n == 0 || p.y() < lay_.top || p.y() >= lay_.baseY) return std::nullopt;
    int w = n - static_cast<int>((p.y() - lay_.top) / lay_.ch);
    double x = p.x() - lay_.left - (w - 1) * lay_.cw / 2;
    if (w < 1 || w > n || x < 0) return std::nullopt;
    int i = static_cast<int>(x / lay_.cw);
    if (i > n - w) return std::nullopt;
    return std::pair{i, i + w};
}

double ChartHeatMap::normalized(float v) const {
    if (std::isnan(v)) return std::nan("");
    return (v - lo_) / (hi_ - lo_);
}

void ChartHeatMap::resizeEvent(QResizeEvent*) {
    relayout();
}

void ChartHeatMap::changeEvent(QEvent* e) {
    if (e->type() == QEvent::FontChange) {
        relayout();
        update();
    }
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::StyleChange) {
        invalidateLayer();
        update();
    }
    QWidget::changeEvent(e);
}

void ChartHeatMap::mousePressEvent(QMouseEvent* e) {
    setFocus(Qt::MouseFocusReason);
    if (e->button() != Qt::LeftButton && e->button() != Qt::RightButton) return;
    if (auto c = cellAt(e->position())) {
        setFocusCell(c->first, c->second);
        if (e->button() == Qt::RightButton)
            emit cellInspected(c->first, c->second);
        else
            emit cellActivated(c->first, c->second);
    }
}

void ChartHeatMap::keyPressEvent(QKeyEvent* e) {
    auto [i, k] = focus_;
    int w = k - i;
    switch (e->key()) {
    case Qt::Key_Left:
        setFocusCell(i - 1, k - 1);
        break;
    case Qt::Key_Right:
        setFocusCell(i + 1, k + 1);
        break;
    case Qt::Key_Up:
        setFocusCell(i, i + w + 1);
        break; // wider span (one row up)
    case Qt::Key_Down:
        setFocusCell(i, i + w - 1);
        break; // narrower span
    case Qt::Key_Home:
        setFocusCell(0, length());
        break; // the root cell
    case Qt::Key_Space:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        emit cellActivated(i, k);
        break;
    case Qt::Key_I:
        if (e->modifiers() & ~Qt::KeypadModifier) { // Ctrl+I is the menu's
            QWidget::keyPressEvent(e);
            return;
        }
        emit cellInspected(i, k);
        break;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    e->accept();
}

bool ChartHeatMap::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        auto c = cellAt(he->pos());
        if (c && tooltip_)
            QToolTip::showText(he->globalPos(), tooltip_(c->first, c->second), this,
                               cellRect(c->first, c->second).toAlignedRect());
        else
            QToolTip::hideText();
        return true;
    }
    if (e->type() == QEvent::FocusIn || e->type() == QEvent::FocusOut) update();
    return QWidget::event(e);
}

} // namespace prunescope::widgets
