#pragma once
// View ▸ Compare Masks (issue 18, NLTK's chart comparer for pruning): two masks A and B of the
// explorer's sentence, each the current (hand-edited) mask, the policy's, the gold mask (the
// binarized gold tree's spans), keep-all or a saved mask file; an overlay on the heat map marks the
// spans both keep, only A keeps and only B keeps, and a table gives each mask's F1 against gold,
// pushes and spans kept. The numbers are core/policy/MaskComparison.h's (as `prunescope-cli
// compare-masks`); they follow every edit while the panel is shown.
#include "app/gui/explorer/ExplorerPanel.h"
#include "core/policy/MaskComparison.h"
#include "widgets/ChartOverlay.h"

#include <QDockWidget>
#include <QPointer>

#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QTableWidget;

namespace prunescope::gui {

enum class MaskSourceKind { Current, Policy, Gold, KeepAll, File };
QString maskSourceName(MaskSourceKind k);

class MaskComparisonPanel : public QDockWidget {
    Q_OBJECT
  public:
    explicit MaskComparisonPanel(ExplorerPanel* explorer, QWidget* parent = nullptr);

    // side 0 = A, 1 = B. A File source reads `file` (one mask; errors in *error, the side
    // unchanged).
    bool setSource(int side, MaskSourceKind kind, const QString& file = {},
                   QString* error = nullptr);
    MaskSourceKind source(int side) const { return kind_[side]; }
    void setOverlayVisible(bool on);
    // The last comparison (nullopt while hidden or when a mask is unavailable, e.g. gold for a
    // typed sentence).
    const std::optional<MaskComparison>& comparison() const { return result_; }
    // The masks compared (valid with comparison()).
    const PruningMask& mask(int side) const { return masks_[side]; }
    widgets::ChartOverlay* overlay() const { return overlay_; }
    QTableWidget* table() const { return table_; }
    void refresh();

  private:
    std::optional<PruningMask> maskOf(int side, QString* why) const;
    QString sideName(int side) const;
    void chooseFile(int side);

    // Guarded: the main window may delete the explorer (and the overlay, a child of its heat map)
    // before this dock.
    QPointer<ExplorerPanel> ex_;
    QPointer<widgets::ChartOverlay> overlay_;
    QComboBox* box_[2] = {nullptr, nullptr};
    QLabel* fileLabel_[2] = {nullptr, nullptr};
    MaskSourceKind kind_[2] = {MaskSourceKind::Current, MaskSourceKind::Gold};
    QString file_[2];
    std::optional<PruningMask> fileMask_[2];
    PruningMask masks_[2];
    QCheckBox* overlayBox_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* status_ = nullptr;
    std::optional<MaskComparison> result_;
};

} // namespace prunescope::gui
