// Zoom and fit for a view in a scroll area (see ZoomArea.h).
#include "widgets/ZoomArea.h"

#include <QKeyEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace prunescope::widgets {

ZoomArea::ZoomArea(QWidget* view, QWidget* parent) : QScrollArea(parent) {
    setWidgetResizable(false);
    setWidget(view);
    setFrameShape(QFrame::StyledPanel);
    setAlignment(Qt::AlignCenter);
    view->installEventFilter(this);
    applySize();
}

void ZoomArea::setZoom(double z, QPointF anchor) {
    z = std::clamp(z, kMinZoom, kMaxZoom);
    if (std::abs(z - zoom_) < 1e-9) return;
    if (anchor.x() < 0) anchor = QPointF(viewport()->width() / 2.0, viewport()->height() / 2.0);
    // The content point under the anchor, as a fraction of the view's size.
    QWidget* v = widget();
    const double fx = (horizontalScrollBar()->value() + anchor.x()) / std::max(1, v->width());
    const double fy = (verticalScrollBar()->value() + anchor.y()) / std::max(1, v->height());
    zoom_ = z;
    emit zoomChanged(z); // scaled views update their minimum size first
    applySize();
    horizontalScrollBar()->setValue(static_cast<int>(std::lround(fx * v->width() - anchor.x())));
    verticalScrollBar()->setValue(static_cast<int>(std::lround(fy * v->height() - anchor.y())));
}

void ZoomArea::applySize() {
    QWidget* v = widget();
    if (!v) return;
    // Size without scroll bars; a bar appears only on the axis that needs it.
    const QSize avail = maximumViewportSize();
    const int barH = horizontalScrollBar()->sizeHint().height(),
              barW = verticalScrollBar()->sizeHint().width();
    auto minSize = [v] { return v->minimumSizeHint().expandedTo(v->minimumSize()); };
    int h = std::max(static_cast<int>(avail.height() * zoom_), minSize().height());
    v->resize(v->width(), h); // the minimum width may follow the height
    int w = std::max(static_cast<int>(avail.width() * zoom_), minSize().width());
    if (zoom_ == 1 && w > avail.width()) { // a horizontal bar takes height: fit above it
        h = std::max(avail.height() - barH, minSize().height());
        v->resize(v->width(), h);
        w = std::max(avail.width(), minSize().width());
    }
    if (zoom_ == 1 && h > avail.height() && w <= avail.width())
        w = std::max(avail.width() - barW, minSize().width());
    if (v->size() != QSize(w, h)) v->resize(w, h);
}

void ZoomArea::wheelEvent(QWheelEvent* e) {
    if (!(e->modifiers() & Qt::ControlModifier)) {
        QScrollArea::wheelEvent(e);
        return;
    }
    const double steps = e->angleDelta().y() / 120.0;
    // Delivered for the viewport: the position is in viewport coordinates.
    if (steps != 0) setZoom(zoom_ * std::pow(kStep, steps), e->position());
    e->accept();
}

void ZoomArea::keyPressEvent(QKeyEvent* e) {
    if (e->modifiers() & Qt::ControlModifier) {
        switch (e->key()) {
        case Qt::Key_0:
            fit();
            e->accept();
            return;
        case Qt::Key_Equal:
        case Qt::Key_Plus:
            zoomIn();
            e->accept();
            return;
        case Qt::Key_Minus:
            zoomOut();
            e->accept();
            return;
        default:
            break;
        }
    }
    QScrollArea::keyPressEvent(e);
}

void ZoomArea::resizeEvent(QResizeEvent* e) {
    QScrollArea::resizeEvent(e);
    applySize();
}

bool ZoomArea::eventFilter(QObject* watched, QEvent* e) {
    // Ctrl + wheel over the view zooms even when the view would take the wheel itself.
    if (watched == widget() && e->type() == QEvent::Wheel) {
        auto* we = static_cast<QWheelEvent*>(e);
        if (we->modifiers() & Qt::ControlModifier) {
            const double steps = we->angleDelta().y() / 120.0;
            if (steps != 0)
                setZoom(zoom_ * std::pow(kStep, steps), widget()->mapToParent(we->position()));
            we->accept();
            return true;
        }
    }
    return QScrollArea::eventFilter(watched, e);
}

bool ZoomArea::viewportEvent(QEvent* e) {
    // The view's updateGeometry() (a new tree, a new font) posts a layout request to the viewport.
    if (e->type() == QEvent::LayoutRequest) applySize();
    return QScrollArea::viewportEvent(e);
}

} // namespace prunescope::widgets
