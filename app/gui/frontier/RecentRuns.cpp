// Recent LOLS run directories (RecentRuns.h).
#include "app/gui/frontier/RecentRuns.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace prunescope::gui {

namespace {
constexpr const char* kKey = "frontier/recentRuns";
}

void rememberLolsRun(const QString& runDir) {
    if (runDir.isEmpty()) return;
    const QString dir = QDir::cleanPath(QFileInfo(runDir).absoluteFilePath());
    QStringList runs = QSettings().value(kKey).toStringList();
    runs.removeAll(dir);
    runs.prepend(dir);
    while (runs.size() > kMaxRecentRuns)
        runs.removeLast();
    QSettings().setValue(kKey, runs);
}

QStringList recentLolsRuns() {
    QStringList out;
    for (const QString& dir : QSettings().value(kKey).toStringList())
        if (QFileInfo(QDir(dir).filePath("config.json")).isFile()) out << dir;
    return out;
}

} // namespace prunescope::gui
