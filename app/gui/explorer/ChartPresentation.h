#pragma once
// What the heat map shows for a SentenceSession: per-cell values for the chosen quantity,
// the colour scale, tooltips, and change events summarized per cell in agenda order.
#include "app/gui/explorer/SentenceSession.h"
#include "widgets/ChartHeatMap.h"

#include <QString>

namespace prunescope::gui {

// SpanMarginal: the posterior of the span under the PCFG over the mask's derivations
// (SpanMarginals.h).
enum class Quantity {
    KeepProbability,
    InsideScore,
    Constituents,
    RecallContribution,
    SpanMarginal
};
inline constexpr Quantity kAllQuantities[] = {Quantity::KeepProbability, Quantity::InsideScore,
                                              Quantity::Constituents, Quantity::RecallContribution,
                                              Quantity::SpanMarginal};
QString quantityName(Quantity q);

struct CellPresentation {
    std::vector<widgets::HeatCell> cells; // indexed i*(n+1)+k
    double lo = 0, hi = 1;
    QString title;
    int decimals = 2;
};

// Each cell's label is its best-scoring built symbol (highest post-layer inside score); by default
// under its unbinarized name (unbinarizedLabel: "@NP|DT_NN" -> "NP"), with `binarizedLabels` the
// grammar's own symbol.
CellPresentation presentCells(const SentenceSession& s, Quantity q, bool binarizedLabels = false);
// Whether presentCellsAfterFlip reuses cells: for quantities that depend on a cell's own post layer
// (or not on the mask at all), not for those computed from the whole chart (recall, marginal).
bool presentsIncrementally(Quantity q);
// presentCells after s.flip(fi, fk), given `previous` = presentCells(q, binarizedLabels) of the
// state before that flip: only cells with post-layer change events (and the flipped one) are read
// again (issue 18, latency). Equal to presentCells (test_explorer_present); falls back to it when
// !presentsIncrementally(q).
CellPresentation presentCellsAfterFlip(const SentenceSession& s, Quantity q, bool binarizedLabels,
                                       std::vector<widgets::HeatCell> previous, int fi, int fk);
// Rich-text tooltip: words, status, top labels (binarized symbols, with their unbinarized names)
// with scores, policy probability and features.
QString cellTooltip(const SentenceSession& s, int i, int k);
// Per touched cell, in the order the agenda first reached it.
std::vector<widgets::CellMark> summarizeEvents(const std::vector<ChangeEvent>& events);

} // namespace prunescope::gui
