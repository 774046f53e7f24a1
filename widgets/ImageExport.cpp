// Atomic image exports (see ImageExport.h).
#include "widgets/ImageExport.h"

#include "core/util/AtomicFile.h"

#include <qcustomplot.h>

#include <QFile>
#include <QFileInfo>
#include <QPixmap>
#include <QTemporaryDir>
#include <QWidget>

#include <exception>

namespace prunescope::widgets {

bool exportAtomically(const QString& path, const std::function<bool(const QString&)>& render,
                      QString* error) {
    auto fail = [&](const QString& msg) {
        if (error) *error = msg;
        return false;
    };
    QTemporaryDir tmp;
    if (!tmp.isValid())
        return fail(QObject::tr("Cannot create a temporary folder for %1").arg(path));
    const QString suffix = QFileInfo(path).suffix();
    const QString tmpPath = tmp.filePath("export" + (suffix.isEmpty() ? QString() : "." + suffix));
    if (!render(tmpPath)) return fail(QObject::tr("Cannot render the image for %1").arg(path));
    QFile f(tmpPath);
    if (!f.open(QIODevice::ReadOnly))
        return fail(QObject::tr("Cannot render the image for %1").arg(path));
    const QByteArray bytes = f.readAll();
    if (bytes.isEmpty())
        return fail(QObject::tr("Cannot render the image for %1 (empty image)").arg(path));
    try {
        writeFileAtomically(path.toStdString(), bytes.toStdString());
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()));
    }
    return true;
}

bool saveWidgetImage(QWidget* widget, const QString& path, QString* error) {
    return exportAtomically(
        path, [widget](const QString& tmp) { return widget->grab().save(tmp); }, error);
}

bool savePlotImage(QCustomPlot* plot, const QString& path, int width, int height, QString* error) {
    return exportAtomically(
        path,
        [&](const QString& tmp) {
            if (path.endsWith(".pdf", Qt::CaseInsensitive))
                return plot->savePdf(tmp, width, height);
            return plot->savePng(tmp, width, height);
        },
        error);
}

} // namespace prunescope::widgets
