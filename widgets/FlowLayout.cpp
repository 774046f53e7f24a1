#include "widgets/FlowLayout.h"

#include <QWidget>

#include <algorithm>

namespace prunescope::widgets {

FlowLayout::FlowLayout(QWidget* parent, int hSpacing, int vSpacing)
    : QLayout(parent), hSpace_(hSpacing), vSpace_(vSpacing) {}

FlowLayout::~FlowLayout() {
    while (QLayoutItem* item = takeAt(0))
        delete item;
}

void FlowLayout::addItem(QLayoutItem* item) {
    items_.append(item);
}

QLayoutItem* FlowLayout::itemAt(int index) const {
    return index >= 0 && index < items_.size() ? items_.at(index) : nullptr;
}

QLayoutItem* FlowLayout::takeAt(int index) {
    return index >= 0 && index < items_.size() ? items_.takeAt(index) : nullptr;
}

QSize FlowLayout::minimumSize() const {
    QSize size;
    for (const QLayoutItem* item : items_)
        if (!item->isEmpty()) size = size.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const {
    // One line of every item: the width it would like; heightForWidth gives the wrapped height.
    int w = 0, h = 0;
    for (const QLayoutItem* item : items_) {
        if (item->isEmpty()) continue;
        w += (w > 0 ? hSpace_ : 0) + item->sizeHint().width();
        h = std::max(h, item->sizeHint().height());
    }
    const QMargins m = contentsMargins();
    return QSize(w + m.left() + m.right(), h + m.top() + m.bottom());
}

void FlowLayout::setGeometry(const QRect& rect) {
    QLayout::setGeometry(rect);
    doLayout(rect, false);
}

int FlowLayout::doLayout(const QRect& rect, bool testOnly) const {
    const QMargins m = contentsMargins();
    const QRect area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom());
    int x = area.x(), y = area.y(), lineHeight = 0;
    // The items of the current line, placed once the line's height is known (vertically centred).
    QList<std::pair<QLayoutItem*, QPoint>> line;
    auto flush = [&] {
        if (!testOnly)
            for (auto& [item, at] : line) {
                const QSize s = item->sizeHint()
                                    .boundedTo(QSize(area.width(), QWIDGETSIZE_MAX))
                                    .expandedTo(item->minimumSize());
                item->setGeometry(QRect(QPoint(at.x(), at.y() + (lineHeight - s.height()) / 2), s));
            }
        line.clear();
    };
    for (QLayoutItem* item : items_) {
        if (item->isEmpty()) continue;
        const QSize s = item->sizeHint()
                            .boundedTo(QSize(area.width(), QWIDGETSIZE_MAX))
                            .expandedTo(item->minimumSize());
        if (x > area.x() && x + s.width() > area.right() + 1) { // wrap
            flush();
            x = area.x();
            y += lineHeight + vSpace_;
            lineHeight = 0;
        }
        line.append({item, QPoint(x, y)});
        x += s.width() + hSpace_;
        lineHeight = std::max(lineHeight, s.height());
    }
    flush();
    return y + lineHeight - rect.y() + m.bottom();
}

} // namespace prunescope::widgets
