// How the windows show a file path: relative to the working directory when the file lies under it.
#include "app/gui/explorer/ShownPath.h"

#include <QDir>
#include <QFileInfo>

namespace prunescope::gui {

QString absolutePath(const QString& path) {
    return path.isEmpty() ? QString() : QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

QString shownPath(const QString& path) {
    if (path.isEmpty()) return QString();
    const QString abs = absolutePath(path);
    const QString rel = QDir::current().relativeFilePath(abs);
    if (rel.isEmpty() || rel == "." || rel.startsWith("../") || rel == ".." ||
        QDir::isAbsolutePath(rel))
        return abs;
    return rel;
}

} // namespace prunescope::gui
