// The explorer's view options for a classroom (issue 18): readable cell labels (unbinarized or
// binarized), zoom and fit of the chart and the trees, and the presentation font size.
#include "app/gui/ExplorerPanel.h"

#include <QApplication>

namespace prunescope::gui {

void ExplorerPanel::setShowBinarizedSymbols(bool on) {
    if (on == binarizedLabels_) return;
    binarizedLabels_ = on;
    if (session_ && !overlay_) heat_->setCells(presentCells(*session_, quantity_, binarizedLabels_).cells);
}

widgets::ZoomArea* ExplorerPanel::focusedZoomArea() const {
    QWidget* f = QApplication::focusWidget();
    for (widgets::ZoomArea* a : {predictedZoom_, goldZoom_})
        if (f && (f == a || a->isAncestorOf(f))) return a;
    return chartZoom_;
}

void ExplorerPanel::setPresentationFont(bool on) {
    if (on == presentationFont_) return;
    presentationFont_ = on;
    QFont f = QApplication::font();
    if (on) f.setPointSizeF(f.pointSizeF() * 1.6);
    for (QWidget* w : {static_cast<QWidget*>(heat_), static_cast<QWidget*>(predicted_), static_cast<QWidget*>(goldTree_), stats_})
        w->setFont(on ? f : QFont());  // an empty QFont resolves nothing: the parent's font again
}

} // namespace prunescope::gui
