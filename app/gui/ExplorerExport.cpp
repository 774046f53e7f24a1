// Exports of the explorer: the current view as PNG/SVG and the current mask as JSON,
// all written atomically (QSaveFile).
#include "app/gui/ExplorerPanel.h"

#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace prunescope::gui {
namespace {

bool fail(QString* error, const QString& msg) {
    if (error) *error = msg;
    return false;
}

} // namespace

bool ExplorerPanel::exportPng(const QString& path, QString* error) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return fail(error, tr("Cannot write %1: %2").arg(path, f.errorString()));
    QImage img = grab().toImage();
    if (!img.save(&f, "PNG")) return fail(error, tr("Cannot encode PNG for %1").arg(path));
    if (!f.commit()) return fail(error, tr("Cannot write %1: %2").arg(path, f.errorString()));
    return true;
}

bool ExplorerPanel::exportSvg(const QString& path, QString* error) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return fail(error, tr("Cannot write %1: %2").arg(path, f.errorString()));
    {
        QSvgGenerator gen;
        gen.setOutputDevice(&f);
        gen.setSize(size());
        gen.setViewBox(rect());
        gen.setTitle(tr("PruneScope chart"));
        QPainter p(&gen);
        render(&p);
    }
    if (!f.commit()) return fail(error, tr("Cannot write %1: %2").arg(path, f.errorString()));
    return true;
}

bool ExplorerPanel::exportMask(const QString& path, QString* error) {
    if (!session_) return fail(error, tr("No sentence to export a mask for"));
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return fail(error, tr("Cannot write %1: %2").arg(path, f.errorString()));
    QByteArray bytes = QByteArray::fromStdString(session_->mask().toJson().dump() + "\n");
    if (f.write(bytes) != bytes.size() || !f.commit()) return fail(error, tr("Cannot write %1: %2").arg(path, f.errorString()));
    return true;
}

} // namespace prunescope::gui
