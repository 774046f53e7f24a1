// The Inspect action's window (CellInspector.h).
#include "app/gui/explorer/CellInspector.h"

#include "app/gui/explorer/SentenceSession.h"
#include "core/parse/PruningMask.h"
#include "widgets/TreeView.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace prunescope::gui {

CellInspector::CellInspector(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Inspect Cell"));
    setObjectName("cellInspector");
    heading_ = new QLabel(this);
    heading_->setWordWrap(true);
    heading_->setTextFormat(Qt::PlainText);
    table_ = new QTableWidget(0, 4, this);
    table_->setHorizontalHeaderLabels(
        {tr("Label"), tr("Grammar symbol"), tr("Inside log score"), tr("Best parse")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    tree_ = new widgets::TreeView(this);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(table_);
    split->addWidget(tree_);
    auto* lay = new QVBoxLayout(this);
    lay->addWidget(heading_);
    lay->addWidget(split, 1);
    resize(560, 520);
}

QString CellInspector::headingText() const {
    return heading_->text();
}

void CellInspector::showCell(const SentenceSession& s, int i, int k) {
    i_ = i, k_ = k;
    inspection_ = inspectCell(s.grammar(), s.chart(), s.words(), i, k);
    QStringList words;
    for (int t = i; t < k; ++t)
        words << QString::fromStdString(s.words()[t]);
    const bool prunable = PruningMask::prunable(s.length(), i, k);
    const QString status = !prunable             ? tr("always kept")
                           : s.mask().keep(i, k) ? tr("kept")
                                                 : tr("pruned");
    heading_->setText(tr("(%1,%2) %3 — %4; %n label(s) built%5", nullptr,
                         static_cast<int>(inspection_.labels.size()))
                          .arg(i)
                          .arg(k)
                          .arg(words.join(' '), status)
                          .arg(inspection_.onBestParse() ? tr(", on the best parse") : QString()));
    table_->setRowCount(static_cast<int>(inspection_.labels.size()));
    for (int r = 0; r < table_->rowCount(); ++r) {
        const CellLabel& l = inspection_.labels[static_cast<std::size_t>(r)];
        table_->setItem(r, 0, new QTableWidgetItem(QString::fromStdString(l.label)));
        table_->setItem(r, 1, new QTableWidgetItem(QString::fromStdString(l.name)));
        auto* score = new QTableWidgetItem(QString::number(l.post, 'f', 3));
        score->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table_->setItem(r, 2, score);
        table_->setItem(r, 3, new QTableWidgetItem(l.onBest ? tr("yes") : QString()));
    }
    table_->resizeColumnsToContents();
    if (inspection_.labels.empty())
        tree_->setMessage(status == tr("pruned") ? tr("Pruned: nothing is built over this span")
                                                 : tr("Nothing is built over this span"));
    else
        tree_->setTree(inspection_.bestSubtree);
}

void CellInspector::refresh(const SentenceSession& s) {
    if (i_ >= 0 && k_ <= s.length() && i_ < k_)
        showCell(s, i_, k_);
    else
        clear();
}

void CellInspector::clear() {
    i_ = k_ = -1;
    inspection_ = {};
    heading_->setText(tr("Right-click a cell (or press I) to inspect it"));
    table_->setRowCount(0);
    tree_->setMessage(QString());
}

} // namespace prunescope::gui
