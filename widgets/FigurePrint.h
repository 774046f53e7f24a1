#pragma once
// File ▸ Print… (issue 18): views printed as figures (widgets/FigureExport.h: the view on white
// with its optional caption), one per page, each scaled to fit the printable area with its aspect
// kept and centred at the top, on landscape paper when it is wider than tall; a figure that would
// print smaller than on screen (a 40-word tree: its text below 6 pt) keeps its screen size and runs
// over several pages, left to right. Any QPrinter: a real printer, or a PDF file
// (QPrinter::PdfFormat).
#include <QString>

#include <vector>

class QPrinter;
class QWidget;

namespace prunescope::widgets {

struct FigurePage {
    QWidget* view = nullptr;
    QString caption; // empty = none
};

// False with a message in *error when there is nothing to print, a view has no size, or the
// printer cannot be opened (e.g. an unwritable PDF path).
bool printFigures(QPrinter& printer, const std::vector<FigurePage>& pages,
                  QString* error = nullptr);

} // namespace prunescope::widgets
