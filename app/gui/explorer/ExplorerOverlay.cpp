// The explorer's overlay of a signed per-span quantity computed elsewhere (the regret window's
// r̂[keep] − r̂[prune], Vieira & Eisner 2017 sec. 7.3): see ExplorerPanel.h.
#include "app/gui/explorer/ExplorerPanel.h"

#include <QComboBox>
#include <QPushButton>
#include <QSignalBlocker>

namespace prunescope::gui {

widgets::ColorMapKind ExplorerPanel::colorMap() const {
    return overlay_ ? overlay_->previousMap : heat_->colorMap();
}

QPushButton* ExplorerPanel::buildOverlayButton() {
    removeOverlayBtn_ = new QPushButton(tr("Remove overlay"));
    removeOverlayBtn_->setObjectName("removeOverlay");
    removeOverlayBtn_->setToolTip(
        tr("Show the colour quantity and map chosen before the overlay again"));
    removeOverlayBtn_->hide();
    connect(removeOverlayBtn_, &QPushButton::clicked, this, [this] { removeOverlay(); });
    return removeOverlayBtn_;
}

void ExplorerPanel::restoreTooltips() {
    heat_->setTooltipProvider(
        [this](int i, int k) { return session_ ? cellTooltip(*session_, i, k) : QString(); });
}

void ExplorerPanel::showOverlay(Overlay o) {
    if (!session_) return;
    const int n = session_->length();
    if (o.cells.size() != static_cast<std::size_t>(n + 1) * (n + 1))
        return; // another sentence's values
    stopReplay();
    heat_->clearChanges();
    previous_.reset();
    {
        QSignalBlocker quantityBlock(quantityBox_), mapBlock(colorBox_);
        if (!overlay_) {
            overlay_ = OverlayState{o.name, heat_->colorMap()};
            quantityBox_->addItem(o.name, -1);
            colorBox_->addItem(widgets::colorMapName(widgets::ColorMapKind::Diverging));
        }
        overlay_->name = o.name;
        const int at = quantityBox_->findData(-1);
        quantityBox_->setItemText(at, o.name);
        quantityBox_->setCurrentIndex(at);
        colorBox_->setCurrentIndex(colorBox_->count() - 1);
        colorBox_->setEnabled(false);
        colorBox_->setToolTip(
            tr("A signed quantity: blue below 0, white at 0, red above (symmetric scale). "
               "Remove the overlay to choose a map again."));
    }
    heat_->setColorMap(widgets::ColorMapKind::Diverging);
    const double m = o.maxAbs > 0 ? o.maxAbs : 1;
    heat_->setScale(-m, m, o.title, o.decimals);
    heat_->setCells(std::move(o.cells));
    if (o.tooltip)
        heat_->setTooltipProvider(std::move(o.tooltip));
    else
        restoreTooltips();
    removeOverlayBtn_->show();
}

void ExplorerPanel::endOverlay(const QString& why) {
    if (!overlay_) return;
    const OverlayState st = *overlay_;
    overlay_.reset();
    {
        QSignalBlocker quantityBlock(quantityBox_), mapBlock(colorBox_);
        if (const int at = quantityBox_->findData(-1); at >= 0) quantityBox_->removeItem(at);
        quantityBox_->setCurrentIndex(quantityBox_->findData(static_cast<int>(quantity_)));
        colorBox_->removeItem(colorBox_->count() - 1);
        colorBox_->setCurrentIndex(static_cast<int>(st.previousMap));
        colorBox_->setEnabled(true);
        colorBox_->setToolTip(tr("Colour maps readable with colour-vision deficiencies"));
    }
    heat_->setColorMap(st.previousMap);
    restoreTooltips();
    removeOverlayBtn_->hide();
    emit statusMessage(why.isEmpty() ? tr("Overlay \"%1\" removed").arg(st.name)
                                     : tr("Overlay \"%1\" removed: %2").arg(st.name, why));
    emit overlayRemoved(why);
}

void ExplorerPanel::removeOverlay(const QString& why) {
    if (!overlay_) return;
    endOverlay(why);
    refreshAll(false);
}

} // namespace prunescope::gui
