// The figure export dialog (see FigureExportDialog.h).
#include "app/gui/frontier/FigureExportDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>

namespace prunescope::gui {

FigureExportDialog::FigureExportDialog(bool hasGold, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Export Figure"));
    view_ = new QComboBox;
    view_->setObjectName("figureViewBox");
    view_->addItem(tr("Chart heat map"), static_cast<int>(FigureView::Chart));
    view_->addItem(tr("Predicted parse"), static_cast<int>(FigureView::PredictedTree));
    if (hasGold) view_->addItem(tr("Gold tree"), static_cast<int>(FigureView::GoldTree));
    scale_ = new QComboBox;
    scale_->setObjectName("figureScaleBox");
    for (int s = 1; s <= 3; ++s)
        scale_->addItem(tr("%1×").arg(s), s);
    scale_->setToolTip(tr("PNG pixels per screen pixel (SVG and PDF are vector graphics)"));
    caption_ = new QCheckBox(tr("Caption: sentence, policy, λ, F1, pushes"));
    caption_->setObjectName("figureCaptionBox");
    caption_->setChecked(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(tr("View:"), view_);
    form->addRow(tr("PNG scale:"), scale_);
    form->addRow(caption_);
    form->addRow(buttons);
}

FigureRequest FigureExportDialog::request() const {
    FigureRequest r;
    r.view = static_cast<FigureView>(view_->currentData().toInt());
    r.scale = scale_->currentData().toDouble();
    r.caption = caption_->isChecked();
    return r;
}

std::optional<FigureRequest> askFigureRequest(QWidget* parent, bool hasGold) {
    FigureExportDialog d(hasGold, parent);
    if (d.exec() != QDialog::Accepted) return std::nullopt;
    FigureRequest r = d.request();
    static const char* const kName[] = {"chart", "predicted-tree", "gold-tree"};
    QString selected;
    r.path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export Figure"),
        QStringLiteral("prunescope-%1.svg").arg(kName[static_cast<int>(r.view)]),
        QObject::tr("SVG (*.svg);;PDF (*.pdf);;PNG (*.png)"), &selected);
    if (r.path.isEmpty()) return std::nullopt;
    if (QFileInfo(r.path).suffix().isEmpty())
        r.path += selected.startsWith("PDF")   ? ".pdf"
                  : selected.startsWith("PNG") ? ".png"
                                               : ".svg";
    return r;
}

} // namespace prunescope::gui
