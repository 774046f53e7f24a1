#pragma once
// LOLS run directories the frontier window has started or opened, remembered across restarts
// (issue 42): File ▸ Recent LOLS Runs reopens one (and follows it if it is still growing).
// QSettings key "frontier/recentRuns": absolute paths, most recent first, at most kMaxRecentRuns.
#include <QStringList>

namespace prunescope::gui {

inline constexpr int kMaxRecentRuns = 10;

void rememberLolsRun(const QString& runDir);
// The remembered runs that still hold a config.json, most recent first.
QStringList recentLolsRuns();

} // namespace prunescope::gui
