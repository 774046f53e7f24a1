#include "app/gui/explorer/ChartPresentation.h"

#include "core/rollout/SpanMarginals.h"
#include "core/treebank/Binarize.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace prunescope::gui {

QString quantityName(Quantity q) {
    switch (q) {
    case Quantity::KeepProbability:
        return QObject::tr("Policy keep probability");
    case Quantity::InsideScore:
        return QObject::tr("Best inside score (log prob)");
    case Quantity::Constituents:
        return QObject::tr("Constituents built");
    case Quantity::RecallContribution:
        return QObject::tr("Contribution to expected recall");
    case Quantity::SpanMarginal:
        return QObject::tr("Span marginal (PCFG posterior)");
    }
    return {};
}

namespace {

// Symbol names converted once per grammar.
const std::vector<QString>& cellLabelNames(const SentenceSession& s, bool binarizedLabels) {
    static std::weak_ptr<const Grammar> namesFor;
    static std::vector<QString> symbolNames, unbinarizedNames;
    if (namesFor.expired() || namesFor.lock() != s.grammarPtr()) {
        symbolNames.clear();
        unbinarizedNames.clear();
        for (const auto& sym : s.grammar().symbols) {
            symbolNames.push_back(QString::fromStdString(sym));
            unbinarizedNames.push_back(QString::fromStdString(unbinarizedLabel(sym)));
        }
        namesFor = s.grammarPtr();
    }
    return binarizedLabels ? symbolNames : unbinarizedNames;
}

// The labels the predicted tree beside the chart shows, by span (i*(n+1)+k; empty = not a span of
// the tree): a word's cell gets its preterminal (the tree's POS), a wider span the topmost label
// over it (the root cell the root's child, not ROOT). Cells on the best parse are labelled from it,
// so that the chart and the tree agree where the grammar's scores tie (issue 42: @PRT|DT_NN,
// @QP|DT_NN and @NP|DT_NN at the same score once gave "PRT" for an NP of the tree).
std::vector<QString> treeLabels(const SentenceSession& s) {
    const int n = s.length();
    std::vector<QString> out(static_cast<std::size_t>(n + 1) * (n + 1));
    if (!s.result().success) return out;
    // Returns the end of t's span.
    auto walk = [&](auto&& self, const Tree& t, int begin) -> int {
        if (t.isLeaf()) return begin + 1;
        int end = begin;
        for (const Tree& c : t.children)
            end = self(self, c, end);
        if (t.label.empty() || t.label == "ROOT" || end > n) return end;
        QString& label = out[static_cast<std::size_t>(begin) * (n + 1) + end];
        // Children are visited first: a wider span keeps its topmost node (set last), a word's
        // cell its preterminal (set first).
        if (label.isEmpty() || end - begin > 1)
            label = QString::fromStdString(unbinarizedLabel(t.label));
        return end;
    };
    walk(walk, s.result().tree, 0);
    return out;
}

// The label of cell (i,k) off the best parse: its best symbol that is not a binarization
// intermediate (the lowest index among equal scores); none if only intermediates were built.
QString bestBaseLabel(const SentenceSession& s, const std::vector<QString>& names, int i, int k) {
    const float* row = s.chart().postRow(i, k);
    const auto& symbols = s.grammar().symbols;
    int argmax = -1;
    float best = kNegInf;
    for (int x = 0; x < s.chart().numSymbols; ++x)
        if (row[x] != kNegInf && row[x] > best &&
            !symbols[static_cast<std::size_t>(x)].starts_with('@'))
            best = row[x], argmax = x;
    return argmax >= 0 ? names[static_cast<std::size_t>(argmax)] : QString();
}

// The label shown in cell (i,k): the grammar's best symbol with View ▸ Show Binarized Symbols,
// otherwise the tree's label on the best parse and the best base label elsewhere.
void presentLabel(const SentenceSession& s, const std::vector<QString>& names,
                  const std::vector<QString>& fromTree, bool binarizedLabels, int i, int k,
                  widgets::HeatCell& c) {
    if (binarizedLabels) return; // presentContent's argmax
    const QString& t = fromTree[static_cast<std::size_t>(i) * (s.length() + 1) + k];
    c.label = !t.isEmpty() ? t : bestBaseLabel(s, names, i, k);
}

// The markers of cell (i,k): mask bit, gold span, best-parse span.
void presentMarkers(const SentenceSession& s, int i, int k, widgets::HeatCell& c) {
    c.kept = s.mask().keep(i, k);
    c.gold = s.isGoldSpan(i, k);
    c.best = s.isBestSpan(i, k);
}

// Label and value of cell (i,k), from one pass over its post layer (count, best score, its label).
void presentContent(const SentenceSession& s, Quantity q, const std::vector<QString>& names,
                    const SpanMarginals& marginals, int i, int k, widgets::HeatCell& c) {
    const int n = s.length();
    const float* row = s.chart().postRow(i, k);
    int count = 0, argmax = -1;
    float best = kNegInf;
    for (int x = 0; x < s.chart().numSymbols; ++x)
        if (row[x] != kNegInf) {
            ++count;
            if (row[x] > best) best = row[x], argmax = x;
        }
    c.label = argmax >= 0 ? names[static_cast<std::size_t>(argmax)] : QString();
    float nan = std::numeric_limits<float>::quiet_NaN();
    switch (q) {
    case Quantity::KeepProbability:
        c.value =
            PruningMask::prunable(n, i, k) ? static_cast<float>(s.keepProbability(i, k)) : nan;
        break;
    case Quantity::InsideScore:
        c.value = argmax < 0 ? nan : best;
        break;
    case Quantity::Constituents:
        c.value = count == 0 ? nan : static_cast<float>(count);
        break;
    case Quantity::RecallContribution:
        c.value =
            PruningMask::prunable(n, i, k) ? static_cast<float>(s.recallContribution(i, k)) : nan;
        break;
    case Quantity::SpanMarginal:
        c.value = marginals.success ? static_cast<float>(marginals.at(i, k)) : nan;
        break;
    }
}

// Scale and title from the cells' value range.
void presentScale(const SentenceSession& s, Quantity q, const SpanMarginals& marginals,
                  CellPresentation& out) {
    const int n = s.length();
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int w = 1; w <= n; ++w)
        for (int i = 0; i + w <= n; ++i) {
            const float v = out.cells[static_cast<std::size_t>(i) * (n + 1) + i + w].value;
            if (!std::isnan(v)) {
                lo = std::min(lo, static_cast<double>(v));
                hi = std::max(hi, static_cast<double>(v));
            }
        }
    out.title = quantityName(q);
    switch (q) {
    case Quantity::KeepProbability:
        out.lo = 0, out.hi = 1, out.decimals = 2;
        if (!s.hasPolicy()) out.title += QObject::tr(" (no policy)");
        break;
    case Quantity::InsideScore:
        out.lo = std::isfinite(lo) ? std::floor(lo) : -1,
        out.hi = std::isfinite(hi) ? std::ceil(hi) : 0, out.decimals = 1;
        break;
    case Quantity::Constituents:
        out.lo = 0, out.hi = std::isfinite(hi) ? hi : 1, out.decimals = 0;
        break;
    case Quantity::RecallContribution:
        // Symmetric around 0 so that "no effect" is the middle colour.
        out.hi = std::isfinite(hi) ? std::max({std::abs(lo), std::abs(hi), 1e-6}) : 1;
        out.lo = -out.hi, out.decimals = 3;
        if (!s.hasGold()) out.title += QObject::tr(" (needs gold)");
        break;
    case Quantity::SpanMarginal:
        out.lo = 0, out.hi = 1, out.decimals = 2;
        if (!marginals.success) out.title += QObject::tr(" (no parse under this mask)");
        break;
    }
}

} // namespace

CellPresentation presentCells(const SentenceSession& s, Quantity q, bool binarizedLabels) {
    CellPresentation out;
    int n = s.length();
    out.cells.assign(static_cast<std::size_t>(n + 1) * (n + 1), widgets::HeatCell{});
    const std::vector<QString>& names = cellLabelNames(s, binarizedLabels);
    // One inside-outside pass for the whole chart, only when this quantity is shown.
    const SpanMarginals marginals = q == Quantity::SpanMarginal
                                        ? spanMarginals(s.grammar(), s.words(), s.mask())
                                        : SpanMarginals{};
    const std::vector<QString> fromTree = treeLabels(s);
    for (int w = 1; w <= n; ++w)
        for (int i = 0; i + w <= n; ++i) {
            widgets::HeatCell& c = out.cells[static_cast<std::size_t>(i) * (n + 1) + i + w];
            presentMarkers(s, i, i + w, c);
            presentContent(s, q, names, marginals, i, i + w, c);
            presentLabel(s, names, fromTree, binarizedLabels, i, i + w, c);
        }
    presentScale(s, q, marginals, out);
    return out;
}

bool presentsIncrementally(Quantity q) {
    return q == Quantity::KeepProbability || q == Quantity::InsideScore ||
           q == Quantity::Constituents;
}

CellPresentation presentCellsAfterFlip(const SentenceSession& s, Quantity q, bool binarizedLabels,
                                       std::vector<widgets::HeatCell> previous, int fi, int fk) {
    const int n = s.length();
    if (!presentsIncrementally(q) || previous.size() != static_cast<std::size_t>(n + 1) * (n + 1))
        return presentCells(s, q, binarizedLabels);
    CellPresentation out;
    out.cells = std::move(previous);
    const std::vector<QString>& names = cellLabelNames(s, binarizedLabels);
    // Cells whose post layer changed (every changed vertex is an event), and the flipped cell.
    std::vector<char> changed(out.cells.size(), 0);
    changed[static_cast<std::size_t>(fi) * (n + 1) + fk] = 1;
    for (const ChangeEvent& e : s.lastEvents())
        if (e.layer == 1 || e.layer == 2)
            changed[static_cast<std::size_t>(e.i) * (n + 1) + e.k] = 1;
    const SpanMarginals none;
    const std::vector<QString> fromTree = treeLabels(s);
    for (int w = 1; w <= n; ++w)
        for (int i = 0; i + w <= n; ++i) {
            const std::size_t idx = static_cast<std::size_t>(i) * (n + 1) + i + w;
            widgets::HeatCell& c = out.cells[idx];
            const bool wasBest = c.best; // its label came from the old tree
            presentMarkers(s, i, i + w, c);
            if (changed[idx]) presentContent(s, q, names, none, i, i + w, c);
            if (changed[idx] || wasBest || !fromTree[idx].isEmpty())
                presentLabel(s, names, fromTree, binarizedLabels, i, i + w, c);
        }
    presentScale(s, q, none, out);
    return out;
}

QString cellTooltip(const SentenceSession& s, int i, int k) {
    int n = s.length();
    QStringList words;
    for (int t = i; t < k; ++t)
        words << QString::fromStdString(s.words()[t]).toHtmlEscaped();
    QString html =
        QStringLiteral("<b>(%1,%2)</b> &nbsp;<i>%3</i><br/>").arg(i).arg(k).arg(words.join(' '));
    bool prunable = PruningMask::prunable(n, i, k);
    QString status = !prunable
                         ? QObject::tr("always kept (%1)")
                               .arg(k - i == 1 ? QObject::tr("width 1") : QObject::tr("root span"))
                     : s.mask().keep(i, k) ? QObject::tr("kept")
                                           : QObject::tr("<b>pruned</b>");
    html += QObject::tr("Status: %1").arg(status);
    if (prunable && s.mask().keep(i, k) != s.policyMask().keep(i, k))
        html += QObject::tr(" (policy: %1)")
                    .arg(s.policyMask().keep(i, k) ? QObject::tr("keep") : QObject::tr("prune"));
    html += "<br/>";
    if (s.isGoldSpan(i, k)) html += QObject::tr("Gold span (of the binarized gold tree)<br/>");
    if (s.isBestSpan(i, k)) html += QObject::tr("In the current best parse<br/>");
    auto top = s.topLabels(i, k, 5);
    html += QObject::tr("Constituents built: %1").arg(s.constituents(i, k));
    if (!top.empty()) {
        html += QObject::tr("<br/>Top labels (best inside log prob):<table>");
        for (const auto& [label, score] : top) {
            const std::string shown = unbinarizedLabel(label);
            html +=
                QStringLiteral(
                    "<tr><td>%1</td><td><i>%2</i></td><td align='right'>&nbsp;%3</td></tr>")
                    .arg(QString::fromStdString(label).toHtmlEscaped())
                    .arg(shown == label ? QString() : QString::fromStdString(shown).toHtmlEscaped())
                    .arg(score, 0, 'f', 2);
        }
        html += "</table>";
    } else {
        html += "<br/>";
    }
    if (prunable && s.hasGold())
        html += QObject::tr(
                    "Expected recall r̄ now %1; this span contributes %2 (r̄ kept − r̄ pruned)<br/>")
                    .arg(s.expectedRecall(), 0, 'f', 4)
                    .arg(s.recallContribution(i, k), 0, 'f', 4);
    if (prunable) {
        if (s.hasPolicy()) {
            html += QObject::tr("Policy p(keep) = <b>%1</b> (threshold %2)<br/>")
                        .arg(s.keepProbability(i, k), 0, 'f', 3)
                        .arg(s.policy()->threshold, 0, 'f', 2);
        } else {
            html += QObject::tr("No policy loaded (policy mask keeps everything)<br/>");
        }
        QStringList feats;
        for (const auto& f : s.featureStrings(i, k))
            feats << QString::fromStdString(f).toHtmlEscaped();
        html += QObject::tr("<small>Features: %1</small>")
                    .arg(feats.join(QStringLiteral(" &middot; ")));
    }
    return html;
}

std::vector<widgets::CellMark> summarizeEvents(const std::vector<ChangeEvent>& events) {
    std::vector<widgets::CellMark> marks;
    std::map<std::pair<int, int>, std::size_t> where;
    for (const ChangeEvent& e : events) {
        auto [it, fresh] = where.try_emplace({e.i, e.k}, marks.size());
        if (fresh) marks.push_back(widgets::CellMark{e.i, e.k});
        widgets::CellMark& m = marks[it->second];
        switch (e.kind) {
        case CellChange::Rose:
            ++m.rose;
            break;
        case CellChange::Fell:
            ++m.fell;
            break;
        case CellChange::Appeared:
            ++m.appeared;
            break;
        case CellChange::Vanished:
            ++m.vanished;
            break;
        }
    }
    for (auto& m : marks) {
        // A cell gaining or losing constituents is reported as such; otherwise by the majority.
        if (m.appeared + m.vanished > 0)
            m.kind = m.appeared >= m.vanished ? widgets::ChangeKind::Appeared
                                              : widgets::ChangeKind::Vanished;
        else
            m.kind = m.rose >= m.fell ? widgets::ChangeKind::Rose : widgets::ChangeKind::Fell;
    }
    return marks;
}

} // namespace prunescope::gui
