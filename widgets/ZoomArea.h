#pragma once
// A scroll area showing one view at a zoom factor of its fitted size (issue 18, zoom and fit):
// zoom 1 = the view fills the viewport (no scroll bars unless the view's minimum size needs them),
// zoom z > 1 = the view is z times the viewport, scrolled. A view whose minimum width depends on
// its height (TreeView: a tree fits the height and scrolls sideways) gets its height first. Ctrl +
// wheel zooms around the pointer, Ctrl+0 fits, Ctrl+= / Ctrl+- zoom in and out (when the keys reach
// the area; the main window's View menu offers the same as actions). Views that draw scaled content
// (TreeView) follow zoomChanged.
#include <QScrollArea>

namespace prunescope::widgets {

class ZoomArea : public QScrollArea {
    Q_OBJECT
  public:
    explicit ZoomArea(QWidget* view, QWidget* parent = nullptr);

    static constexpr double kMinZoom = 1, kMaxZoom = 8, kStep = 1.25;
    double zoom() const { return zoom_; }
    QWidget* view() const { return widget(); }

  public slots:
    // Keeps the content point under `anchor` (viewport coordinates; default: the centre) in place.
    void setZoom(double z, QPointF anchor = QPointF(-1, -1));
    void zoomIn() { setZoom(zoom_ * kStep); }
    void zoomOut() { setZoom(zoom_ / kStep); }
    void fit() { setZoom(1); }

  signals:
    void zoomChanged(double z);

  protected:
    void wheelEvent(QWheelEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    bool viewportEvent(QEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override; // Ctrl + wheel over the view

  private:
    void applySize();
    double zoom_ = 1;
};

} // namespace prunescope::widgets
