// The cube-pruned span chart (CubeChartView.h).
#include "widgets/CubeChartView.h"

#include "widgets/ColorMap.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace prunescope::widgets {

namespace {
const QColor kEmpty(238, 238, 238);
const QColor kInBeam = okabeito::kBluishGreen; // gold item is the cell's best
const QColor kRanked = okabeito::kYellow;      // gold item in the beam, not first
const QColor kFellOff = okabeito::kVermillion; // gold item fell off the beam
const QColor kFrontier = okabeito::kBlue;

QColor greyFor(double fullness) { // 0 -> light, 1 -> mid grey
    const int v = static_cast<int>(225 - 95 * std::clamp(fullness, 0.0, 1.0));
    return {v, v, v};
}
} // namespace

std::vector<CubeCellView> cubeCellViews(const CubeChart& chart, const GoldDerivation* gold,
                                        const CubeUpdateChoice* choice) {
    std::vector<CubeCellView> v(static_cast<std::size_t>(chart.numCells()));
    for (int c = 0; c < chart.numCells(); ++c) {
        const auto beam = chart.beamOf(c);
        v[static_cast<std::size_t>(c)].items = static_cast<int>(beam.size());
        if (!beam.empty()) v[static_cast<std::size_t>(c)].best = beam[0].score;
    }
    if (gold && gold->reachable()) {
        for (const GoldNode& g : gold->nodes) {
            CubeCellView& cv = v[static_cast<std::size_t>(g.cellId)];
            cv.goldRank = g.rank;
            cv.violation = g.violation;
        }
        if (choice) {
            if (choice->smaxNode >= 0)
                v[static_cast<std::size_t>(
                      gold->nodes[static_cast<std::size_t>(choice->smaxNode)].cellId)]
                    .smax = true;
            for (int f : choice->frontier)
                v[static_cast<std::size_t>(gold->nodes[static_cast<std::size_t>(f)].cellId)]
                    .frontier = true;
            for (int f : choice->nodes)
                v[static_cast<std::size_t>(gold->nodes[static_cast<std::size_t>(f)].cellId)]
                    .chosen = true;
        }
    }
    return v;
}

CubeChartView::CubeChartView(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(false);
    setAccessibleName(tr("Cube-pruned span chart"));
}

int CubeChartView::cellId(CubeKind kind, int head, int end) const {
    const int N = length() + 1;
    return (static_cast<int>(kind) * N + head) * N + end;
}

void CubeChartView::setChart(const QStringList& words, int beam, std::vector<CubeCellView> cells) {
    if (words != words_) selected_ = -1; // cell ids depend on the length
    words_ = words;
    beam_ = std::max(1, beam);
    cells_ = std::move(cells);
    const auto expect = static_cast<std::size_t>(2 * words_.size() * words_.size());
    if (cells_.size() != expect) cells_.assign(expect, CubeCellView{});
    if (selected_ >= static_cast<int>(cells_.size())) selected_ = -1;
    relayout();
    update();
}

void CubeChartView::setSelectedCell(int id) {
    selected_ = id >= 0 && id < static_cast<int>(cells_.size()) ? id : -1;
    update();
}

void CubeChartView::relayout() {
    const int N = std::max(1, length() + 1);
    const double wordsH = 46;
    cw_ = std::clamp((width() - 16.0) / N, 4.0, 80.0);
    ch_ = std::clamp((height() - legendH_ - wordsH - 12.0) / N, 4.0, cw_);
    left_ = std::max(8.0, (width() - cw_ * N) / 2);
    top_ = legendH_ + 6;
}

QRectF CubeChartView::spanRect(int s, int t) const {
    const int n = length();
    const double x = left_ + (s + t) * cw_ / 2.0;
    const double y = top_ + (n - (t - s)) * ch_;
    return {x, y, cw_, ch_};
}

QRectF CubeChartView::cellRect(int id) const {
    const int N = length() + 1;
    if (id < 0 || id >= 2 * N * N) return {};
    const auto kind = static_cast<CubeKind>(id / (N * N));
    const int head = (id % (N * N)) / N, end = id % N;
    if (head == end) return kind == CubeKind::Complete ? spanRect(head, head) : QRectF();
    if (end == 0) return {}; // nothing points to the root
    const int s = std::min(head, end), t = std::max(head, end);
    const QRectF box = spanRect(s, t);
    const double hw = box.width() / 2, hh = box.height() / 2;
    const double x = box.left() + (head < end ? hw : 0);
    const double y = box.top() + (kind == CubeKind::Complete ? hh : 0);
    return {x, y, hw, hh};
}

std::optional<int> CubeChartView::cellAt(QPointF p) const {
    const int N = length() + 1;
    for (int id = 0; id < 2 * N * N; ++id)
        if (const QRectF r = cellRect(id); !r.isEmpty() && r.contains(p)) return id;
    return std::nullopt;
}

QString CubeChartView::describe(int id) const {
    const int N = length() + 1;
    const auto kind = static_cast<CubeKind>(id / (N * N));
    const int head = (id % (N * N)) / N, end = id % N;
    const CubeCellView& c = cells_[static_cast<std::size_t>(id)];
    QString s = QString::fromStdString(cubeCellName({kind, head, end}));
    s += kind == CubeKind::Complete ? tr(": complete, head %1").arg(head)
                                    : tr(": incomplete, arc %1 → %2").arg(head).arg(end);
    s += tr("\n%1 of %2 items").arg(c.items).arg(beam_);
    if (c.items > 0) s += tr(", best %1").arg(static_cast<double>(c.best), 0, 'f', 3);
    if (c.goldRank != CubeCellView::kNotGold) {
        s += c.goldRank >= 0 ? tr("\ngold node: gold item at rank %1").arg(c.goldRank + 1)
                             : tr("\ngold node: gold item fell off the beam");
        s += tr("\nviolation %1").arg(c.violation, 0, 'f', 3);
    }
    if (c.smax) s += tr("\ns-max node (largest violation)");
    if (c.frontier) s += tr("\non the p-max frontier");
    if (c.chosen) s += tr("\nupdated by the current strategy");
    return s;
}

void CubeChartView::paintCell(QPainter& p, int id) const {
    const QRectF r0 = cellRect(id);
    if (r0.isEmpty()) return;
    const CubeCellView& c = cells_[static_cast<std::size_t>(id)];
    const double gap = cw_ > 14 ? 1 : 0;
    const QRectF r = r0.adjusted(gap, gap, -gap, -gap);
    QColor fill = c.items == 0 ? kEmpty : greyFor(static_cast<double>(c.items) / beam_);
    if (c.goldRank == CubeCellView::kNotGold) {
    } else if (c.goldRank == 0) {
        fill = kInBeam;
    } else if (c.goldRank > 0) {
        fill = kRanked;
    } else {
        fill = kFellOff;
    }
    p.setPen(Qt::NoPen);
    p.fillRect(r, fill);
    if (c.items == 0) p.fillRect(r, QBrush(QColor(150, 150, 150, 120), Qt::BDiagPattern));
    const QColor text = contrastingText(fill);
    if (r.width() > 16 && c.goldRank != CubeCellView::kNotGold && c.goldRank != 0) {
        QFont f = font();
        f.setPixelSize(static_cast<int>(std::clamp(r.height() * 0.55, 7.0, 13.0)));
        p.setFont(f);
        p.setPen(text);
        p.drawText(r, Qt::AlignCenter,
                   c.goldRank < 0 ? QStringLiteral("×")
                                  : QStringLiteral("#%1").arg(c.goldRank + 1));
    }
    if (c.frontier) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(kFrontier, std::clamp(cw_ * 0.05, 1.5, 3.0), Qt::DashLine));
        p.drawRect(r.adjusted(1.5, 1.5, -1.5, -1.5));
    }
    if (c.smax) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::black, std::clamp(cw_ * 0.08, 2.0, 4.0)));
        p.drawRect(r.adjusted(1, 1, -1, -1));
    }
    if (c.chosen && r.width() > 10) {
        p.setPen(Qt::NoPen);
        p.setBrush(Qt::black);
        const double s = std::clamp(r.height() * 0.18, 2.5, 5.0);
        p.drawEllipse(QPointF(r.right() - s - 1, r.top() + s + 1), s, s);
    }
    if (id == selected_) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::white, 3));
        p.drawRect(r.adjusted(-1, -1, 1, 1));
        p.setPen(QPen(palette().highlight().color(), 2));
        p.drawRect(r.adjusted(-1, -1, 1, 1));
    }
}

void CubeChartView::paintLegend(QPainter& p) const {
    QFont f = font();
    f.setPixelSize(11);
    p.setFont(f);
    double x = 8;
    auto swatch = [&](const QColor& c, const QString& label, Qt::PenStyle frame = Qt::NoPen,
                      const QColor& frameColor = Qt::black) {
        const QRectF r(x, 8, 14, 14);
        p.fillRect(r, c);
        if (frame != Qt::NoPen) {
            p.setPen(QPen(frameColor, 2, frame));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r.adjusted(1, 1, -1, -1));
        }
        p.setPen(palette().text().color());
        const double w = p.fontMetrics().horizontalAdvance(label);
        p.drawText(QPointF(x + 18, 20), label);
        x += 30 + w;
    };
    swatch(greyFor(1.0), tr("beam full (grey: fill)"));
    swatch(kInBeam, tr("gold = best"));
    swatch(kRanked, tr("gold lower (#rank)"));
    swatch(kFellOff, tr("gold fell off (×)"));
    swatch(Qt::white, tr("s-max"), Qt::SolidLine);
    swatch(Qt::white, tr("p-max frontier"), Qt::DashLine, kFrontier);
    p.setPen(palette().text().color());
    p.drawText(QPointF(x, 20), tr("●  updated   |   top: I (arc), bottom: C; left: ←, right: →"));
}

void CubeChartView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (words_.isEmpty()) {
        p.setPen(palette().text().color());
        p.drawText(rect(), Qt::AlignCenter, tr("No sentence parsed"));
        return;
    }
    p.setRenderHint(QPainter::Antialiasing, cw_ > 10);
    for (int id = 0; id < static_cast<int>(cells_.size()); ++id)
        paintCell(p, id);
    // span box outlines
    const int n = length();
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(120, 120, 120), 0.6));
    for (int w = 0; w <= n; ++w)
        for (int s = 0; s + w <= n; ++s)
            p.drawRect(spanRect(s, s + w));
    // words under the base
    QFont f = font();
    f.setPixelSize(static_cast<int>(std::clamp(cw_ * 0.32, 8.0, 13.0)));
    p.setFont(f);
    p.setPen(palette().text().color());
    const double baseY = top_ + (n + 1) * ch_ + 4;
    for (int i = 0; i <= n; ++i) {
        const QRectF r(left_ + i * cw_, baseY, cw_, 40);
        const QString w =
            p.fontMetrics().elidedText(words_[i], Qt::ElideRight, static_cast<int>(cw_));
        p.drawText(r, Qt::AlignHCenter | Qt::AlignTop, QString::number(i) + "\n" + w);
    }
    paintLegend(p);
    if (hasFocus() && selected_ < 0) {
        p.setPen(QPen(palette().highlight().color(), 1, Qt::DashLine));
        p.drawRect(rect().adjusted(1, 1, -2, -2));
    }
}

void CubeChartView::mousePressEvent(QMouseEvent* e) {
    if (auto c = cellAt(e->position())) {
        setSelectedCell(*c);
        emit cellClicked(*c);
    }
}

void CubeChartView::keyPressEvent(QKeyEvent* e) {
    // Arrow keys walk over existing cells in id order; Enter/Space activates.
    const int total = static_cast<int>(cells_.size());
    if (total == 0) return QWidget::keyPressEvent(e);
    int id = selected_ < 0 ? cellId(CubeKind::Complete, 0, length()) : selected_;
    auto step = [&](int d) {
        for (int k = 0; k < total; ++k) {
            id = (id + d + total) % total;
            if (!cellRect(id).isEmpty()) return;
        }
    };
    switch (e->key()) {
    case Qt::Key_Right:
    case Qt::Key_Down:
        step(1);
        setSelectedCell(id);
        break;
    case Qt::Key_Left:
    case Qt::Key_Up:
        step(-1);
        setSelectedCell(id);
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        setSelectedCell(id);
        emit cellClicked(id);
        break;
    default:
        QWidget::keyPressEvent(e);
    }
}

void CubeChartView::resizeEvent(QResizeEvent*) {
    relayout();
}

bool CubeChartView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        if (auto c = cellAt(he->pos()))
            QToolTip::showText(he->globalPos(), describe(*c), this, cellRect(*c).toAlignedRect());
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

} // namespace prunescope::widgets
