// Latent SVM training of the joint arc filter (Cherry & Bergsma 2011, eq. 2, sec. 3).
#include "core/filters/LatentSvmTraining.h"

#include "core/filters/ArcMaxEvent.h"
#include "core/filters/FilterFeatures.h"
#include "core/util/FeatureHash.h"

#include <Eigen/Core>
#include <LBFGS.h>

#include <chrono>
#include <cmath>
#include <new>
#include <stdexcept>

namespace prunescope {

namespace {

// Objective (2) with squared hinge; latent events of the non-gold arcs fixed (convex surrogate)
// or chosen by max (the objective itself).
class JointObjective {
  public:
    JointObjective(const FilterTrainingData& d, const JointFilterOptions& o, const Progress& p)
        : data_(d), opt_(o), progress_(p), vineBias_(featureBucket(d.vineBias, o.hashBits)),
          noneBias_(featureBucket(d.noneBias, o.hashBits)) {
        latent_.resize(d.sentences.size());
        for (std::size_t i = 0; i < d.sentences.size(); ++i) {
            const auto N = static_cast<std::size_t>(d.sentences[i].n + 1);
            latent_[i].assign(N * N, FilterEvent{});
        }
    }

    // Value (and gradient if grad) at w. fixed: use the stored latent events.
    double evaluate(const Eigen::VectorXd& w, Eigen::VectorXd* grad, bool fixed) {
        if (grad) *grad = w; // d/dw of 1/2 ||w||^2
        double loss = 0.5 * w.squaredNorm();
        for (std::size_t i = 0; i < data_.sentences.size(); ++i) {
            if ((i & 127) == 0) progress_.throwIfCancelled();
            loss += sentence(i, w, grad, fixed ? Mode::Fixed : Mode::Max);
        }
        return loss;
    }
    // Sets every non-gold arc's latent event to argmax_{z in Z_a} at w; returns how many changed.
    long assign(const Eigen::VectorXd& w, long* latentCount) {
        changed_ = 0;
        latentCount_ = 0;
        for (std::size_t i = 0; i < data_.sentences.size(); ++i) {
            if ((i & 127) == 0) progress_.throwIfCancelled();
            sentence(i, w, nullptr, Mode::Assign);
        }
        if (latentCount) *latentCount = latentCount_;
        return changed_;
    }

  private:
    enum class Mode { Fixed, Max, Assign };

    std::uint32_t bucket(std::uint64_t key) const { return featureBucket(key, opt_.hashBits); }

    double sentence(std::size_t i, const Eigen::VectorXd& w, Eigen::VectorXd* grad, Mode mode) {
        const FilterTrainingSentence& s = data_.sentences[i];
        const int n = s.n;
        const auto N = static_cast<std::size_t>(n + 1);
        role_.assign(kTokenRoleCount * N, 0.0);
        for (int t = 1; t <= n; ++t)
            for (int r = 0; r < kTokenRoleCount; ++r) {
                double sum = 0;
                for (std::uint32_t k = s.keyStart[static_cast<std::size_t>(t)];
                     k < s.keyStart[static_cast<std::size_t>(t) + 1]; ++k)
                    sum += w[bucket(eventKey(s.tokenKeys[k], static_cast<FilterEventKind>(r)))];
                role_[static_cast<std::size_t>(r) * N + static_cast<std::size_t>(t)] = sum;
            }
        vine_.assign(N * N, 0.0);
        none_.assign(N * N, 0.0);
        for (int h = 0; h <= n; ++h)
            for (int m = 1; m <= n; ++m) {
                if (h == m) continue;
                const double len = std::abs(h - m);
                if (opt_.useVine)
                    vine_[s.arc(h, m)] = w[vineBias_] + len * w[bucket(s.vinePair[s.arc(h, m)])];
                if (opt_.useNone)
                    none_[s.arc(h, m)] = w[noneBias_] + len * w[bucket(s.nonePair[s.arc(h, m)])];
            }
        if (grad) {
            dRole_.assign(kTokenRoleCount * N, 0.0);
            dVine_.assign(N * N, 0.0);
            dNone_.assign(N * N, 0.0);
        }
        auto roleScore = [&](FilterEventKind r, int t) {
            return role_[static_cast<std::size_t>(r) * N + static_cast<std::size_t>(t)];
        };
        auto scoreOf = [&](const FilterEvent& z) {
            return z.kind == FilterEventKind::Vine ? vine_[s.arc(z.head, z.mod)]
                                                   : roleScore(z.kind, z.token);
        };
        auto addEvent = [&](const FilterEvent& z, double g) {
            if (z.kind == FilterEventKind::Vine)
                dVine_[s.arc(z.head, z.mod)] += g;
            else
                dRole_[static_cast<std::size_t>(z.kind) * N + static_cast<std::size_t>(z.token)] +=
                    g;
        };
        auto& latent = latent_[i];
        double loss = 0;
        forEachArcMaxEvent<double>(
            n, opt_.useRoot, opt_.useVine, roleScore,
            [&](int h, int m) { return vine_[s.arc(h, m)]; },
            [&](int h, int m, double best, const FilterEvent& arg) {
                if (!std::isfinite(best)) return; // empty Z_a: nothing can filter this arc
                const std::size_t a = s.arc(h, m);
                const bool gold = s.heads[static_cast<std::size_t>(m)] == h;
                if (mode == Mode::Assign) {
                    if (!gold) {
                        ++latentCount_;
                        if (!(latent[a] == arg)) ++changed_;
                        latent[a] = arg;
                    }
                    return;
                }
                if (gold) { // keep: None_a must beat every event of Z_a by 1
                    const double u = 1.0 + best - none_[a];
                    if (u > 0) {
                        loss += opt_.c0 * u * u;
                        if (grad) {
                            addEvent(arg, 2 * opt_.c0 * u);
                            dNone_[a] -= 2 * opt_.c0 * u;
                        }
                    }
                } else { // filter: the (latent) event must beat None_a by 1
                    const FilterEvent& z = mode == Mode::Fixed ? latent[a] : arg;
                    const double u = 1.0 + none_[a] - (mode == Mode::Fixed ? scoreOf(z) : best);
                    if (u > 0) {
                        loss += opt_.c1 * u * u;
                        if (grad) {
                            addEvent(z, -2 * opt_.c1 * u);
                            dNone_[a] += 2 * opt_.c1 * u;
                        }
                    }
                }
            });
        if (grad) {
            Eigen::VectorXd& g = *grad;
            for (int t = 1; t <= n; ++t)
                for (int r = 0; r < kTokenRoleCount; ++r) {
                    const double d =
                        dRole_[static_cast<std::size_t>(r) * N + static_cast<std::size_t>(t)];
                    if (d == 0) continue;
                    for (std::uint32_t k = s.keyStart[static_cast<std::size_t>(t)];
                         k < s.keyStart[static_cast<std::size_t>(t) + 1]; ++k)
                        g[bucket(eventKey(s.tokenKeys[k], static_cast<FilterEventKind>(r)))] += d;
                }
            for (int h = 0; h <= n; ++h)
                for (int m = 1; m <= n; ++m) {
                    if (h == m) continue;
                    const std::size_t a = s.arc(h, m);
                    const double len = std::abs(h - m);
                    if (dVine_[a] != 0) {
                        g[vineBias_] += dVine_[a];
                        g[bucket(s.vinePair[a])] += len * dVine_[a];
                    }
                    if (dNone_[a] != 0) {
                        g[noneBias_] += dNone_[a];
                        g[bucket(s.nonePair[a])] += len * dNone_[a];
                    }
                }
        }
        return loss;
    }

    const FilterTrainingData& data_;
    const JointFilterOptions& opt_;
    const Progress& progress_;
    std::uint32_t vineBias_, noneBias_;
    std::vector<std::vector<FilterEvent>> latent_;
    std::vector<double> role_, vine_, none_, dRole_, dVine_, dNone_;
    long changed_ = 0, latentCount_ = 0;
};

Eigen::VectorXd toVector(const ArcFilter& f) {
    Eigen::VectorXd w(static_cast<Eigen::Index>(f.weights.size()));
    for (std::size_t i = 0; i < f.weights.size(); ++i)
        w[static_cast<Eigen::Index>(i)] = f.weights[i];
    return w;
}

ArcFilter toFilter(const Eigen::VectorXd& w, const JointFilterOptions& opt) {
    ArcFilter f = ArcFilter::zeros(ArcFilterKind::Joint, opt.hashBits);
    f.useRoot = opt.useRoot;
    f.useVine = opt.useVine;
    f.useNone = opt.useNone;
    for (std::size_t i = 0; i < f.weights.size(); ++i)
        f.weights[i] = static_cast<float>(w[static_cast<Eigen::Index>(i)]);
    return f;
}

} // namespace

double latentSvmObjective(const FilterTrainingData& data, const ArcFilter& f,
                          const JointFilterOptions& opt) {
    const Progress none; // named: JointObjective keeps a reference (a temporary here dangled; ASan,
                         // test_filter_training)
    JointObjective obj(data, opt, none);
    return obj.evaluate(toVector(f), nullptr, false);
}

JointTrainResult
trainJointFilter(const FilterTrainingData& data, const ArcFilter* init,
                 const JointFilterOptions& opt, const Progress& progress,
                 const std::function<void(const JointTrainResult&)>& onAlternation) {
    if (!(opt.c0 > 0) || !(opt.c1 > 0))
        throw std::invalid_argument("joint filter: C_0 and C_1 must be > 0");
    if (init && init->hashBits != opt.hashBits)
        throw std::invalid_argument("joint filter: the initial filter has other hashBits");
    JointTrainResult result;
    Eigen::VectorXd w =
        init ? toVector(*init) : Eigen::VectorXd::Zero(Eigen::Index{1} << opt.hashBits);
    result.filter = toFilter(w, opt);
    JointObjective obj(data, opt, progress);
    progress.begin("alternations", opt.maxAlternations);
    try {
        double current = obj.evaluate(w, nullptr, false);
        for (int it = 1; it <= opt.maxAlternations; ++it) {
            progress.setStep(it, opt.maxAlternations);
            const auto t0 = std::chrono::steady_clock::now();
            JointAlternation rec;
            rec.alternation = it;
            rec.objectiveBefore = current;
            rec.changed = obj.assign(w, &rec.latent);
            // The convex step from w; the functor keeps the best point (a failed line search or
            // the iteration cap still returns it).
            struct Functor {
                JointObjective& o;
                const Progress& p;
                int evaluations = 0;
                double bestF = std::numeric_limits<double>::infinity();
                Eigen::VectorXd best;
                double operator()(const Eigen::VectorXd& x, Eigen::VectorXd& g) {
                    const double f = o.evaluate(x, &g, true);
                    ++evaluations;
                    if (f < bestF) {
                        bestF = f;
                        best = x;
                    }
                    return f;
                }
            } fun{obj, progress, 0, std::numeric_limits<double>::infinity(), {}};
            LBFGSpp::LBFGSParam<double> param;
            param.m = 6;
            param.epsilon = 1e-6;
            param.epsilon_rel = 0;
            param.past = 3;
            param.delta = 1e-7;
            param.max_iterations = std::max(1, opt.solverIterations);
            param.max_linesearch = 30;
            LBFGSpp::LBFGSSolver<double> solver(param);
            Eigen::VectorXd x = w;
            double fx = 0;
            try {
                solver.minimize(fun, x, fx);
            } catch (const Cancelled&) {
                throw;
            } catch (const std::bad_alloc&) {
                throw; // not a line-search failure: the caller reports it
            } catch (const std::exception&) {
                // line search failure at numerical precision: the best point seen stands
            }
            rec.solverEvaluations = fun.evaluations;
            const double after =
                fun.best.size() == w.size() ? obj.evaluate(fun.best, nullptr, false) : current;
            if (after <=
                current) { // always true up to rounding (the surrogate bounds (2) from above)
                w = fun.best;
                current = after;
            }
            rec.objectiveAfter = current;
            rec.seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            result.alternations.push_back(rec);
            result.filter = toFilter(w, opt);
            progress.advance();
            if (onAlternation) onAlternation(result);
            if (it > 1 && static_cast<double>(rec.changed) <
                              opt.convergence * static_cast<double>(std::max(1L, rec.latent)))
                break;
        }
    } catch (const Cancelled&) {
        result.cancelled = true;
    }
    result.filter.training = {{"trainer", "latent SVM (alternation + L-BFGS, squared hinge)"},
                              {"c0", opt.c0},
                              {"c1", opt.c1},
                              {"maxAlternations", opt.maxAlternations},
                              {"solverIterations", opt.solverIterations},
                              {"alternations", result.alternations.size()},
                              {"cancelled", result.cancelled}};
    nlohmann::json alts = nlohmann::json::array();
    for (const auto& a : result.alternations)
        alts.push_back({{"alternation", a.alternation},
                        {"changed", a.changed},
                        {"latent", a.latent},
                        {"objectiveBefore", a.objectiveBefore},
                        {"objectiveAfter", a.objectiveAfter},
                        {"solverEvaluations", a.solverEvaluations},
                        {"seconds", a.seconds}});
    result.filter.training["history"] = alts;
    return result;
}

} // namespace prunescope
