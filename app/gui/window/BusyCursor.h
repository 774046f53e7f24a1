#pragma once
// A busy cursor for synchronous GUI-thread work that can take noticeably long (opening a frontier
// with many LOLS runs: reading each run's log and refitting the plot once per iteration). Shown
// for the guard's lifetime; nested guards are counted by Qt's override-cursor stack.
#include <QApplication>
#include <QCursor>

namespace prunescope::gui {

class BusyCursor {
  public:
    BusyCursor() { QApplication::setOverrideCursor(QCursor(Qt::BusyCursor)); }
    ~BusyCursor() { QApplication::restoreOverrideCursor(); }
    BusyCursor(const BusyCursor&) = delete;
    BusyCursor& operator=(const BusyCursor&) = delete;
};

} // namespace prunescope::gui
