#pragma once
// Help ▸ Tour (issue 42, "a guided start"): a step-by-step guide beside the main window — prune a
// gold span, watch change propagation, replay CKY, compare masks, pick λ — whose "Show me" button
// performs each step on the window (a flip, an animation, a replay, the comparison dock, the
// frontier window), so a class can follow along. Non-modal: the window stays usable.
// Help ▸ Keyboard Shortcuts lists the shortcuts of the window's real actions (shortcutRows).
#include <QDialog>
#include <QString>

#include <functional>
#include <vector>

class QLabel;
class QPushButton;
class QMainWindow;

namespace prunescope::gui {

class ExplorerPanel;
class MainWindow;

class TourDialog : public QDialog {
    Q_OBJECT
  public:
    explicit TourDialog(MainWindow* window);

    int stepCount() const { return static_cast<int>(steps_.size()); }
    int step() const { return step_; }
    QString stepTitle(int s) const { return steps_.at(static_cast<std::size_t>(s)).title; }
    void setStep(int s);
    // Performs the current step on the window ("Show me"). Returns false (and says why in the
    // step's text) when it cannot, e.g. no sentence with gold spans is open.
    bool actOnWindow();
    QString text() const; // the current step's explanation, as shown

  private:
    struct Step {
        QString title, text, action;
        std::function<QString()> act; // returns an error message, empty on success
    };
    // The constructor's parts: the five steps, then the layout.
    Step pruneGoldStep(ExplorerPanel* ex);
    Step propagationStep(ExplorerPanel* ex);
    Step replayStep(ExplorerPanel* ex);
    Step compareStep(ExplorerPanel* ex);
    Step lambdaStep();
    void buildLayout();
    MainWindow* w_;
    std::vector<Step> steps_;
    int step_ = 0;
    QLabel *title_, *text_, *result_;
    QPushButton *back_, *next_, *act_;
    std::pair<int, int> prunedGold_{-1, -1}; // the gold span step 1 pruned
};

// One row per action with a shortcut in the window's menus (and their submenus), in menu order:
// {menu, action text without '&', shortcuts as the user types them}.
struct ShortcutRow {
    QString menu, action, keys;
};
std::vector<ShortcutRow> shortcutRows(const QMainWindow* window);
// Help ▸ Keyboard Shortcuts: the rows above in a table, and the chart's keys (arrows, Space).
QDialog* keyboardShortcutsDialog(QMainWindow* window);

} // namespace prunescope::gui
