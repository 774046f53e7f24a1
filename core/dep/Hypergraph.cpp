// Max-plus inside-outside over a hypergraph.
#include "core/dep/Hypergraph.h"

#include <stdexcept>

namespace prunescope {

int Hypergraph::addNode() {
    firstEdge.push_back(firstEdge.back());
    return numNodes++;
}

int Hypergraph::addEdge(int head, std::span<const int> tailNodes, float weight, int label) {
    if (head != numNodes - 1)
        throw std::logic_error(
            "Hypergraph::addEdge: edges must arrive grouped by head, newest node last");
    for (int t : tailNodes)
        if (t < 0 || t >= head)
            throw std::logic_error("Hypergraph::addEdge: a tail must precede its head");
    if (label >= numLabels) throw std::logic_error("Hypergraph::addEdge: label out of range");
    edgeHead.push_back(head);
    tails.insert(tails.end(), tailNodes.begin(), tailNodes.end());
    tailBegin.push_back(static_cast<int>(tails.size()));
    edgeWeight.push_back(weight);
    edgeLabel.push_back(label);
    ++firstEdge.back();
    return numEdges() - 1;
}

double edgeMarginal(const Hypergraph& g, const MaxMarginals& mm, int e) {
    double v = mm.outside[static_cast<std::size_t>(g.edgeHead[static_cast<std::size_t>(e)])] +
               g.edgeWeight[static_cast<std::size_t>(e)];
    for (int t : g.tailsOf(e))
        v += mm.inside[static_cast<std::size_t>(t)];
    return v;
}

MaxMarginals maxMarginals(const Hypergraph& g) {
    MaxMarginals mm;
    const auto N = static_cast<std::size_t>(g.numNodes);
    mm.inside.assign(N, kHyperNegInf);
    mm.outside.assign(N, kHyperNegInf);
    mm.insideEdge.assign(N, -1);
    mm.outsideEdge.assign(N, -1);
    mm.label.assign(static_cast<std::size_t>(g.numLabels), kHyperNegInf);
    mm.labelEdge.assign(static_cast<std::size_t>(g.numLabels), -1);
    for (int v = 0; v < g.numNodes; ++v) {
        double best = kHyperNegInf;
        int arg = -1;
        for (int e = g.firstEdge[static_cast<std::size_t>(v)];
             e < g.firstEdge[static_cast<std::size_t>(v) + 1]; ++e) {
            double s = g.edgeWeight[static_cast<std::size_t>(e)];
            for (int t : g.tailsOf(e))
                s += mm.inside[static_cast<std::size_t>(t)];
            if (s == kHyperNegInf) continue;
            if (g.tailBegin[static_cast<std::size_t>(e) + 1] >
                g.tailBegin[static_cast<std::size_t>(e)])
                ++mm.edgesVisited;
            if (s > best) {
                best = s;
                arg = e;
            }
        }
        mm.inside[static_cast<std::size_t>(v)] = best;
        mm.insideEdge[static_cast<std::size_t>(v)] = arg;
    }
    if (g.goal < 0 || mm.inside[static_cast<std::size_t>(g.goal)] == kHyperNegInf) return mm;
    mm.best = mm.inside[static_cast<std::size_t>(g.goal)];
    mm.outside[static_cast<std::size_t>(g.goal)] = 0.0;
    for (int v = g.numNodes; v-- > 0;) {
        const double out = mm.outside[static_cast<std::size_t>(v)];
        if (out == kHyperNegInf || mm.inside[static_cast<std::size_t>(v)] == kHyperNegInf) continue;
        for (int e = g.firstEdge[static_cast<std::size_t>(v)];
             e < g.firstEdge[static_cast<std::size_t>(v) + 1]; ++e) {
            const auto ts = g.tailsOf(e);
            double sum = g.edgeWeight[static_cast<std::size_t>(e)];
            for (int t : ts)
                sum += mm.inside[static_cast<std::size_t>(t)];
            if (sum == kHyperNegInf) continue;
            // each tail's outside: out + w + the other tails' inside (= out + sum - inside[tail])
            for (int t : ts) {
                double o = out + g.edgeWeight[static_cast<std::size_t>(e)];
                for (int u : ts)
                    if (u != t) o += mm.inside[static_cast<std::size_t>(u)];
                if (o > mm.outside[static_cast<std::size_t>(t)]) {
                    mm.outside[static_cast<std::size_t>(t)] = o;
                    mm.outsideEdge[static_cast<std::size_t>(t)] = e;
                }
            }
        }
    }
    for (int e = 0; e < g.numEdges(); ++e) {
        const int l = g.edgeLabel[static_cast<std::size_t>(e)];
        if (l < 0) continue;
        const double v = edgeMarginal(g, mm, e);
        if (v == kHyperNegInf) continue;
        if (v > mm.label[static_cast<std::size_t>(l)]) {
            mm.label[static_cast<std::size_t>(l)] = v;
            mm.labelEdge[static_cast<std::size_t>(l)] = e;
        }
    }
    return mm;
}

std::vector<int> witnessEdges(const Hypergraph& g, const MaxMarginals& mm, int e) {
    std::vector<int> out;
    if (edgeMarginal(g, mm, e) == kHyperNegInf) return out;
    std::vector<int> insideStack; // nodes whose inside derivation to add
    auto addInside = [&](int edge) {
        for (int t : g.tailsOf(edge))
            insideStack.push_back(t);
    };
    out.push_back(e);
    addInside(e);
    // outside chain of e's head
    for (int v = g.edgeHead[static_cast<std::size_t>(e)]; v != g.goal;) {
        const int oe = mm.outsideEdge[static_cast<std::size_t>(v)];
        out.push_back(oe);
        for (int t : g.tailsOf(oe))
            if (t != v) insideStack.push_back(t);
        v = g.edgeHead[static_cast<std::size_t>(oe)];
    }
    while (!insideStack.empty()) {
        const int v = insideStack.back();
        insideStack.pop_back();
        const int ie = mm.insideEdge[static_cast<std::size_t>(v)];
        out.push_back(ie);
        addInside(ie);
    }
    return out;
}

std::vector<double> witnessLabelCounts(const Hypergraph& g, const MaxMarginals& mm) {
    std::vector<double> count(static_cast<std::size_t>(g.numLabels), 0.0);
    if (mm.best == kHyperNegInf) return count;
    const auto N = static_cast<std::size_t>(g.numNodes);
    std::vector<double> edgeCount(static_cast<std::size_t>(g.numEdges()), 0.0);
    std::vector<double> outW(N, 0.0), inW(N, 0.0); // times Out(v) / In(v) is part of a witness
    for (int l = 0; l < g.numLabels; ++l) {
        const int e = mm.labelEdge[static_cast<std::size_t>(l)];
        if (e < 0) continue;
        edgeCount[static_cast<std::size_t>(e)] += 1.0;
        outW[static_cast<std::size_t>(g.edgeHead[static_cast<std::size_t>(e)])] += 1.0;
        for (int t : g.tailsOf(e))
            inW[static_cast<std::size_t>(t)] += 1.0;
    }
    // Out(v) = {oe} + Out(head(oe)) + In(other tails of oe): heads come later, so sweep upward.
    for (int v = 0; v < g.numNodes; ++v) {
        const double w = outW[static_cast<std::size_t>(v)];
        if (w == 0.0 || v == g.goal) continue;
        const int oe = mm.outsideEdge[static_cast<std::size_t>(v)];
        edgeCount[static_cast<std::size_t>(oe)] += w;
        outW[static_cast<std::size_t>(g.edgeHead[static_cast<std::size_t>(oe)])] += w;
        for (int t : g.tailsOf(oe))
            if (t != v) inW[static_cast<std::size_t>(t)] += w;
    }
    // In(v) = {ie} + In(tails of ie): tails come earlier, so sweep downward.
    for (int v = g.numNodes; v-- > 0;) {
        const double w = inW[static_cast<std::size_t>(v)];
        if (w == 0.0) continue;
        const int ie = mm.insideEdge[static_cast<std::size_t>(v)];
        edgeCount[static_cast<std::size_t>(ie)] += w;
        for (int t : g.tailsOf(ie))
            inW[static_cast<std::size_t>(t)] += w;
    }
    for (int e = 0; e < g.numEdges(); ++e) {
        const int l = g.edgeLabel[static_cast<std::size_t>(e)];
        if (l >= 0 && edgeCount[static_cast<std::size_t>(e)] != 0.0)
            count[static_cast<std::size_t>(l)] += edgeCount[static_cast<std::size_t>(e)];
    }
    return count;
}

} // namespace prunescope
