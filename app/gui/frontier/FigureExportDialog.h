#pragma once
// File ▸ Export Figure…: which view (chart, predicted tree, gold tree), the PNG scale (1×, 2×, 3×)
// and whether to caption it; then the file (its suffix picks SVG, PDF or PNG).
#include "app/gui/explorer/ExplorerPanel.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QComboBox;

namespace prunescope::gui {

struct FigureRequest {
    FigureView view = FigureView::Chart;
    double scale = 1;
    bool caption = true;
    QString path;
};

class FigureExportDialog : public QDialog {
    Q_OBJECT
  public:
    explicit FigureExportDialog(bool hasGold, QWidget* parent = nullptr);
    FigureRequest request() const;

  private:
    QComboBox *view_ = nullptr, *scale_ = nullptr;
    QCheckBox* caption_ = nullptr;
};

// Asks for the options, then the file name; nullopt if the user cancels either.
std::optional<FigureRequest> askFigureRequest(QWidget* parent, bool hasGold);

} // namespace prunescope::gui
