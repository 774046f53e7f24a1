// The Edit Grammar window (GrammarEditor.h).
#include "app/gui/explorer/GrammarEditor.h"

#include "core/grammar/GrammarEdit.h"
#include "core/grammar/GrammarFile.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace prunescope::gui {

namespace {
QTableWidgetItem* probabilityItem(double p) {
    auto* item = new QTableWidgetItem(QString::number(p, 'g', 6));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}
} // namespace

bool GrammarEditor::fits(const Grammar& g, int* lines) {
    const GrammarStats s = grammarStats(g);
    const int n = s.binaryRules + s.unaryRules + s.rootRules + s.lexicalEntries +
                  static_cast<int>(g.unknownFallback.size());
    if (lines) *lines = n;
    return n <= kMaxLines;
}

GrammarEditor::GrammarEditor(std::shared_ptr<const Grammar> g, QWidget* parent)
    : QDialog(parent), grammar_(g), base_(std::move(g)) {
    setWindowTitle(tr("Edit Grammar"));
    setObjectName("grammarEditor");
    table_ = new QTableWidget(0, 2, this);
    table_->setHorizontalHeaderLabels({tr("Rule"), tr("Probability")});
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table_->verticalHeader()->setVisible(false);
    for (const RuleLine& l : grammarRuleLines(*base_)) {
        const int r = table_->rowCount();
        table_->insertRow(r);
        table_->setItem(r, 0, new QTableWidgetItem(QString::fromStdString(l.text())));
        table_->setItem(r, 1, probabilityItem(l.probability));
    }
    newRule_ = new QLineEdit(this);
    newRule_->setObjectName("newRule");
    newRule_->setPlaceholderText(tr("VP -> VBD NP   or   NN -> 'zebra'"));
    newProb_ = new QDoubleSpinBox(this);
    newProb_->setDecimals(6);
    newProb_->setRange(0.000001, 1);
    newProb_->setValue(0.1);
    auto* add = new QPushButton(tr("Add Rule"), this);
    auto* remove = new QPushButton(tr("Remove Selected"), this);
    connect(add, &QPushButton::clicked, this, [this] {
        if (!newRule_->text().trimmed().isEmpty()) addRule(newRule_->text(), newProb_->value());
        newRule_->clear();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        const auto rows = table_->selectionModel()->selectedRows();
        for (auto it = rows.rbegin(); it != rows.rend(); ++it)
            table_->removeRow(it->row());
    });
    auto* addRow = new QHBoxLayout;
    addRow->addWidget(newRule_, 1);
    addRow->addWidget(newProb_);
    addRow->addWidget(add);
    addRow->addWidget(remove);
    status_ = new QLabel(tr("Edit a probability or a rule, then Apply: the sentence is parsed "
                            "again with the edited grammar. Probabilities are used as typed."),
                         this);
    status_->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Apply | QDialogButtonBox::Close, this);
    auto* save = buttons->addButton(tr("Save As…"), QDialogButtonBox::ActionRole);
    connect(buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, [this] {
        QString error;
        if (!apply(&error)) QMessageBox::warning(this, tr("Edit Grammar"), error);
    });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save Grammar"), QString(),
                                                          tr("Grammars (*.gram)"));
        QString error;
        if (!path.isEmpty() && !saveAs(path, &error))
            QMessageBox::warning(this, tr("Save Grammar"), error);
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto* lay = new QVBoxLayout(this);
    lay->addWidget(table_, 1);
    lay->addLayout(addRow);
    lay->addWidget(status_);
    lay->addWidget(buttons);
    resize(520, 640);
}

void GrammarEditor::addRule(const QString& text, double p) {
    const int r = table_->rowCount();
    table_->insertRow(r);
    table_->setItem(r, 0, new QTableWidgetItem(text.trimmed()));
    table_->setItem(r, 1, probabilityItem(p));
    table_->scrollToItem(table_->item(r, 0));
}

bool GrammarEditor::apply(QString* error) {
    std::vector<RuleLine> lines;
    for (int r = 0; r < table_->rowCount(); ++r) {
        bool ok = false;
        const double p = table_->item(r, 1)->text().toDouble(&ok);
        try {
            if (!ok) throw std::invalid_argument("the probability is not a number");
            lines.push_back(parseRuleLine(table_->item(r, 0)->text().toStdString(), p));
        } catch (const std::invalid_argument& e) {
            if (error)
                *error = tr("Row %1 (%2): %3")
                             .arg(r + 1)
                             .arg(table_->item(r, 0)->text(), QString::fromStdString(e.what()));
            return false;
        }
    }
    try {
        grammar_ = std::make_shared<const Grammar>(grammarFromRuleLines(*base_, lines));
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    status_->setText(tr("Applied: %1 rules and words.").arg(lines.size()));
    emit grammarEdited(grammar_);
    return true;
}

bool GrammarEditor::saveAs(const QString& path, QString* error) {
    if (!apply(error)) return false;
    try {
        saveGrammar(*grammar_, path.toStdString());
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    status_->setText(tr("Saved %1").arg(path));
    return true;
}

} // namespace prunescope::gui
