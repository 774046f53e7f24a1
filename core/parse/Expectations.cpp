// Expected counts of one sentence and their distances (see Expectations.h).
#include "core/parse/Expectations.h"

#include <cmath>
#include <stdexcept>

namespace prunescope {

void Expectations::reset(const Grammar& g, std::span<const std::string> words) {
    n = static_cast<int>(words.size());
    logZ = -std::numeric_limits<double>::infinity();
    span.assign(static_cast<std::size_t>(n + 1) * (n + 1), 0.0);
    binary.assign(g.binary.size(), 0.0);
    unary.assign(g.unary.size(), 0.0);
    root.assign(g.rootRules.size(), 0.0);
    lexicalBegin.assign(n + 1, 0);
    for (int i = 0; i < n; ++i)
        lexicalBegin[i + 1] =
            lexicalBegin[i] + static_cast<std::uint32_t>(g.lexicalEntries(words[i], i).size());
    lexical.assign(lexicalBegin[n], 0.0);
}

void Expectations::setZero() {
    logZ = -std::numeric_limits<double>::infinity();
    for (auto* v : {&span, &binary, &unary, &root, &lexical})
        std::fill(v->begin(), v->end(), 0.0);
}

bool Expectations::sameShape(const Expectations& o) const {
    return n == o.n && span.size() == o.span.size() && binary.size() == o.binary.size() &&
           unary.size() == o.unary.size() && root.size() == o.root.size() &&
           lexical.size() == o.lexical.size();
}

void Expectations::addScaled(const Expectations& o, double w) {
    if (!sameShape(o)) throw std::invalid_argument("expectations of different sentences");
    auto add = [w](std::vector<double>& a, const std::vector<double>& b) {
        for (std::size_t i = 0; i < a.size(); ++i)
            a[i] += w * b[i];
    };
    add(span, o.span);
    add(binary, o.binary);
    add(unary, o.unary);
    add(root, o.root);
    add(lexical, o.lexical);
}

namespace {
void requireSame(const Expectations& a, const Expectations& b) {
    if (!a.sameShape(b)) throw std::invalid_argument("expectations of different sentences");
}

// Calls f(est, exact) for every prunable span.
template <class F> void forPrunable(const Expectations& a, const Expectations& b, F&& f) {
    const int n = a.n;
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            f(a.spanAt(i, i + w), b.spanAt(i, i + w));
}
template <class F> void forRules(const Expectations& a, const Expectations& b, F&& f) {
    for (auto m : {&Expectations::binary, &Expectations::unary, &Expectations::root,
                   &Expectations::lexical}) {
        const auto& x = a.*m;
        const auto& y = b.*m;
        for (std::size_t i = 0; i < x.size(); ++i)
            f(x[i], y[i]);
    }
}

// KL(p/|p| ‖ q/|q|) from two passes over the pairs.
template <class Each> double normalizedKL(Each each) {
    double sp = 0, sq = 0;
    each([&](double p, double q) { sp += p, sq += q; });
    if (sp <= 0) return std::numeric_limits<double>::infinity();
    if (sq <= 0) return std::numeric_limits<double>::infinity();
    double kl = 0;
    each([&](double p, double q) {
        if (p <= 0) return;
        const double pn = p / sp, qn = q / sq;
        kl += qn > 0 ? pn * std::log(pn / qn) : std::numeric_limits<double>::infinity();
    });
    return std::max(0.0, kl);
}
} // namespace

double spanL1(const Expectations& est, const Expectations& exact) {
    requireSame(est, exact);
    double s = 0;
    forPrunable(est, exact, [&](double a, double b) { s += std::abs(a - b); });
    return s;
}

double ruleL1(const Expectations& est, const Expectations& exact) {
    requireSame(est, exact);
    double s = 0;
    forRules(est, exact, [&](double a, double b) { s += std::abs(a - b); });
    return s;
}

double spanKL(const Expectations& est, const Expectations& exact) {
    requireSame(est, exact);
    if (est.n < 3) return 0.0; // no prunable span
    return normalizedKL([&](auto f) { forPrunable(est, exact, f); });
}

double ruleKL(const Expectations& est, const Expectations& exact) {
    requireSame(est, exact);
    return normalizedKL([&](auto f) { forRules(est, exact, f); });
}

} // namespace prunescope
