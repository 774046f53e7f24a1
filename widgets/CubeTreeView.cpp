// Gold and predicted dependency trees with update brackets (CubeTreeView.h).
#include "widgets/CubeTreeView.h"

#include "widgets/ColorMap.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace prunescope::widgets {

namespace {
constexpr double kTreeMargin = 16, kLabelW = 104, kWordsH = 34, kBracketRowH = 24;
bool contains(const std::vector<std::array<int, 2>>& v, int h, int m) {
    return std::find(v.begin(), v.end(), std::array<int, 2>{h, m}) != v.end();
}
} // namespace

CubeTreeView::CubeTreeView(QWidget* parent) : QWidget(parent) {
    setAccessibleName(tr("Gold and predicted dependency trees"));
}

void CubeTreeView::setSentence(const QStringList& words, const std::vector<int>& gold,
                               const std::vector<int>& predicted) {
    words_ = words;
    gold_ = gold;
    pred_ = predicted;
    message_.clear();
    updateGeometry();
    update();
}

void CubeTreeView::setBrackets(std::vector<SpanBracket> b) {
    brackets_ = std::move(b);
    updateGeometry();
    update();
}

void CubeTreeView::setUpdateArcs(std::vector<std::array<int, 2>> toward,
                                 std::vector<std::array<int, 2>> away) {
    toward_ = std::move(toward);
    away_ = std::move(away);
    update();
}

void CubeTreeView::setMessage(const QString& m) {
    message_ = m;
    update();
}

int CubeTreeView::wrongArcs() const {
    int w = 0;
    for (std::size_t m = 1; m < pred_.size() && m < gold_.size(); ++m)
        w += pred_[m] != gold_[m];
    return w;
}

QSize CubeTreeView::sizeHint() const {
    return {900, 320 + static_cast<int>(brackets_.size() > 0 ? 2 * kBracketRowH : 0)};
}

double CubeTreeView::xOf(int pos) const {
    const int N = std::max(1, static_cast<int>(words_.size()));
    return kLabelW + (width() - kLabelW - kTreeMargin) * (pos + 0.5) / N;
}

void CubeTreeView::drawArcs(QPainter& p, const std::vector<int>& heads, bool above, double baseY,
                            double unit) const {
    for (std::size_t m = 1; m < heads.size(); ++m) {
        const int h = heads[m];
        if (h < 0) continue;
        const bool wrong = !above && m < gold_.size() && gold_[m] != h;
        const bool moved = above ? contains(toward_, h, static_cast<int>(m))
                                 : contains(away_, h, static_cast<int>(m));
        const double x1 = xOf(h), x2 = xOf(static_cast<int>(m));
        const double height =
            std::min(unit * std::abs(static_cast<double>(h) - static_cast<double>(m)),
                     unit * 12.0) +
            6;
        const double dir = above ? -1 : 1;
        QPainterPath path(QPointF(x1, baseY));
        path.cubicTo(QPointF(x1, baseY + dir * height), QPointF(x2, baseY + dir * height),
                     QPointF(x2, baseY));
        QColor color =
            above ? QColor(40, 40, 40) : (wrong ? okabeito::kVermillion : QColor(110, 110, 110));
        if (moved) color = above ? okabeito::kBluishGreen : okabeito::kVermillion;
        p.setPen(QPen(color, moved ? 3.2 : 1.3, wrong && !moved ? Qt::DashLine : Qt::SolidLine));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        // arrow head at the modifier
        p.setBrush(color);
        p.setPen(Qt::NoPen);
        const double a = 4;
        QPolygonF tip;
        tip << QPointF(x2, baseY) << QPointF(x2 - a, baseY + dir * a * 1.8)
            << QPointF(x2 + a, baseY + dir * a * 1.8);
        p.drawPolygon(tip);
    }
}

void CubeTreeView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    p.setRenderHint(QPainter::Antialiasing);
    if (words_.isEmpty() || !message_.isEmpty()) {
        p.setPen(palette().text().color());
        p.drawText(rect(), Qt::AlignCenter, message_.isEmpty() ? tr("No sentence") : message_);
        return;
    }
    const double rowsH = brackets_.empty() ? 0 : kBracketRowH * 2 + 8;
    const double avail = height() - kWordsH - rowsH - 2 * kTreeMargin;
    const double arcH = std::max(30.0, avail / 2);
    const double unit = arcH / 12.0;
    const double wordsTop = kTreeMargin + arcH;
    QFont f = font();
    f.setPixelSize(12);
    p.setFont(f);
    p.setPen(palette().text().color());
    p.drawText(QRectF(4, kTreeMargin, kLabelW - 8, arcH),
               Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap, tr("gold tree"));
    drawArcs(p, gold_, true, wordsTop, unit);
    p.setPen(palette().text().color());
    const double cell =
        (width() - kLabelW - kTreeMargin) / std::max(1, static_cast<int>(words_.size()));
    for (int i = 0; i < words_.size(); ++i) {
        const QRectF r(xOf(i) - cell / 2, wordsTop + 2, cell, kWordsH - 4);
        p.drawText(r, Qt::AlignCenter,
                   p.fontMetrics().elidedText(words_[i], Qt::ElideRight, static_cast<int>(cell)) +
                       "\n" + QString::number(i));
    }
    const double predBase = wordsTop + kWordsH;
    drawArcs(p, pred_, false, predBase, unit);
    p.setPen(palette().text().color());
    p.drawText(QRectF(4, predBase, kLabelW - 8, arcH),
               Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
               tr("predicted tree\n%1 wrong").arg(wrongArcs()));
    // bracket rows: s-max, frontier
    const double rowTop = predBase + arcH + 8;
    f.setPixelSize(10);
    p.setFont(f);
    for (const SpanBracket& b : brackets_) {
        const int row = b.kind == SpanBracket::SMax ? 0 : 1;
        const double y = rowTop + row * kBracketRowH;
        const double x1 = xOf(b.lo) - cell * 0.42, x2 = xOf(b.hi) + cell * 0.42;
        QColor c = b.kind == SpanBracket::SMax       ? QColor(Qt::black)
                   : b.kind == SpanBracket::Frontier ? okabeito::kBlue
                                                     : QColor(150, 150, 150);
        p.setPen(QPen(c, b.kind == SpanBracket::SMax ? 3 : 2));
        p.drawLine(QPointF(x1, y), QPointF(x2, y));
        p.drawLine(QPointF(x1, y - 5), QPointF(x1, y + 1));
        p.drawLine(QPointF(x2, y - 5), QPointF(x2, y + 1));
        p.setPen(c);
        p.drawText(QRectF(x1, y + 1, x2 - x1, kBracketRowH - 4), Qt::AlignLeft | Qt::AlignTop,
                   p.fontMetrics().elidedText(b.label, Qt::ElideRight, static_cast<int>(x2 - x1)));
    }
    if (!brackets_.empty()) {
        p.setPen(palette().text().color());
        p.drawText(QPointF(4, rowTop + 4), tr("s-max node"));
        p.drawText(QPointF(4, rowTop + kBracketRowH + 4), tr("p-max frontier"));
    }
}

} // namespace prunescope::widgets
