#pragma once
// Edit ▸ Edit Grammar (issue 42, "a grammar a class can read ... editable in the app"): every rule
// of a small grammar as a line with its probability, editable in place; Add Rule, Remove, Apply
// (the explorer reparses the sentence at once) and Save As (a .gram file prunescope-cli parses
// the same). The model is core/grammar/GrammarEdit.
#include "core/grammar/Grammar.h"

#include <QDialog>

#include <memory>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace prunescope::gui {

class GrammarEditor : public QDialog {
    Q_OBJECT
  public:
    // Grammars with more lines than this (rules + lexical entries) are refused: the table is for
    // the classroom sample and grammars like it, not the 1206-symbol treebank grammar.
    static constexpr int kMaxLines = 5000;
    static bool fits(const Grammar& g, int* lines = nullptr);

    GrammarEditor(std::shared_ptr<const Grammar> g, QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }
    // Adds a row for "X -> Y Z" / "TAG -> 'word'" with probability p (checked on Apply).
    void addRule(const QString& text, double p);
    // Builds the grammar of the table and emits grammarEdited; false and *error (naming the row)
    // if a row is wrong, the previous grammar staying in use.
    bool apply(QString* error = nullptr);
    bool saveAs(const QString& path, QString* error = nullptr); // atomic
    std::shared_ptr<const Grammar> grammar() const { return grammar_; }

  signals:
    void grammarEdited(std::shared_ptr<const Grammar> g);

  private:
    std::shared_ptr<const Grammar> grammar_, base_;
    QTableWidget* table_ = nullptr;
    QLineEdit* newRule_ = nullptr;
    QDoubleSpinBox* newProb_ = nullptr;
    QLabel* status_ = nullptr;
};

} // namespace prunescope::gui
