// How the windows show a file path: relative to the working directory when the file lies under it.
#pragma once
#include <QString>

namespace prunescope::gui {

// `path` relative to the current directory if it lies inside it (samples/policies/x.json), else the
// absolute path; an empty path stays empty. The shown path still opens: the GUI never changes the
// working directory. Tooltips keep the absolute path (absolutePath).
QString shownPath(const QString& path);
QString absolutePath(const QString& path);

} // namespace prunescope::gui
