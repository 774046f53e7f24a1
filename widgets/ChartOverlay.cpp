// Marks over a heat map (see ChartOverlay.h).
#include "widgets/ChartOverlay.h"

#include "widgets/ChartHeatMap.h"

#include <QEvent>
#include <QPainter>

#include <algorithm>

namespace prunescope::widgets {

ChartOverlay::ChartOverlay(ChartHeatMap* map) : QWidget(map), map_(map) {
    setObjectName("chartOverlay");
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setGeometry(map->rect());
    map->installEventFilter(this);
    hide();
}

bool ChartOverlay::eventFilter(QObject* watched, QEvent* e) {
    if (watched == map_ && e->type() == QEvent::Resize) setGeometry(map_->rect());
    return QWidget::eventFilter(watched, e);
}

void ChartOverlay::setTitle(const QString& title) {
    title_ = title;
    update();
}

void ChartOverlay::setClasses(std::vector<OverlayClass> classes) {
    classes_ = std::move(classes);
    update();
}

void ChartOverlay::setCells(std::vector<OverlayCell> cells) {
    cells_ = std::move(cells);
    setVisible(!classes_.empty());
    raise();
    update();
}

void ChartOverlay::clear() {
    cells_.clear();
    hide();
}

int ChartOverlay::count(int cls) const {
    return static_cast<int>(std::count_if(cells_.begin(), cells_.end(),
                                          [cls](const OverlayCell& c) { return c.cls == cls; }));
}

void ChartOverlay::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const int n = map_->length();
    QFont small = font();
    for (const OverlayCell& c : cells_) {
        if (c.cls < 0 || c.cls >= static_cast<int>(classes_.size()) || c.k > n) continue;
        const OverlayClass& cls = classes_[static_cast<std::size_t>(c.cls)];
        const QRectF r = map_->cellRect(c.i, c.k);
        const double w = std::clamp(std::min(r.width(), r.height()) * 0.14, 1.5, 5.0);
        const QRectF inner = r.adjusted(w / 2 + 1, w / 2 + 1, -w / 2 - 1, -w / 2 - 1);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::white, w + 2, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        p.drawRect(inner);
        p.setPen(QPen(cls.color, w, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        p.drawRect(inner);
        // The glyph in the top-left corner, on a chip of the class's colour, when the cell has
        // room.
        small.setPointSizeF(std::max(5.0, std::min(font().pointSizeF() * 0.8, r.height() * 0.3)));
        const QFontMetricsF fm(small);
        const QSizeF chip(fm.horizontalAdvance(cls.glyph) + 4, fm.height());
        if (cls.glyph.isEmpty() || chip.width() > r.width() * 0.6 ||
            chip.height() > r.height() * 0.55)
            continue;
        const QRectF chipRect(inner.topLeft(), chip);
        p.fillRect(chipRect, cls.color);
        p.setFont(small);
        p.setPen(cls.color.lightnessF() > 0.6 ? Qt::black : Qt::white);
        p.drawText(chipRect, Qt::AlignCenter, cls.glyph);
    }
    paintLegend(p);
}

void ChartOverlay::paintLegend(QPainter& p) const {
    if (classes_.empty() || map_->length() == 0) return;
    const int n = map_->length();
    const QFontMetricsF fm(font());
    const double row = fm.height() + 4, sw = fm.height();
    QStringList lines;
    double textW = title_.isEmpty() ? 0 : fm.horizontalAdvance(title_);
    for (std::size_t c = 0; c < classes_.size(); ++c) {
        lines << QStringLiteral("%1 (%2)").arg(classes_[c].name).arg(count(static_cast<int>(c)));
        textW = std::max(textW, sw + 6 + fm.horizontalAdvance(lines.back()));
    }
    const int rows = static_cast<int>(classes_.size()) + (title_.isEmpty() ? 0 : 1);
    // The empty corner left of the triangle's top cell.
    const QRectF top = map_->cellRect(0, n), base = map_->cellRect(0, 1);
    QRectF box(std::max(2.0, base.left()), top.top(), textW + 12, rows * row + 8);
    p.setPen(QPen(QColor(120, 120, 120), 1));
    p.setBrush(QColor(255, 255, 255, 235));
    p.drawRect(box);
    double y = box.top() + 4;
    p.setFont(font());
    if (!title_.isEmpty()) {
        p.setPen(Qt::black);
        p.drawText(QRectF(box.left() + 6, y, textW, row), Qt::AlignVCenter | Qt::AlignLeft, title_);
        y += row;
    }
    for (std::size_t c = 0; c < classes_.size(); ++c, y += row) {
        const OverlayClass& cls = classes_[c];
        const QRectF swatch(box.left() + 6, y + (row - sw) / 2, sw, sw);
        p.setPen(QPen(cls.color, 3));
        p.setBrush(Qt::white);
        p.drawRect(swatch.adjusted(1.5, 1.5, -1.5, -1.5));
        p.setPen(cls.color.lightnessF() > 0.6 ? Qt::black : cls.color);
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 0.8);
        p.setFont(f);
        p.drawText(swatch, Qt::AlignCenter, cls.glyph);
        p.setFont(font());
        p.setPen(Qt::black);
        p.drawText(QRectF(swatch.right() + 6, y, textW, row), Qt::AlignVCenter | Qt::AlignLeft,
                   lines[static_cast<int>(c)]);
    }
}

} // namespace prunescope::widgets
