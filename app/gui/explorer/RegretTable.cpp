// The regret analysis's corpus-level numbers (sec. 7.3, eq. 4) as a table: see RegretTable.h.
#include "app/gui/explorer/RegretTable.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLocale>
#include <QMenu>
#include <QScrollBar>

#include <algorithm>
#include <cmath>
#include <set>

namespace prunescope::gui {
namespace {

enum class RegretValueKind { Count, Probability, Reward };

struct RegretRowSpec {
    const char* key; // RegretStats::toJson()
    const char* name;
    RegretValueKind kind;
    const char* unit; // empty: the reward unit
    const char* tip;
};

// In the order eq. 4 reads: the sample, then p(diff) · (p(gold|diff) E[regret|diff,gold] + ...).
const RegretRowSpec kRegretRows[] = {
    {"sentences", "Sentences", RegretValueKind::Count, "sentences",
     "Sentences rolled in with the policy (the sample, after the Sentences cap)."},
    {"states", "States", RegretValueKind::Count, "states",
     "Roll-in states s: every prunable span of every sentence, each rolled out with keep and with "
     "prune "
     "(weighted T/S when rollouts are sampled)."},
    {"goldStates", "Gold states", RegretValueKind::Count, "states",
     "States whose span is in the binarized gold tree: the gold oracle keeps them."},
    {"p(gold)", "p(gold)", RegretValueKind::Probability, "fraction",
     "Share of states that are gold spans."},
    {"diffStates", "States with diff(s)", RegretValueKind::Count, "states",
     "diff(s) = [regret(s) > 0]: states where the rollout oracle's action earns strictly more "
     "reward than the gold label."},
    {"diffGoldStates", "Gold states with diff(s)", RegretValueKind::Count, "states",
     "Differing states that are gold spans: pruning a gold span earns more than keeping it."},
    {"p(diff)", "p(diff)", RegretValueKind::Probability, "fraction",
     "Eq. 4's first factor: share of states where the gold label is not the best action."},
    {"p(gold|diff)", "p(gold | diff)", RegretValueKind::Probability, "fraction",
     "Among differing states, the share that are gold spans."},
    {"p(not gold|diff)", "p(not gold | diff)", RegretValueKind::Probability, "fraction",
     "Among differing states, the share that are not gold spans."},
    {"E[regret|diff,gold]", "E[regret | diff, gold]", RegretValueKind::Reward, "",
     "Mean regret r[best(s)] − r[gold(s)] over differing gold states (the gold label says keep; "
     "pruning is better)."},
    {"E[regret|diff,not gold]", "E[regret | diff, not gold]", RegretValueKind::Reward, "",
     "Mean regret over differing non-gold states (the gold label says prune; keeping is better)."},
    {"E[regret]", "E[regret] (eq. 4)", RegretValueKind::Reward, "",
     "The gold oracle's mean regret per state: p(diff) · (p(gold|diff) · E[regret|diff,gold] + "
     "p(not gold|diff) · E[regret|diff,not gold])."},
    {"E[regret|gold]", "E[regret | gold]", RegretValueKind::Reward, "",
     "Mean regret over all gold states (zero where the oracles agree)."},
    {"E[regret|not gold]", "E[regret | not gold]", RegretValueKind::Reward, "",
     "Mean regret over all non-gold states (zero where the oracles agree)."},
};

QString formatRegretValue(RegretValueKind kind, double v) {
    switch (kind) {
    case RegretValueKind::Count:
        return std::floor(v) == v ? QLocale().toString(static_cast<qlonglong>(v))
                                  : QString::number(v, 'f', 1);
    case RegretValueKind::Probability:
        return QString::number(v, 'f', 4);
    case RegretValueKind::Reward:
        break;
    }
    return QString::number(v, 'g', 4);
}

} // namespace

RegretTable::RegretTable(QWidget* parent) : QTableWidget(parent) {
    setObjectName("regretTable");
    setColumnCount(3);
    setHorizontalHeaderLabels({tr("Quantity"), tr("Value"), tr("Unit")});
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    horizontalHeader()->setSectionResizeMode(Name, QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(Value, QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setAlternatingRowColors(true);
    setWordWrap(false);
    setToolTip(
        tr("Eq. 4's decomposition of the gold oracle's regret. Ctrl+C copies the selected rows as "
           "tab-separated text; right-click for more."));
}

void RegretTable::setStats(const RegretStats& s, const QString& rewardUnit) {
    const nlohmann::json j = s.toJson();
    json_ = QString::fromStdString(j.dump(1));
    setRowCount(0);
    for (const RegretRowSpec& r : kRegretRows) {
        const auto it = j.find(r.key);
        if (it == j.end()) continue;
        const double v = it->get<double>();
        const int row = rowCount();
        insertRow(row);
        auto* name = new QTableWidgetItem(QString::fromUtf8(r.name));
        name->setData(kKeyRole, QString::fromUtf8(r.key));
        auto* value = new QTableWidgetItem(formatRegretValue(r.kind, v));
        value->setData(kValueRole, v);
        value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto* unit = new QTableWidgetItem(*r.unit ? QString::fromUtf8(r.unit) : rewardUnit);
        const QString tip = QString::fromUtf8(r.tip) + tr("\nExact value: %1").arg(v, 0, 'g', 17);
        for (QTableWidgetItem* it : {name, value, unit})
            it->setToolTip(tip);
        setItem(row, Name, name);
        setItem(row, Value, value);
        setItem(row, Unit, unit);
    }
    // Wide enough for every column without a horizontal scroll bar.
    int w = 2 * frameWidth() + verticalScrollBar()->sizeHint().width() + 4;
    for (int c = 0; c < columnCount(); ++c)
        w += std::max(sizeHintForColumn(c), horizontalHeader()->sectionSizeHint(c)) + 2;
    setMinimumWidth(w);
}

void RegretTable::clearStats() {
    setRowCount(0);
    json_.clear();
}

int RegretTable::rowOf(const QString& key) const {
    for (int r = 0; r < rowCount(); ++r)
        if (item(r, Name)->data(kKeyRole).toString() == key) return r;
    return -1;
}

QString RegretTable::toTsv(bool selectedOnly) const {
    std::set<int> rows;
    if (selectedOnly)
        for (const QModelIndex& i : selectionModel()->selectedIndexes())
            rows.insert(i.row());
    if (rows.empty())
        for (int r = 0; r < rowCount(); ++r)
            rows.insert(r);
    QString out = tr("Quantity\tValue\tUnit\n");
    for (int r : rows) // the exact value, not the rounded display
        out += QString("%1\t%2\t%3\n")
                   .arg(item(r, Name)->text(),
                        QString::number(item(r, Value)->data(kValueRole).toDouble(), 'g', 17),
                        item(r, Unit)->text());
    return out;
}

void RegretTable::copySelection() const {
    QApplication::clipboard()->setText(toTsv(true));
}

void RegretTable::keyPressEvent(QKeyEvent* e) {
    if (e->matches(QKeySequence::Copy)) {
        copySelection();
        e->accept();
        return;
    }
    QTableWidget::keyPressEvent(e);
}

void RegretTable::contextMenuEvent(QContextMenuEvent* e) {
    if (rowCount() == 0) return;
    QMenu menu(this);
    menu.addAction(tr("Copy rows (tab-separated)"), this, [this] { copySelection(); });
    menu.addAction(tr("Copy all (tab-separated)"), this,
                   [this] { QApplication::clipboard()->setText(toTsv(false)); });
    menu.addAction(tr("Copy as JSON"), this, [this] { QApplication::clipboard()->setText(json_); });
    menu.exec(e->globalPos());
}

} // namespace prunescope::gui
