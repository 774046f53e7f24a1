// The empirical-complexity window (Rush & Petrov 2012 sec. 6): see ComplexityWindow.h.
#include "app/gui/dep/ComplexityWindow.h"

#include "core/vine/EmpiricalComplexity.h"
#include "widgets/ComplexityPlot.h"

#include <QFileDialog>
#include <QLabel>
#include <QMessageBox>
#include <QToolBar>
#include <QVBoxLayout>

namespace prunescope::gui {

ComplexityWindow::ComplexityWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName("complexityWindow");
    setWindowTitle(tr("Empirical Complexity — PruneScope"));
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    plot_ = new widgets::ComplexityPlot(central);
    note_ = new QLabel(central);
    note_->setWordWrap(true);
    layout->addWidget(plot_, 1);
    layout->addWidget(note_);
    setCentralWidget(central);
    auto* tb = addToolBar(tr("Complexity"));
    tb->setObjectName("complexityToolBar");
    tb->addAction(tr("Open…"), this, [this] {
        const QStringList paths =
            QFileDialog::getOpenFileNames(this, tr("Open Complexity Run"), QString(),
                                          tr("vine-complexity JSON (*.json);;All files (*)"));
        QString err;
        if (!paths.isEmpty() && !openFiles(parentWidget(), paths, &err))
            QMessageBox::warning(this, tr("PruneScope"), err);
    });
    tb->addAction(tr("Export PNG/PDF…"), this, [this] {
        const QString p = QFileDialog::getSaveFileName(
            this, tr("Export Complexity Plot"), "complexity.png", tr("PNG (*.png);;PDF (*.pdf)"));
        QString err;
        if (!p.isEmpty() && !plot_->saveImage(p, 0, 0, &err))
            QMessageBox::warning(this, tr("PruneScope"), err);
    });
}

ComplexityWindow* ComplexityWindow::openFiles(QWidget* parent, const QStringList& paths,
                                              QString* error) {
    std::vector<ComplexitySeries> series;
    try {
        for (const QString& p : paths)
            for (ComplexitySeries& s : loadComplexityFile(p.toStdString()))
                series.push_back(std::move(s));
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return nullptr;
    }
    auto* w = parent ? parent->findChild<ComplexityWindow*>(QString(), Qt::FindDirectChildrenOnly)
                     : nullptr;
    if (!w) {
        w = new ComplexityWindow(parent);
        w->setWindowFlag(Qt::Window);
        w->resize(1000, 720);
    }
    w->plot_->setSeries(std::move(series));
    w->note_->setText(w->note());
    w->show();
    w->raise();
    return w;
}

QString ComplexityWindow::note() const {
    return tr("%1 series. Each dot is one sentence's thread CPU time (its minimum over the "
              "repeats); each line the least-squares fit time ≈ c·n^b on log–log. Exponents of "
              "time depend on the machine and the kernel; those of pushes do not. Hover a dot for "
              "its numbers.")
        .arg(plot_->series().size());
}

} // namespace prunescope::gui
