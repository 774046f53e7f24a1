#pragma once
// What the heat map shows for a SentenceSession: per-cell values for the chosen quantity,
// the colour scale, tooltips, and change events summarized per cell in agenda order.
#include "app/gui/SentenceSession.h"
#include "widgets/ChartHeatMap.h"

#include <QString>

namespace prunescope::gui {

// SpanMarginal: the posterior of the span under the PCFG over the mask's derivations (SpanMarginals.h).
enum class Quantity { KeepProbability, InsideScore, Constituents, RecallContribution, SpanMarginal };
inline constexpr Quantity kAllQuantities[] = {Quantity::KeepProbability, Quantity::InsideScore, Quantity::Constituents,
                                             Quantity::RecallContribution, Quantity::SpanMarginal};
QString quantityName(Quantity q);

struct CellPresentation {
    std::vector<widgets::HeatCell> cells;  // indexed i*(n+1)+k
    double lo = 0, hi = 1;
    QString title;
    int decimals = 2;
};

// Each cell's label is its best-scoring built symbol (highest post-layer inside score); by default
// under its unbinarized name (unbinarizedLabel: "@NP|DT_NN" -> "NP"), with `binarizedLabels` the
// grammar's own symbol.
CellPresentation presentCells(const SentenceSession& s, Quantity q, bool binarizedLabels = false);
// Rich-text tooltip: words, status, top labels (binarized symbols, with their unbinarized names) with scores, policy probability and features.
QString cellTooltip(const SentenceSession& s, int i, int k);
// Per touched cell, in the order the agenda first reached it.
std::vector<widgets::CellMark> summarizeEvents(const std::vector<ChangeEvent>& events);

} // namespace prunescope::gui
