// The explorer's view options for a classroom (issue 18): readable cell labels (unbinarized or
// binarized), zoom and fit of the chart and the trees, the presentation font size, and the layout
// with one large view.
#include "app/gui/explorer/ExplorerPanel.h"

#include <QApplication>
#include <QEvent>
#include <QSplitter>
#include <QTabBar>
#include <QTimer>

#include <cmath>
#include <functional>

namespace prunescope::gui {
namespace {

// Calls `f` (queued, after the widget's own handling) when the watched widget is resized.
class ResizeWatcher : public QObject {
  public:
    ResizeWatcher(QWidget* w, std::function<void()> f) : QObject(w), f_(std::move(f)) {
        w->installEventFilter(this);
    }
    bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() == QEvent::Resize) QTimer::singleShot(0, this, f_);
        return false;
    }

  private:
    std::function<void()> f_;
};

} // namespace

void ExplorerPanel::setShowBinarizedSymbols(bool on) {
    if (on == binarizedLabels_) return;
    binarizedLabels_ = on;
    if (session_ && !overlay_)
        heat_->setCells(presentCells(*session_, quantity_, binarizedLabels_).cells);
}

widgets::ZoomArea* ExplorerPanel::focusedZoomArea() const {
    QWidget* f = QApplication::focusWidget();
    for (widgets::ZoomArea* a : {predictedZoom_, goldZoom_})
        if (f && (f == a || a->isAncestorOf(f))) return a;
    if (layout_ == ExplorerLayout::PredictedTree) return predictedZoom_;
    if (layout_ == ExplorerLayout::GoldTree) return goldZoom_;
    return chartZoom_;
}

void ExplorerPanel::setPresentationFont(bool on) {
    if (on == presentationFont_) return;
    presentationFont_ = on;
    QFont f = QApplication::font();
    if (on) f.setPointSizeF(f.pointSizeF() * 1.6);
    for (QWidget* w : {static_cast<QWidget*>(heat_), static_cast<QWidget*>(predicted_),
                       static_cast<QWidget*>(goldTree_), stats_})
        w->setFont(on ? f : QFont()); // an empty QFont resolves nothing: the parent's font again
}

QWidget* ExplorerPanel::buildLayoutBar() {
    layoutBar_ = new QTabBar;
    layoutBar_->setObjectName("explorerLayoutBar");
    layoutBar_->setDrawBase(false);
    layoutBar_->setExpanding(false);
    for (const QString& t :
         {tr("Chart and Trees"), tr("Chart"), tr("Predicted Parse"), tr("Gold Tree")})
        layoutBar_->addTab(t);
    layoutBar_->setTabToolTip(0, tr("The chart, the statistics and both trees side by side"));
    layoutBar_->setTabToolTip(
        1, tr("The chart over the whole width, rows tall enough for 9 pt labels"));
    layoutBar_->setTabToolTip(2, tr("The predicted parse over the whole width"));
    layoutBar_->setTabToolTip(3, tr("The gold tree over the whole width"));
    connect(layoutBar_, &QTabBar::currentChanged, this,
            [this](int i) { setExplorerLayout(static_cast<ExplorerLayout>(i)); });
    new ResizeWatcher(heat_, [this] { keepChartRowsReadable(); });
    connect(this, &ExplorerPanel::sessionUpdated, this, [this] { keepChartRowsReadable(); });
    return layoutBar_;
}

void ExplorerPanel::setExplorerLayout(ExplorerLayout l) {
    layout_ = l;
    if (layoutBar_->currentIndex() != static_cast<int>(l))
        layoutBar_->setCurrentIndex(static_cast<int>(l));
    const bool all = l == ExplorerLayout::ChartAndTrees;
    chartZoom_->setVisible(all || l == ExplorerLayout::Chart);
    stats_->setVisible(all);
    treeSide_->setVisible(l != ExplorerLayout::Chart);
    predictedZoom_->setVisible(all || l == ExplorerLayout::PredictedTree);
    goldZoom_->setVisible(all || l == ExplorerLayout::GoldTree);
    keepChartRowsReadable();
}

// The chart's rows follow its height: in the large chart, a minimum height keeps them readable
// (the chart computes its rows; the shortfall per row times the rows is the height to add).
void ExplorerPanel::keepChartRowsReadable() {
    // A new minimum height changes the width too (a vertical scroll bar), and with it the legend
    // and the words: a few rounds, each applied at once (the zoom area's layout request sent now).
    for (int round = 0; round < 4; ++round) {
        const int n = session_ ? session_->length() : 0;
        int minH = 0;
        // Rows are at most 0.8 column widths: a chart too narrow for readable rows gets no minimum.
        // A cell is painted 1 px inside its row on each side with its label at half that height; a
        // cell ≥ 34 px wide also shows its value alone, at a third of it.
        const double target =
            heat_->cellRect(0, 1).width() >= 36 ? kReadableRowWithValues : kReadableRow;
        if (layout_ == ExplorerLayout::Chart && n > 0 &&
            heat_->cellRect(0, 1).width() * 0.8 >= target) {
            const double row = heat_->cellRect(0, 1).height();
            minH = heat_->minimumHeight();
            if (row < target - 0.01 || row > target + 1)
                minH = std::max(0, heat_->height() +
                                       static_cast<int>(std::ceil(n * (target - row))) + 1);
            if (minH <= chartZoom_->maximumViewportSize().height())
                minH = 0; // fits without scrolling
        }
        if (heat_->minimumHeight() == minH) return;
        heat_->setMinimumHeight(minH);
        QCoreApplication::sendPostedEvents(chartZoom_->viewport(), QEvent::LayoutRequest);
    }
}

} // namespace prunescope::gui
