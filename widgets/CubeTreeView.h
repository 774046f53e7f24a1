#pragma once
// A sentence with two dependency trees and the subtrees an update works on (Zhang et al. 2013,
// Figure 1): gold arcs above the words, the predicted (Viterbi) arcs below (arcs that differ from
// gold in vermillion and dashed); under them, the spans of gold nodes as brackets — the s-max node
// (thick black) and the p-max frontier (blue; grey where the subtrees agree) — each labelled with
// its cell and violation; arcs an update moves toward (gold side) or away from (Viterbi side)
// thickened.
#include <QStringList>
#include <QWidget>

#include <array>
#include <vector>

namespace prunescope::widgets {

struct SpanBracket {
    int lo = 0, hi = 0; // positions covered (inclusive)
    QString label;      // e.g. "C(3,7) v=1.25"
    enum Kind { SMax, Frontier, FrontierAgreeing } kind = Frontier;
};

class CubeTreeView : public QWidget {
    Q_OBJECT
  public:
    explicit CubeTreeView(QWidget* parent = nullptr);

    // words[0] = root; heads size n + 1 (heads[0] = -1; empty = none).
    void setSentence(const QStringList& words, const std::vector<int>& gold,
                     const std::vector<int>& predicted);
    void setBrackets(std::vector<SpanBracket> brackets);
    // Arcs (h, m) an update moves toward (drawn thick on the gold side) and away from (on the
    // predicted side).
    void setUpdateArcs(std::vector<std::array<int, 2>> toward,
                       std::vector<std::array<int, 2>> away);
    void setMessage(const QString& message);

    int wrongArcs() const; // predicted arcs that differ from gold
    const std::vector<SpanBracket>& brackets() const { return brackets_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return {300, 160}; }

  protected:
    void paintEvent(QPaintEvent*) override;

  private:
    double xOf(int position) const;
    void drawArcs(QPainter& p, const std::vector<int>& heads, bool above, double baseY,
                  double unit) const;

    QStringList words_;
    std::vector<int> gold_, pred_;
    std::vector<SpanBracket> brackets_;
    std::vector<std::array<int, 2>> toward_, away_;
    QString message_;
};

} // namespace prunescope::widgets
