#include "widgets/ChartHeatMap.h"

#include <QAccessible>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QRegularExpression>
#include <QToolTip>

#include <algorithm>

namespace prunescope::widgets {
namespace {

constexpr double kHeatMargin = 8;
constexpr double kLegendRowMin = 22;

QColor blendWhite(const QColor& c, double f) {
    return QColor::fromRgbF(c.redF() + (1 - c.redF()) * f, c.greenF() + (1 - c.greenF()) * f,
                            c.blueF() + (1 - c.blueF()) * f);
}

// A glyph per change kind, so kinds are told apart by shape as well as colour.
QPainterPath kindGlyph(ChangeKind k, QPointF c, double r) {
    QPainterPath path;
    switch (k) {
    case ChangeKind::Rose:
        path.moveTo(c.x(), c.y() - r);
        path.lineTo(c.x() + r, c.y() + r * 0.8);
        path.lineTo(c.x() - r, c.y() + r * 0.8);
        path.closeSubpath();
        break;
    case ChangeKind::Fell:
        path.moveTo(c.x(), c.y() + r);
        path.lineTo(c.x() + r, c.y() - r * 0.8);
        path.lineTo(c.x() - r, c.y() - r * 0.8);
        path.closeSubpath();
        break;
    case ChangeKind::Appeared: {
        double t = r * 0.38;
        path.addRect(c.x() - t, c.y() - r, 2 * t, 2 * r);
        path.addRect(c.x() - r, c.y() - t, 2 * r, 2 * t);
        path.setFillRule(Qt::WindingFill);
        break;
    }
    case ChangeKind::Vanished: {
        double t = r * 0.32;
        path.addRect(c.x() - r, c.y() - t, 2 * r, 2 * t);
        break;
    }
    }
    return path;
}

} // namespace

QString changeKindName(ChangeKind k) {
    switch (k) {
    case ChangeKind::Rose: return QObject::tr("rose");
    case ChangeKind::Fell: return QObject::tr("fell");
    case ChangeKind::Appeared: return QObject::tr("appeared");
    case ChangeKind::Vanished: return QObject::tr("vanished");
    }
    return {};
}

QColor changeKindColor(ChangeKind k) {
    switch (k) {
    case ChangeKind::Rose: return okabeito::kBlue;
    case ChangeKind::Fell: return okabeito::kOrange;
    case ChangeKind::Appeared: return okabeito::kBluishGreen;
    case ChangeKind::Vanished: return okabeito::kVermillion;
    }
    return Qt::black;
}

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
    int n = length();
    cells_.assign(static_cast<std::size_t>(n + 1) * (n + 1), HeatCell{});
    highlights_.clear();
    clearChanges();
    focus_ = {0, n > 0 ? 1 : 0};
    relayout();
    update();
}

void ChartHeatMap::setCells(std::vector<HeatCell> cells) {
    if (cells.size() == cells_.size()) cells_ = std::move(cells);
    update();
}

void ChartHeatMap::setScale(double lo, double hi, const QString& title, int decimals) {
    lo_ = lo;
    hi_ = hi > lo ? hi : lo + 1;
    const bool legendChanged = title != scaleTitle_ || decimals != decimals_;
    scaleTitle_ = title;
    decimals_ = decimals;
    if (legendChanged) relayout();
    update();
}

void ChartHeatMap::setColorMap(ColorMapKind kind) {
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
    marks_ = std::move(marks);
    before_ = before.size() == cells_.size() ? std::move(before) : cells_;
    markOrder_.assign(cells_.size(), -1);
    for (std::size_t m = 0; m < marks_.size(); ++m) markOrder_[index(marks_[m].i, marks_[m].k)] = static_cast<int>(m);
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
    update();
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
    QString s = tr("Span %1 to %2, %3, %4").arg(i).arg(k).arg(c.kept ? tr("kept") : tr("pruned"))
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
    for (const auto& w : words_) maxWord = std::max(maxWord, fm.horizontalAdvance(w.left(16)));
    L.rotateWords = maxWord + 6 > L.cw;
    // Rotated words do not overlap while the column width times sin(angle) exceeds the line height.
    if (L.rotateWords) L.wordAngle = std::max(45.0, std::asin(std::min(1.0, fm.height() / L.cw)) * 180 / M_PI);
    const double sinA = std::sin(L.wordAngle * M_PI / 180);
    double wordsH = fm.height() + 4 + (L.rotateWords ? maxWord * sinA + fm.height() * 0.7 : fm.height());
    double avail = H - L.legendH - wordsH;
    L.ch = std::clamp(avail / n, 2.0, std::max(2.0, L.cw * 0.8));
    L.left = kHeatMargin + (W - L.cw * n) / 2;
    L.top = kHeatMargin + L.legendH + std::max(0.0, avail - L.ch * n) * 0.35;
    L.baseY = L.top + L.ch * n;
    lay_ = L;
}

QRectF ChartHeatMap::cellRect(int i, int k) const {
    int n = length();
    int w = k - i;
    return QRectF(lay_.left + i * lay_.cw + (w - 1) * lay_.cw / 2, lay_.top + (n - w) * lay_.ch, lay_.cw, lay_.ch);
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

void ChartHeatMap::resizeEvent(QResizeEvent*) { relayout(); }

void ChartHeatMap::changeEvent(QEvent* e) {
    if (e->type() == QEvent::FontChange) {
        relayout();
        update();
    }
    QWidget::changeEvent(e);
}

void ChartHeatMap::paintEvent(QPaintEvent* ev) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    int n = length();
    if (n == 0) {
        p.setPen(palette().text().color());
        p.drawText(rect(), Qt::AlignCenter, tr("No sentence"));
        return;
    }
    p.setRenderHint(QPainter::Antialiasing, lay_.cw > 8);
    QRectF dirty = ev->rect();
    for (int w = n; w >= 1; --w)
        for (int i = 0; i + w <= n; ++i)
            if (cellRect(i, i + w).adjusted(-4, -4, 4, 4).intersects(dirty)) paintCell(p, i, i + w);
    // Change marks above cells, newest last.
    for (int m = 0; m < revealed_ && m < totalChanges(); ++m) {
        const CellMark& mk = marks_[m];
        QRectF r = cellRect(mk.i, mk.k);
        if (r.adjusted(-4, -4, 4, 4).intersects(dirty)) paintMark(p, r, mk, m == revealed_ - 1 && mode_ != AnimationMode::Instant);
    }
    for (const CellHighlight& h : highlights_)
        if (h.k <= n && h.i < h.k) paintHighlight(p, h);
    // Keyboard focus.
    if (hasFocus()) {
        QRectF r = cellRect(focus_.first, focus_.second).adjusted(-2, -2, 2, 2);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::white, 4));
        p.drawRect(r);
        p.setPen(QPen(palette().highlight().color(), 2, Qt::DashLine));
        p.drawRect(r);
    }
    paintWords(p);
    if (legendVisible_) paintLegend(p);
}

QColor ChartHeatMap::cellFill(const HeatCell& c, bool kept) const {
    const QColor fill = colorMapAt(colorMap_, normalized(c.value));
    return kept || isDiverging(colorMap_) ? fill : blendWhite(fill, 0.62);
}

QColor ChartHeatMap::cellFill(int i, int k) const {
    const std::size_t idx = index(i, k);
    const bool pending = !markOrder_.empty() && markOrder_[idx] >= revealed_;
    return cellFill(pending && !before_.empty() ? before_[idx] : cells_[idx], cells_[idx].kept);
}

void ChartHeatMap::paintCell(QPainter& p, int i, int k) const {
    int n = length();
    std::size_t idx = index(i, k);
    bool pending = !markOrder_.empty() && markOrder_[idx] >= revealed_;
    const HeatCell& after = cells_[idx];
    const HeatCell& c = pending && !before_.empty() ? before_[idx] : after;
    double gap = lay_.cw > 10 ? 1 : 0;
    QRectF r = cellRect(i, k).adjusted(gap, gap, -gap, -gap);
    const QColor fill = cellFill(c, after.kept);
    const bool kept = after.kept;
    p.setPen(Qt::NoPen);
    p.fillRect(r, fill);
    if (!kept) {
        // On a diverging map the colour is kept exact: the hatching takes the contrasting colour instead.
        QColor hatch = isDiverging(colorMap_) ? contrastingText(fill) : QColor(40, 40, 40);
        hatch.setAlpha(170);
        p.fillRect(r, QBrush(hatch, lay_.cw > 14 ? Qt::BDiagPattern : Qt::Dense6Pattern));
    }
    bool prunable = k - i > 1 && k - i < n;
    if (!prunable && lay_.cw > 6) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(QColor(90, 90, 90), 1, Qt::DotLine));
        p.drawRect(r.adjusted(2, 2, -2, -2));
    }
    if (after.gold) {
        double t = std::clamp(lay_.cw * 0.06, 1.5, 3.0);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::black, t + 1.5, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        p.drawRect(r.adjusted(t / 2, t / 2, -t / 2, -t / 2));
        p.setPen(QPen(Qt::white, 1));
        p.drawRect(r.adjusted(t + 1.2, t + 1.2, -t - 1.2, -t - 1.2));
    }
    if (after.best) {
        double rad = std::clamp(std::min(r.width(), r.height()) * 0.13, 1.5, 6.0);
        QPointF ctr(r.right() - rad - std::min(5.0, r.width() * 0.12), r.top() + rad + std::min(5.0, r.height() * 0.15));
        p.setPen(QPen(Qt::black, rad > 2.5 ? 1.2 : 0.6));
        p.setBrush(Qt::white);
        p.drawEllipse(ctr, rad, rad);
    }
    // Level of detail: value and label when both fit; else the label alone when it fits (what a
    // class reads first); else the value alone when it fits.
    const bool hasValue = !std::isnan(c.value);
    QFont f = font();
    f.setPointSizeF(std::clamp(r.height() * 0.33, 6.0, font().pointSizeF()));
    QString v = hasValue ? QString::number(c.value, 'f', decimals_) : QString();
    if (v.startsWith('-') && !v.contains(QRegularExpression("[1-9]"))) v.remove(0, 1);  // no "-0.000"
    QFont labelFont = font();
    labelFont.setPointSizeF(std::clamp(r.height() * 0.5, 6.0, font().pointSizeF()));
    const bool labelFits = !c.label.isEmpty() && r.height() >= 12 &&
                           QFontMetricsF(labelFont).horizontalAdvance(c.label) + 4 <= r.width();
    p.setPen(kept || isDiverging(colorMap_) ? contrastingText(fill) : QColor(Qt::black));
    if (hasValue && !c.label.isEmpty() && r.height() >= 36 && r.width() >= 44) {
        p.setFont(f);
        QFontMetricsF fm(f);
        QRectF top = r.adjusted(3, 2, -3, -r.height() / 2);
        QRectF bottom = r.adjusted(3, r.height() / 2, -3, -2);
        p.drawText(top, Qt::AlignHCenter | Qt::AlignBottom, v);
        p.drawText(bottom, Qt::AlignHCenter | Qt::AlignTop, fm.elidedText(c.label, Qt::ElideRight, bottom.width()));
    } else if (labelFits) {
        p.setFont(labelFont);
        p.drawText(r, Qt::AlignCenter, c.label);
    } else if (hasValue && r.width() >= 34 && r.height() >= 15) {
        p.setFont(f);
        p.drawText(r, Qt::AlignCenter, v);
    }
    p.setFont(font());
}

void ChartHeatMap::paintMark(QPainter& p, const QRectF& r, const CellMark& m, bool newest) const {
    QColor col = changeKindColor(m.kind);
    double t = std::clamp(lay_.cw * 0.05, 1.5, 3.0) + (newest ? 1.5 : 0);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(col, t, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.drawRect(r.adjusted(t / 2 + 1, t / 2 + 1, -t / 2 - 1, -t / 2 - 1));
    if (newest) {
        p.setPen(QPen(Qt::black, 1, Qt::DashLine));
        p.drawRect(r.adjusted(-2, -2, 2, 2));
    }
    double rad = std::clamp(std::min(r.width(), r.height()) * 0.16, 2.5, 7.0);
    QPointF c(r.left() + rad + std::min(4.0, r.width() * 0.1), r.bottom() - rad - std::min(4.0, r.height() * 0.1));
    p.setPen(QPen(Qt::white, rad > 3 ? 1.5 : 0.8));
    p.setBrush(col);
    p.drawPath(kindGlyph(m.kind, c, rad));
}

void ChartHeatMap::paintHighlight(QPainter& p, const CellHighlight& h) const {
    const QRectF r = cellRect(h.i, h.k);
    const double t = std::clamp(lay_.cw * 0.07, 2.0, 4.0);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(Qt::white, t + 2, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.drawRect(r.adjusted(t / 2, t / 2, -t / 2, -t / 2));
    p.setPen(QPen(h.color, t, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.drawRect(r.adjusted(t / 2, t / 2, -t / 2, -t / 2));
    if (h.tag.isEmpty() || r.height() < 16) return;
    QFont f = font();
    f.setPointSizeF(std::clamp(r.height() * 0.22, 6.0, font().pointSizeF() * 0.9));
    f.setBold(true);
    const QFontMetricsF fm(f);
    const QRectF box(r.left() + t, r.top() + t, std::min(fm.horizontalAdvance(h.tag) + 6, r.width() - 2 * t), fm.height());
    p.fillRect(box, h.color);
    p.setFont(f);
    p.setPen(contrastingText(h.color));
    p.drawText(box, Qt::AlignCenter, fm.elidedText(h.tag, Qt::ElideRight, box.width() - 2));
    p.setFont(font());
}

void ChartHeatMap::paintWords(QPainter& p) const {
    int n = length();
    QFontMetricsF fm(font());
    p.setPen(palette().text().color());
    double y = lay_.baseY + 2;
    // Fence-post indices at the cell boundaries, so spans (i,k) can be read off.
    bool indices = lay_.cw >= 16;
    if (indices) {
        QFont f = font();
        f.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.8));
        p.setFont(f);
        p.setPen(palette().placeholderText().color());
        for (int i = 0; i <= n; ++i) {
            if (lay_.cw < 26 && i % 5 != 0 && i != n) continue;
            double x = lay_.left + i * lay_.cw;
            p.drawText(QRectF(x - 20, y, 40, fm.height()), Qt::AlignHCenter | Qt::AlignTop, QString::number(i));
        }
        p.setFont(font());
        p.setPen(palette().text().color());
    }
    y += fm.height() * (indices ? 0.9 : 0.2);
    for (int i = 0; i < n; ++i) {
        QString w = words_[i].length() > 16 ? words_[i].left(15) + QChar(0x2026) : words_[i];
        double cx = lay_.left + (i + 0.5) * lay_.cw;
        if (!lay_.rotateWords) {
            p.drawText(QRectF(cx - lay_.cw / 2, y, lay_.cw, fm.height() + 2), Qt::AlignHCenter | Qt::AlignTop, w);
        } else {
            p.save();
            // At 45° the start sits right of the column centre; steeper, the glyphs' middle line meets it.
            const double a = lay_.wordAngle;
            p.translate(a <= 45 ? cx + fm.ascent() * 0.3 : cx - fm.ascent() * 0.4 * std::sin(a * M_PI / 180) + 2, y + 2);
            p.rotate(a);
            p.drawText(QPointF(0, 0), w);
            p.restore();
        }
    }
}

double ChartHeatMap::legendRow() const { return std::max(kLegendRowMin, QFontMetricsF(font()).height() + 6); }

// The legend's items in paint order (widths as paintLegend lays them out).
std::vector<double> ChartHeatMap::legendItemWidths() const {
    QFontMetricsF fm(font());
    QString loS = QString::number(lo_, 'f', decimals_), hiS = QString::number(hi_, 'f', decimals_);
    std::vector<double> w{fm.horizontalAdvance(scaleTitle_) + 8 + fm.horizontalAdvance(loS) + 4 + 140 + 4 + fm.horizontalAdvance(hiS)};
    QStringList texts{tr("kept"), tr("pruned (hatched)"), outlineName_.isEmpty() ? tr("gold span") : outlineName_,
                      dotName_.isEmpty() ? tr("best parse") : dotName_, tr("not prunable")};
    if (changeLegend_)
        for (ChangeKind k : {ChangeKind::Rose, ChangeKind::Fell, ChangeKind::Appeared, ChangeKind::Vanished}) texts << changeKindName(k);
    for (const QString& t : texts) w.push_back(22 + fm.horizontalAdvance(t));
    return w;
}

int ChartHeatMap::legendRows(double right) const {
    double x = kHeatMargin;
    int rows = 1;
    for (double w : legendItemWidths()) {
        if (x + w > right && x > kHeatMargin) {
            x = kHeatMargin;
            ++rows;
        }
        x += w + 16;
    }
    return rows;
}

void ChartHeatMap::paintLegend(QPainter& p) const {
    QFontMetricsF fm(font());
    const double kLegendRow = legendRow();
    double x = kHeatMargin, y = kHeatMargin;
    double right = width() - kHeatMargin;
    p.setRenderHint(QPainter::Antialiasing, true);
    auto advance = [&](double w) {
        if (x + w > right && x > kHeatMargin) {
            x = kHeatMargin;
            y += kLegendRow;
        }
        double at = x;
        x += w + 16;
        return at;
    };
    // Colour bar.
    QString loS = QString::number(lo_, 'f', decimals_), hiS = QString::number(hi_, 'f', decimals_);
    double barW = 140;
    double itemW = fm.horizontalAdvance(scaleTitle_) + 8 + fm.horizontalAdvance(loS) + 4 + barW + 4 + fm.horizontalAdvance(hiS);
    double x0 = advance(itemW);
    QRectF box(0, y + 3, 0, kLegendRow - 8);
    p.setPen(palette().text().color());
    p.drawText(QRectF(x0, y, itemW, kLegendRow), Qt::AlignVCenter | Qt::AlignLeft, scaleTitle_);
    double bx = x0 + fm.horizontalAdvance(scaleTitle_) + 8;
    p.drawText(QRectF(bx, y, fm.horizontalAdvance(loS) + 1, kLegendRow), Qt::AlignVCenter, loS);
    bx += fm.horizontalAdvance(loS) + 4;
    QLinearGradient g(bx, 0, bx + barW, 0);
    for (int s = 0; s <= 10; ++s) g.setColorAt(s / 10.0, colorMapAt(colorMap_, s / 10.0));
    p.fillRect(QRectF(bx, box.top(), barW, box.height()), g);
    if (isDiverging(colorMap_) && lo_ < 0 && hi_ > 0) {  // mark the neutral 0 of a signed scale
        const double zx = bx + barW * (-lo_ / (hi_ - lo_));
        p.setPen(QPen(Qt::black, 1));
        p.drawLine(QPointF(zx, box.top()), QPointF(zx, box.top() + 3));
        p.drawLine(QPointF(zx, box.bottom() - 3), QPointF(zx, box.bottom()));
        QFont small = font();
        small.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.8));
        p.setFont(small);
        p.drawText(QRectF(zx - 10, box.top(), 20, box.height()), Qt::AlignCenter, "0");
        p.setFont(font());
        p.setPen(palette().text().color());
    }
    p.drawText(QRectF(bx + barW + 4, y, fm.horizontalAdvance(hiS) + 1, kLegendRow), Qt::AlignVCenter, hiS);

    auto swatch = [&](const QString& text, auto&& draw) {
        double w = 22 + fm.horizontalAdvance(text);
        double at = advance(w);
        QRectF s(at, y + 3, 16, kLegendRow - 6);
        draw(s);
        p.setPen(palette().text().color());
        p.setBrush(Qt::NoBrush);
        p.drawText(QRectF(at + 20, y, w, kLegendRow), Qt::AlignVCenter | Qt::AlignLeft, text);
    };
    QColor mid = colorMapAt(colorMap_, 0.55);
    swatch(tr("kept"), [&](QRectF s) { p.fillRect(s, mid); });
    swatch(tr("pruned (hatched)"), [&](QRectF s) {
        p.fillRect(s, blendWhite(mid, 0.62));
        p.fillRect(s, QBrush(QColor(40, 40, 40, 170), Qt::BDiagPattern));
    });
    swatch(outlineName_.isEmpty() ? tr("gold span") : outlineName_, [&](QRectF s) {
        p.fillRect(s, mid);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::black, 2.5));
        p.drawRect(s.adjusted(1, 1, -1, -1));
    });
    swatch(dotName_.isEmpty() ? tr("best parse") : dotName_, [&](QRectF s) {
        p.fillRect(s, mid);
        p.setPen(QPen(Qt::black, 1.2));
        p.setBrush(Qt::white);
        p.drawEllipse(s.center(), 4, 4);
    });
    swatch(tr("not prunable"), [&](QRectF s) {
        p.fillRect(s, mid);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(QColor(90, 90, 90), 1, Qt::DotLine));
        p.drawRect(s.adjusted(2, 2, -2, -2));
    });
    if (!changeLegend_) return;
    for (ChangeKind k : {ChangeKind::Rose, ChangeKind::Fell, ChangeKind::Appeared, ChangeKind::Vanished}) {
        swatch(changeKindName(k), [&](QRectF s) {
            p.setPen(QPen(changeKindColor(k), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(s.adjusted(1, 1, -1, -1));
            p.setPen(QPen(Qt::white, 1));
            p.setBrush(changeKindColor(k));
            p.drawPath(kindGlyph(k, s.center(), 5));
        });
    }
}

void ChartHeatMap::mousePressEvent(QMouseEvent* e) {
    setFocus(Qt::MouseFocusReason);
    if (e->button() != Qt::LeftButton) return;
    if (auto c = cellAt(e->position())) {
        setFocusCell(c->first, c->second);
        emit cellActivated(c->first, c->second);
    }
}

void ChartHeatMap::keyPressEvent(QKeyEvent* e) {
    auto [i, k] = focus_;
    int w = k - i;
    switch (e->key()) {
    case Qt::Key_Left: setFocusCell(i - 1, k - 1); break;
    case Qt::Key_Right: setFocusCell(i + 1, k + 1); break;
    case Qt::Key_Up: setFocusCell(i, i + w + 1); break;     // wider span (one row up)
    case Qt::Key_Down: setFocusCell(i, i + w - 1); break;   // narrower span
    case Qt::Key_Home: setFocusCell(0, length()); break;    // the root cell
    case Qt::Key_Space:
    case Qt::Key_Return:
    case Qt::Key_Enter: emit cellActivated(i, k); break;
    default: QWidget::keyPressEvent(e); return;
    }
    e->accept();
}

bool ChartHeatMap::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        auto c = cellAt(he->pos());
        if (c && tooltip_) QToolTip::showText(he->globalPos(), tooltip_(c->first, c->second), this,
                                              cellRect(c->first, c->second).toAlignedRect());
        else QToolTip::hideText();
        return true;
    }
    if (e->type() == QEvent::FocusIn || e->type() == QEvent::FocusOut) update();
    return QWidget::event(e);
}

} // namespace prunescope::widgets
