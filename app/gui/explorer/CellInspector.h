#pragma once
// The explorer's Inspect action (right-click or I on a cell): a non-destructive look at one chart
// cell beside the flip that a click does — every built label with its inside log score (Alg. 1's
// β), which one the best parse uses, and the cell's best subtree. core/parse/CellInspection is the
// model; `prunescope-cli inspect-cell` prints the same.
#include "core/parse/CellInspection.h"

#include <QDialog>

class QLabel;
class QTableWidget;

namespace prunescope::widgets {
class TreeView;
}

namespace prunescope::gui {

class SentenceSession;

class CellInspector : public QDialog {
    Q_OBJECT
  public:
    explicit CellInspector(QWidget* parent = nullptr);
    // Shows cell (i,k) of the session's current chart; the mask is not touched.
    void showCell(const SentenceSession& s, int i, int k);
    // Shows the same cell again (after a flip, undo or new mask) if it still fits the session.
    void refresh(const SentenceSession& s);
    void clear(); // no session
    int cellI() const { return i_; }
    int cellK() const { return k_; }
    const CellInspection& inspection() const { return inspection_; }
    QTableWidget* table() const { return table_; }
    widgets::TreeView* treeView() const { return tree_; }
    QString headingText() const;

  private:
    int i_ = -1, k_ = -1;
    CellInspection inspection_;
    QLabel* heading_ = nullptr;
    QTableWidget* table_ = nullptr;
    widgets::TreeView* tree_ = nullptr;
};

} // namespace prunescope::gui
