// The dependency arc matrix (ArcMatrixView.h).
#include "widgets/ArcMatrixView.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>

namespace prunescope::widgets {

namespace {
constexpr double kArcMargin = 8, kRowLabelW = 118, kColLabelH = 86, kLegendH = 58;

void hatch(QPainter& p, const QRectF& r) {
    p.save();
    p.setClipRect(r);
    p.setPen(QPen(QColor(0, 0, 0, 110), 1));
    const double step = std::max(4.0, r.width() / 4);
    for (double x = r.left() - r.height(); x < r.right(); x += step)
        p.drawLine(QPointF(x, r.bottom()), QPointF(x + r.height(), r.top()));
    p.restore();
}

void flipMark(QPainter& p, const QRectF& r) {
    const double s = std::max(4.0, r.width() * 0.38);
    QPolygonF tri;
    tri << r.topRight() << QPointF(r.right() - s, r.top()) << QPointF(r.right(), r.top() + s);
    p.setPen(QPen(Qt::black, 0.8));
    p.setBrush(okabeito::kVermillion);
    p.drawPolygon(tri);
}
} // namespace

ArcMatrixView::ArcMatrixView(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAccessibleName(tr("Arc matrix: heads by modifiers"));
}

void ArcMatrixView::setWords(const QStringList& words) {
    words_ = words;
    const int n = length();
    cells_.assign(static_cast<std::size_t>(std::max(0, n + 1)) *
                      static_cast<std::size_t>(std::max(0, n + 1)),
                  ArcCell{});
    focus_ = {0, n > 0 ? 1 : 0};
    message_.clear();
    update();
}

void ArcMatrixView::setCells(std::vector<ArcCell> cells) {
    if (cells.size() == cells_.size()) cells_ = std::move(cells);
    update();
}

void ArcMatrixView::setStageNames(const QStringList& names) {
    stages_ = names;
    update();
}

void ArcMatrixView::setEventNames(const QStringList& names) {
    events_ = names;
    update();
}

void ArcMatrixView::setTokenNotes(const QStringList& notes) {
    notes_ = notes;
    update();
}

void ArcMatrixView::setDiffersLabel(const QString& label) {
    differsLabel_ = label;
    update();
}

QColor ArcMatrixView::eventColor(int event) {
    // NaH, HtL1, HtL5, HtL*, HtR1, HtR5, HtR*, Root, Vine: left roles blue, right roles red/orange
    static const QColor kEvents[] = {
        QColor(0x88, 0x55, 0xAA), QColor(0x9E, 0xC9, 0xE2), QColor(0x4A, 0x90, 0xC8),
        QColor(0x1F, 0x4E, 0x8C), QColor(0xF7, 0xC0, 0x8A), QColor(0xE8, 0x7A, 0x3A),
        QColor(0xA8, 0x3A, 0x1E), QColor(0xF0, 0xE4, 0x42), QColor(0x99, 0x99, 0x99)};
    return kEvents[static_cast<std::size_t>(std::max(0, event)) % std::size(kEvents)];
}

double ArcMatrixView::notesHeight() const {
    for (int i = 1; i < notes_.size(); ++i)
        if (!notes_[i].isEmpty()) return 118;
    return 0;
}

void ArcMatrixView::setScaleLow(double lo) {
    lo_ = lo < 0 ? lo : -1;
    update();
}

void ArcMatrixView::setColoring(ArcColoring c) {
    coloring_ = c;
    update();
}

void ArcMatrixView::setColorMap(ColorMapKind k) {
    colorMap_ = k;
    update();
}

void ArcMatrixView::setMessage(const QString& m) {
    message_ = m;
    update();
}

QColor ArcMatrixView::stageColor(int stage) {
    static const QColor kStages[] = {okabeito::kOrange, okabeito::kReddishPurple, okabeito::kBlue,
                                     okabeito::kYellow, okabeito::kSkyBlue};
    if (stage == -1) return QColor(0xB8, 0xE0, 0xD2); // kept: a light bluish green
    if (stage == -2) return okabeito::kVermillion;    // pruned by the user
    return kStages[static_cast<std::size_t>(stage) % std::size(kStages)];
}

QColor ArcMatrixView::stageColorOf(int stage) const {
    // By the stage's name, so that a stage keeps its colour when a filter is put in front of the
    // cascade (issue 42: loading a filter shifted every stage's colour by one).
    if (stage >= 0 && stage < stages_.size()) {
        const QString& name = stages_[stage];
        if (name == QLatin1String("filter")) return okabeito::kBlue;
        if (name == QLatin1String("vine")) return okabeito::kOrange;
        if (name == QLatin1String("first-order")) return okabeito::kReddishPurple;
        int others = 0; // any other stage: the remaining colours, in stage order
        for (int k = 0; k < stage; ++k)
            others += stages_[k] != QLatin1String("filter") &&
                      stages_[k] != QLatin1String("vine") &&
                      stages_[k] != QLatin1String("first-order");
        static const QColor kOthers[] = {okabeito::kYellow, okabeito::kSkyBlue};
        return kOthers[static_cast<std::size_t>(others) % std::size(kOthers)];
    }
    return stageColor(stage);
}

QColor ArcMatrixView::cellColor(int h, int m) const {
    const ArcCell& c = cell(h, m);
    if (coloring_ == ArcColoring::Stage) {
        if (c.kept) return stageColor(-1);
        if (!c.flipped && c.event >= 0) return eventColor(c.event);
        return c.flipped || c.prunedBy < 0 ? stageColor(-2) : stageColorOf(c.prunedBy);
    }
    if (std::isnan(c.value)) return colorMapAt(colorMap_, std::numeric_limits<double>::quiet_NaN());
    return colorMapAt(colorMap_, 1.0 - std::clamp(static_cast<double>(c.value) / lo_, 0.0, 1.0));
}

ArcMatrixView::Layout ArcMatrixView::layout() const {
    Layout L;
    const int n = std::max(1, length());
    const double extra =
        notesHeight() + (coloring_ == ArcColoring::Stage && !events_.isEmpty() ? 22 : 0);
    const double w = width() - kRowLabelW - 2 * kArcMargin,
                 h = height() - kColLabelH - kLegendH - extra - 2 * kArcMargin;
    L.cell = std::max(4.0, std::min(w / n, h / (n + 1)));
    L.left = kArcMargin + kRowLabelW + std::max(0.0, (w - L.cell * n) / 2); // centred
    L.top = kArcMargin + kColLabelH;
    L.legendTop = L.top + L.cell * (n + 1) + 10 + notesHeight();
    return L;
}

QRectF ArcMatrixView::cellRect(int h, int m) const {
    const Layout L = layout();
    return {L.left + (m - 1) * L.cell, L.top + h * L.cell, L.cell, L.cell};
}

std::optional<std::pair<int, int>> ArcMatrixView::cellAt(QPointF p) const {
    const int n = length();
    if (n < 1) return std::nullopt;
    const Layout L = layout();
    const int m = static_cast<int>(std::floor((p.x() - L.left) / L.cell)) + 1;
    const int h = static_cast<int>(std::floor((p.y() - L.top) / L.cell));
    if (m < 1 || m > n || h < 0 || h > n || h == m) return std::nullopt;
    return std::make_pair(h, m);
}

void ArcMatrixView::setFocusCell(int h, int m) {
    const int n = length();
    if (h < 0 || h > n || m < 1 || m > n) return;
    focus_ = {h, m};
    update();
}

void ArcMatrixView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const int n = length();
    if (n < 1 || !message_.isEmpty()) {
        p.setPen(palette().text().color());
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   message_.isEmpty() ? tr("No sentence") : message_);
        return;
    }
    const Layout L = layout();
    QFont f = font();
    f.setPixelSize(static_cast<int>(std::clamp(L.cell * 0.55, 9.0, 13.0)));
    p.setFont(f);
    // labels: heads on the left, modifiers rotated on top
    p.setPen(palette().text().color());
    for (int h = 0; h <= n; ++h) {
        const QRectF r(L.left - kRowLabelW, L.top + h * L.cell, kRowLabelW - 6, L.cell);
        p.drawText(r, Qt::AlignRight | Qt::AlignVCenter,
                   p.fontMetrics().elidedText(QStringLiteral("%1 %2").arg(words_[h]).arg(h),
                                              Qt::ElideLeft, static_cast<int>(r.width())));
    }
    for (int m = 1; m <= n; ++m) {
        p.save();
        p.translate(L.left + (m - 0.5) * L.cell, L.top - 4);
        p.rotate(-60);
        p.drawText(QRectF(0, -L.cell / 2, kColLabelH * 1.12, L.cell),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   p.fontMetrics().elidedText(QStringLiteral("%1 %2").arg(m).arg(words_[m]),
                                              Qt::ElideRight, static_cast<int>(kColLabelH * 1.1)));
        p.restore();
    }
    p.drawText(QRectF(L.left - kRowLabelW, kArcMargin, kRowLabelW, kColLabelH - 4),
               Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap, tr("head ↓  modifier →"));
    p.setRenderHint(QPainter::Antialiasing);
    for (int h = 0; h <= n; ++h)
        for (int m = 1; m <= n; ++m) {
            const QRectF r = cellRect(h, m);
            if (h == m) {
                p.fillRect(r, palette().window());
                continue;
            }
            const ArcCell& c = cell(h, m);
            const QColor fill = cellColor(h, m);
            p.fillRect(r.adjusted(0.5, 0.5, -0.5, -0.5), fill);
            if (!c.kept) hatch(p, r);
            if (c.gold) {
                p.setPen(QPen(Qt::black, std::max(1.5, L.cell * 0.09)));
                p.setBrush(Qt::NoBrush);
                const double in = std::max(1.5, L.cell * 0.09) / 2 + 0.5;
                p.drawRect(r.adjusted(in, in, -in, -in));
            }
            if (c.predicted) {
                const QColor dot = contrastingText(fill);
                p.setPen(QPen(dot == Qt::black ? Qt::white : Qt::black, 1));
                p.setBrush(dot);
                const double rad = std::max(2.0, L.cell * 0.17);
                p.drawEllipse(r.center(), rad, rad);
            }
            if (c.flipped) flipMark(p, r);
            if (c.differs) {
                p.setPen(
                    QPen(QColor(0xCC, 0x00, 0x99), std::max(1.2, L.cell * 0.07), Qt::DashLine));
                p.setBrush(Qt::NoBrush);
                p.drawRect(r.adjusted(1, 1, -1, -1));
            }
        }
    if (notesHeight() > 0) { // per-token notes (detected filter roles) under the columns
        p.setPen(palette().text().color());
        QFont nf = p.font();
        nf.setPixelSize(9);
        p.setFont(nf);
        p.drawText(QRectF(L.left - kRowLabelW, L.top + L.cell * (n + 1) + 2, kRowLabelW - 6, 28),
                   Qt::AlignRight | Qt::AlignTop | Qt::TextWordWrap, tr("detected roles →"));
        for (int m = 1; m <= n && m < notes_.size(); ++m) {
            if (notes_[m].isEmpty()) continue;
            p.save();
            p.translate(L.left + (m - 0.5) * L.cell, L.top + L.cell * (n + 1) + 4);
            p.rotate(60);
            p.drawText(QRectF(0, -L.cell / 2, notesHeight() * 1.6, L.cell),
                       Qt::AlignLeft | Qt::AlignVCenter,
                       p.fontMetrics().elidedText(notes_[m], Qt::ElideRight,
                                                  static_cast<int>(notesHeight() * 1.15)));
            p.restore();
        }
    }
    if (hasFocus()) {
        p.setPen(QPen(palette().highlight().color(), 2, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(cellRect(focus_.first, focus_.second).adjusted(-1, -1, 1, 1));
    }
    paintLegend(p, L);
}

void ArcMatrixView::paintLegend(QPainter& p, const Layout& L) const {
    QFont f = font();
    f.setPixelSize(11);
    p.setFont(f);
    const QFontMetricsF fm(f);
    const double x0 = std::max(kArcMargin, L.left - kRowLabelW); // under the row labels
    double x = x0;
    const double y = L.legendTop;
    const double sw = 14;
    p.setPen(palette().text().color());
    p.setBrush(Qt::NoBrush);
    if (coloring_ == ArcColoring::MaxMarginal) {
        const QString title = tr("max-marginal − best tree:");
        p.drawText(QPointF(x, y + 11), title);
        x += fm.horizontalAdvance(title) + 6;
        const double bw = 180;
        for (int i = 0; i < static_cast<int>(bw); ++i)
            p.fillRect(QRectF(x + i, y, 1.5, sw), colorMapAt(colorMap_, i / bw));
        p.setPen(palette().text().color());
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(x, y, bw, sw));
        p.drawText(QRectF(x - 30, y + sw, 60, 14), Qt::AlignCenter, QString::number(lo_, 'g', 3));
        p.drawText(QRectF(x + bw - 30, y + sw, 60, 14), Qt::AlignCenter, QStringLiteral("0"));
        x += bw + 14;
        p.fillRect(QRectF(x, y, sw, sw),
                   colorMapAt(colorMap_, std::numeric_limits<double>::quiet_NaN()));
        p.drawText(QPointF(x + sw + 4, y + 11), tr("no tree under the mask"));
        x += sw + 8 + fm.horizontalAdvance(tr("no tree under the mask")) + 12;
    } else {
        auto swatch = [&](const QColor& c, const QString& label, bool hatched) {
            const QRectF r(x, y, sw, sw);
            p.fillRect(r, c);
            if (hatched) hatch(p, r);
            p.setPen(palette().text().color());
            p.drawText(QPointF(x + sw + 4, y + 11), label);
            x += sw + 8 + fm.horizontalAdvance(label) + 10;
        };
        swatch(stageColor(-1), tr("kept"), false);
        for (int k = 0; k < stages_.size(); ++k)
            if (events_.isEmpty() || stages_[k] != QLatin1String("filter"))
                swatch(stageColorOf(k), tr("pruned by %1").arg(stages_[k]), true);
        swatch(stageColor(-2), tr("pruned by you"), true);
        if (!events_.isEmpty()) { // a row of the filter's events that occur in the matrix
            x = x0;
            const double y0 = y + 30;
            p.setPen(palette().text().color());
            const QString title = tr("filtered by event:");
            p.drawText(QPointF(x, y0 + 11), title);
            x += fm.horizontalAdvance(title) + 8;
            std::vector<bool> seen(static_cast<std::size_t>(events_.size()), false);
            for (const ArcCell& c : cells_)
                if (!c.kept && !c.flipped && c.event >= 0 && c.event < events_.size())
                    seen[static_cast<std::size_t>(c.event)] = true;
            for (int e = 0; e < events_.size(); ++e) {
                if (!seen[static_cast<std::size_t>(e)]) continue;
                const QRectF r(x, y0, sw, sw);
                p.fillRect(r, eventColor(e));
                hatch(p, r);
                p.setPen(palette().text().color());
                p.drawText(QPointF(x + sw + 4, y0 + 11), events_[e]);
                x += sw + 8 + fm.horizontalAdvance(events_[e]) + 10;
            }
        }
    }
    // markers (second row)
    x = x0;
    const double y2 = y + 30 + (coloring_ == ArcColoring::Stage && !events_.isEmpty() ? 22 : 0);
    const QRectF g(x, y2, sw, sw);
    p.setPen(QPen(Qt::black, 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(g.adjusted(1, 1, -1, -1));
    p.setPen(palette().text().color());
    p.drawText(QPointF(x + sw + 4, y2 + 11), tr("gold arc"));
    x += sw + 8 + fm.horizontalAdvance(tr("gold arc")) + 12;
    p.setBrush(Qt::black);
    p.drawEllipse(QPointF(x + sw / 2, y2 + sw / 2), 3, 3);
    p.drawText(QPointF(x + sw + 4, y2 + 11), tr("predicted arc"));
    x += sw + 8 + fm.horizontalAdvance(tr("predicted arc")) + 12;
    const QRectF hr(x, y2, sw, sw);
    p.fillRect(hr, QColor(0xE4, 0xE4, 0xE4));
    hatch(p, hr);
    p.setPen(palette().text().color());
    p.drawText(QPointF(x + sw + 4, y2 + 11), tr("pruned (not in the final mask)"));
    x += sw + 8 + fm.horizontalAdvance(tr("pruned (not in the final mask)")) + 12;
    const QRectF fr(x, y2, sw, sw);
    p.fillRect(fr, QColor(0xE4, 0xE4, 0xE4));
    flipMark(p, fr);
    p.setPen(palette().text().color());
    p.drawText(QPointF(x + sw + 4, y2 + 11), tr("flipped by you (click a cell)"));
    x += sw + 8 + fm.horizontalAdvance(tr("flipped by you (click a cell)")) + 12;
    if (!differsLabel_.isEmpty()) {
        p.setPen(QPen(QColor(0xCC, 0x00, 0x99), 2, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(x, y2, sw, sw).adjusted(1, 1, -1, -1));
        p.setPen(palette().text().color());
        p.drawText(QPointF(x + sw + 4, y2 + 11), differsLabel_);
    }
}

void ArcMatrixView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    if (const auto c = cellAt(e->position())) {
        setFocus();
        focus_ = *c;
        update();
        emit arcActivated(c->first, c->second);
    }
}

void ArcMatrixView::keyPressEvent(QKeyEvent* e) {
    auto [h, m] = focus_;
    switch (e->key()) {
    case Qt::Key_Left:
        m = std::max(1, m - 1);
        break;
    case Qt::Key_Right:
        m = std::min(length(), m + 1);
        break;
    case Qt::Key_Up:
        h = std::max(0, h - 1);
        break;
    case Qt::Key_Down:
        h = std::min(length(), h + 1);
        break;
    case Qt::Key_Space:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (h != m) emit arcActivated(h, m);
        return;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    setFocusCell(h, m);
}

bool ArcMatrixView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const auto c = cellAt(he->pos());
        if (c && tooltip_)
            QToolTip::showText(he->globalPos(), tooltip_(c->first, c->second), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

} // namespace prunescope::widgets
