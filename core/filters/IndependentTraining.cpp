// Independent token-role and vine SVMs through liblinear (Bergsma & Cherry 2010).
#include "core/filters/IndependentTraining.h"

#include "core/filters/FilterFeatures.h"
#include "core/util/FeatureHash.h"

#include <linear.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace prunescope {

namespace {

void quietPrint(const char*) {}

// Examples as liblinear rows: nodes of row i in [start[i], start[i + 1]) plus a terminator.
struct SvmProblem {
    std::vector<feature_node> nodes;
    std::vector<std::size_t> start;
    std::vector<double> y;
    long positives = 0;
    // Adds a row from (bucket, value) pairs (sorted, duplicates merged, 1-based indices).
    void add(std::vector<std::pair<std::uint32_t, double>>& feats, bool positive) {
        std::sort(feats.begin(), feats.end());
        start.push_back(nodes.size());
        for (std::size_t i = 0; i < feats.size(); ++i) {
            if (!nodes.empty() && nodes.size() > start.back() &&
                nodes.back().index == static_cast<int>(feats[i].first) + 1)
                nodes.back().value += feats[i].second;
            else
                nodes.push_back({static_cast<int>(feats[i].first) + 1, feats[i].second});
        }
        nodes.push_back({-1, 0.0});
        y.push_back(positive ? 1.0 : -1.0);
        positives += positive ? 1 : 0;
    }
};

// Solves one binary SVM; returns the weights (dim entries) whose positive side is label +1.
std::vector<double> solveSvm(const SvmProblem& p, int dim, double cPos, double cNeg, double eps,
                             int solver) {
    std::vector<double> w(static_cast<std::size_t>(dim), 0.0);
    const auto l = static_cast<long>(p.y.size());
    if (p.positives == 0 || p.positives == l) return w; // one class: nothing to learn
    std::vector<feature_node*> x(static_cast<std::size_t>(l));
    for (long i = 0; i < l; ++i)
        x[static_cast<std::size_t>(i)] =
            const_cast<feature_node*>(&p.nodes[p.start[static_cast<std::size_t>(i)]]);
    problem prob{};
    prob.l = static_cast<int>(l);
    prob.n = dim;
    prob.y = const_cast<double*>(p.y.data());
    prob.x = x.data();
    prob.bias = -1;
    int labels[2] = {1, -1};
    double costs[2] = {cPos, cNeg};
    parameter param{};
    param.solver_type = solver;
    param.eps = eps;
    param.C = 1.0;
    param.nr_weight = 2;
    param.weight_label = labels;
    param.weight = costs;
    param.p = 0.1;
    param.init_sol = nullptr;
    if (const char* err = check_parameter(&prob, &param))
        throw std::invalid_argument(std::string("liblinear: ") + err);
    set_print_string_function(&quietPrint); // liblinear prints to stdout otherwise
    model* m = train(&prob, &param);
    const double sign = m->label[0] == 1 ? 1.0 : -1.0;
    for (int i = 0; i < std::min(dim, m->nr_feature); ++i)
        w[static_cast<std::size_t>(i)] = sign * m->w[i];
    free_and_destroy_model(&m);
    return w;
}

} // namespace

ArcFilter trainIndependentFilter(const FilterTrainingData& data,
                                 const IndependentFilterOptions& opt, const Progress& progress) {
    ArcFilter f = ArcFilter::zeros(ArcFilterKind::Independent, opt.hashBits);
    f.useRoot = opt.useRoot;
    f.useVine = opt.useVine;
    f.useNone = false;
    const int dim = 1 << opt.hashBits;
    nlohmann::json subs = nlohmann::json::object();
    const int roles = opt.useRoot ? kTokenRoleCount : kTokenRoleCount - 1;
    progress.begin("independent SVMs", roles + (opt.useVine ? 1 : 0));
    std::vector<std::pair<std::uint32_t, double>> feats;
    auto store = [&](const std::vector<double>& w) {
        for (std::size_t i = 0; i < w.size(); ++i)
            if (w[i] != 0.0) f.weights[i] += static_cast<float>(w[i]);
    };
    for (int r = 0; r < roles; ++r) {
        progress.throwIfCancelled();
        const auto kind = static_cast<FilterEventKind>(r);
        const auto t0 = std::chrono::steady_clock::now();
        SvmProblem p;
        for (const auto& s : data.sentences)
            for (int t = 1; t <= s.n; ++t) {
                feats.clear();
                for (std::uint32_t k = s.keyStart[static_cast<std::size_t>(t)];
                     k < s.keyStart[static_cast<std::size_t>(t) + 1]; ++k)
                    feats.emplace_back(featureBucket(eventKey(s.tokenKeys[k], kind), opt.hashBits),
                                       1.0);
                p.add(feats, s.roles.holds(kind, t));
            }
        store(solveSvm(p, dim, opt.cPos, opt.cNeg, opt.eps, L2R_L2LOSS_SVC_DUAL));
        const double sec =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        subs[filterEventKindName(kind)] = {
            {"examples", p.y.size()}, {"positives", p.positives}, {"seconds", sec}};
        progress.advance();
    }
    if (opt.useVine) {
        progress.throwIfCancelled();
        const auto t0 = std::chrono::steady_clock::now();
        SvmProblem p;
        const std::uint32_t bias = featureBucket(data.vineBias, opt.hashBits);
        for (const auto& s : data.sentences)
            for (int h = 0; h <= s.n; ++h)
                for (int m = 1; m <= s.n; ++m) {
                    if (h == m) continue;
                    feats.clear();
                    feats.emplace_back(bias, 1.0);
                    feats.emplace_back(featureBucket(s.vinePair[s.arc(h, m)], opt.hashBits),
                                       static_cast<double>(std::abs(h - m)));
                    p.add(feats, s.heads[static_cast<std::size_t>(m)] != h);
                }
        // The Vine problem has millions of rows but two features valued up to the sentence length:
        // the dual solver converges slowly there (liblinear then switches to the primal anyway), so
        // it is solved in the primal (trust-region Newton) from the start.
        store(solveSvm(p, dim, opt.vineCPos, opt.vineCNeg, 0.01, L2R_L2LOSS_SVC));
        const double sec =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        subs["Vine"] = {{"examples", p.y.size()}, {"positives", p.positives}, {"seconds", sec}};
        progress.advance();
    }
    f.training = {{"trainer", "liblinear L2R_L2LOSS_SVC_DUAL (roles), L2R_L2LOSS_SVC (Vine)"},
                  {"cPos", opt.cPos},
                  {"cNeg", opt.cNeg},
                  {"vineCPos", opt.vineCPos},
                  {"vineCNeg", opt.vineCNeg},
                  {"eps", opt.eps},
                  {"subclassifiers", subs}};
    return f;
}

} // namespace prunescope
