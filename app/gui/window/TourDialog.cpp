// Help ▸ Tour and Help ▸ Keyboard Shortcuts (TourDialog.h).
#include "app/gui/window/TourDialog.h"

#include "app/gui/explorer/ExplorerPanel.h"
#include "app/gui/explorer/MaskComparisonPanel.h"
#include "app/gui/explorer/ReplayController.h"
#include "app/gui/explorer/SentenceSession.h"
#include "app/gui/frontier/FrontierWindow.h"
#include "app/gui/window/MainWindow.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>

namespace prunescope::gui {

// The tour's steps: what each explains and what its "Show me" button does.
TourDialog::Step TourDialog::pruneGoldStep(ExplorerPanel* ex) {
    return {
        tr("1. Prune a gold span"),
        tr("The chart is the CKY triangle: one cell per span, the words along the base, the "
           "whole sentence at the top. Outlined cells are the gold tree's spans, dotted cells "
           "the best parse's. <b>Click a cell</b> (or move with the arrow keys and press Space) "
           "to flip its prune bit: a pruned cell is <b>hatched</b> and the parser builds nothing "
           "there. Pruning a gold span usually costs F1: watch <i>F1 vs gold</i> on the right."),
        tr("Prune a gold span"), [this, ex]() -> QString {
            SentenceSession* s = ex->session();
            if (!s || !s->hasGold())
                return tr("Open a sentence with a gold tree first (the bundled sample has them).");
            const int n = s->length();
            for (int w = n - 1; w >= 2; --w) // the widest kept gold span: a visible change
                for (int i = 0; i + w <= n; ++i)
                    if (s->isGoldSpan(i, i + w) && s->mask().keep(i, i + w) &&
                        ex->requestFlip(i, i + w)) {
                        prunedGold_ = {i, i + w};
                        return {};
                    }
            return tr("Every gold span of this sentence is pruned already: press Ctrl+Shift+A "
                      "(Keep All) and try again.");
        }};
}

TourDialog::Step TourDialog::propagationStep(ExplorerPanel* ex) {
    return {
        tr("2. Watch change propagation"),
        tr("A flip does not reparse: change propagation (sec. 5.2) updates only the cells the "
           "flip touches, in agenda order. In <b>Step by step</b> mode (the <i>Changes</i> box) "
           "press <b>N</b> or <i>Next Step</i> to light them up one by one; <i>Show All</i> "
           "ends it. Ctrl+Z undoes a flip."),
        tr("Undo and redo the flip step by step"), [this, ex]() -> QString {
            if (!ex->session()) return tr("Open a sentence first.");
            ex->setAnimationMode(widgets::AnimationMode::Step);
            if (prunedGold_.first < 0 || !ex->undoStack()->canUndo())
                return tr("Step by step is on: flip any cell and press N to see its changes.");
            ex->undoStack()->undo();
            ex->undoStack()->redo(); // the flip again, its changes revealed one cell per N
            return {};
        }};
}

TourDialog::Step TourDialog::replayStep(ExplorerPanel* ex) {
    return {
        tr("3. Replay CKY"),
        tr("<b>Replay CKY</b> (F5) builds the chart of the current mask from scratch, bottom-up: "
           "width 1, then 2, …, each cell from its split points. Pruned cells are skipped, so "
           "they cost no pushes. Play, Step and Back move through it; Stop Replay returns."),
        tr("Replay CKY"), [ex]() -> QString {
            if (!ex->session()) return tr("Open a sentence first.");
            ex->setAnimationMode(widgets::AnimationMode::Instant);
            ex->replayAction()->trigger();
            return {};
        }};
}

TourDialog::Step TourDialog::compareStep(ExplorerPanel* ex) {
    return {
        tr("4. Compare masks"),
        tr("<b>Compare Masks</b> (Ctrl+Shift+M) sets two masks side by side — the current one, "
           "the policy's, gold only, keep all, or a mask file — and counts the spans they keep, "
           "the pushes and the F1 of each, with the cells they disagree on outlined on the "
           "chart."),
        tr("Compare the current mask with the policy's"), [this, ex]() -> QString {
            ex->stopReplay();
            MaskComparisonPanel* c = w_->maskComparison();
            c->show();
            c->setSource(0, MaskSourceKind::Current);
            c->setSource(1, MaskSourceKind::Policy);
            c->refresh();
            return {};
        }};
}

TourDialog::Step TourDialog::lambdaStep() {
    return {tr("5. Pick λ"),
            tr("A policy trades accuracy for speed: reward = F1 − λ · runtime. The <b>frontier</b> "
               "(View ▸ Frontier & Training, Ctrl+Shift+F) plots each policy's F1 against its "
               "runtime; move the λ slider to pick the policy that maximizes the reward, then open "
               "it here to see which spans it prunes."),
            tr("Open the frontier"), [this]() -> QString {
                FrontierWindow::showFor(w_);
                return {};
            }};
}

// Title, explanation, "Show me", its result, and Back / Next / Close.
void TourDialog::buildLayout() {
    title_ = new QLabel;
    title_->setObjectName("tourTitle");
    QFont f = title_->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.2);
    title_->setFont(f);
    text_ = new QLabel;
    text_->setObjectName("tourText");
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::RichText);
    text_->setMinimumWidth(320);
    result_ = new QLabel;
    result_->setObjectName("tourResult");
    result_->setWordWrap(true);
    act_ = new QPushButton;
    act_->setObjectName("tourAct");
    back_ = new QPushButton(tr("◀ Back"));
    next_ = new QPushButton(tr("Next ▶"));
    auto* close = new QPushButton(tr("Close"));
    connect(act_, &QPushButton::clicked, this, [this] { actOnWindow(); });
    connect(back_, &QPushButton::clicked, this, [this] { setStep(step_ - 1); });
    connect(next_, &QPushButton::clicked, this, [this] { setStep(step_ + 1); });
    connect(close, &QPushButton::clicked, this, &QDialog::close);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(back_);
    buttons->addWidget(next_);
    buttons->addStretch(1);
    buttons->addWidget(close);
    auto* lay = new QVBoxLayout(this);
    lay->addWidget(title_);
    lay->addWidget(text_, 1);
    lay->addWidget(act_);
    lay->addWidget(result_);
    lay->addLayout(buttons);
}

TourDialog::TourDialog(MainWindow* window) : QDialog(window), w_(window) {
    setWindowTitle(tr("PruneScope Tour"));
    setObjectName("tourDialog");
    setModal(false);
    ExplorerPanel* ex = w_->explorer();
    steps_ = {pruneGoldStep(ex), propagationStep(ex), replayStep(ex), compareStep(ex),
              lambdaStep()};
    buildLayout();
    resize(380, 320);
    setStep(0);
}

void TourDialog::setStep(int s) {
    step_ = std::clamp(s, 0, stepCount() - 1);
    const Step& st = steps_[static_cast<std::size_t>(step_)];
    title_->setText(st.title + tr("  (%1 of %2)").arg(step_ + 1).arg(stepCount()));
    text_->setText(st.text);
    act_->setText(tr("Show me: %1").arg(st.action));
    result_->clear();
    back_->setEnabled(step_ > 0);
    next_->setEnabled(step_ + 1 < stepCount());
}

bool TourDialog::actOnWindow() {
    const QString error = steps_[static_cast<std::size_t>(step_)].act();
    result_->setText(error.isEmpty() ? tr("Done: see the window.") : error);
    return error.isEmpty();
}

QString TourDialog::text() const {
    return text_->text();
}

namespace {
void collectShortcuts(const QMenu* menu, const QString& path, std::vector<ShortcutRow>& out) {
    for (QAction* a : menu->actions()) {
        if (a->isSeparator()) continue;
        QString text = a->text();
        text.remove('&');
        text.remove(QStringLiteral("…"));
        if (a->menu()) {
            collectShortcuts(a->menu(), path + QStringLiteral(" ▸ ") + text, out);
            continue;
        }
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts())
            if (!k.isEmpty()) keys << k.toString(QKeySequence::NativeText);
        if (!keys.isEmpty()) out.push_back({path, text, keys.join(QStringLiteral(", "))});
    }
}
} // namespace

std::vector<ShortcutRow> shortcutRows(const QMainWindow* window) {
    std::vector<ShortcutRow> out;
    for (QAction* a : window->menuBar()->actions())
        if (a->menu()) {
            QString name = a->text();
            name.remove('&');
            collectShortcuts(a->menu(), name, out);
        }
    return out;
}

QDialog* keyboardShortcutsDialog(QMainWindow* window) {
    auto* d = new QDialog(window);
    d->setObjectName("shortcutsDialog");
    d->setWindowTitle(QObject::tr("Keyboard Shortcuts"));
    d->setAttribute(Qt::WA_DeleteOnClose);
    const std::vector<ShortcutRow> rows = shortcutRows(window);
    auto* table = new QTableWidget(static_cast<int>(rows.size()) + 3, 3);
    table->setObjectName("shortcutsTable");
    table->setHorizontalHeaderLabels(
        {QObject::tr("Menu"), QObject::tr("Action"), QObject::tr("Shortcut")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    int r = 0;
    auto add = [&](const QString& a, const QString& b, const QString& c) {
        table->setItem(r, 0, new QTableWidgetItem(a));
        table->setItem(r, 1, new QTableWidgetItem(b));
        table->setItem(r, 2, new QTableWidgetItem(c));
        ++r;
    };
    for (const ShortcutRow& row : rows)
        add(row.menu, row.action, row.keys);
    // The chart's own keys (ChartHeatMap::keyPressEvent), not actions.
    add(QObject::tr("Chart"), QObject::tr("Move the cell cursor"), QObject::tr("Arrow keys"));
    add(QObject::tr("Chart"), QObject::tr("Flip the cell's prune bit"), QObject::tr("Space"));
    add(QObject::tr("Chart"), QObject::tr("Next change (step-by-step mode)"), QObject::tr("N"));
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QObject::connect(buttons, &QDialogButtonBox::rejected, d, &QDialog::close);
    auto* lay = new QVBoxLayout(d);
    lay->addWidget(table);
    lay->addWidget(buttons);
    d->resize(560, 480);
    return d;
}

} // namespace prunescope::gui
