#pragma once
// The corpus-level numbers of the regret analysis (Vieira & Eisner 2017, sec. 7.3, eq. 4) as a
// table: one row per quantity of RegretStats::toJson(), with a readable name in the paper's
// notation, the value, its unit and a tooltip saying what it is. Ctrl+C (or the context menu)
// copies the selected rows, or all, as tab-separated text; the context menu also copies the JSON.
#include "core/lols/Regret.h"

#include <QTableWidget>

namespace prunescope::gui {

class RegretTable : public QTableWidget {
    Q_OBJECT
  public:
    enum Column { Name, Value, Unit };
    static constexpr int kKeyRole = Qt::UserRole;       // on Name: the toJson() key
    static constexpr int kValueRole = Qt::UserRole + 1; // on Value: the exact double

    explicit RegretTable(QWidget* parent = nullptr);
    // `rewardUnit` names the reward of the surrogate the rollouts used (e.g. "F1 −
    // λ·constituents").
    void setStats(const RegretStats& s, const QString& rewardUnit);
    void clearStats();
    int rowOf(const QString& key) const; // -1 if absent
    QString toTsv(bool selectedOnly) const;
    QString json() const { return json_; }
    void copySelection() const;

  protected:
    void keyPressEvent(QKeyEvent* e) override;
    void contextMenuEvent(QContextMenuEvent* e) override;

  private:
    QString json_;
};

} // namespace prunescope::gui
