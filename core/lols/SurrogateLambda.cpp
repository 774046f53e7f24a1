// The default λ of a surrogate reward (sec. 7).
#include "core/lols/SurrogateLambda.h"

#include <cmath>
#include <stdexcept>

namespace prunescope {

std::string surrogateLambdaUnit(Surrogate s) {
    return s == Surrogate::CP ? "accuracy per constituent built" : "expected recall per kept span";
}

double surrogateLambda(double given, const PolicyMetadata& meta, Surrogate s) {
    if (!std::isnan(given)) return given;
    if (std::isnan(meta.lambda))
        throw std::invalid_argument("no --lambda given and the policy records none");
    if (meta.lambdaUnit != surrogateLambdaUnit(s))
        throw std::invalid_argument(
            "no --lambda given, and the policy's lambda (" + std::to_string(meta.lambda) + " " +
            (meta.lambdaUnit.empty() ? std::string("in unknown units") : "in " + meta.lambdaUnit) +
            ") is not in the " + surrogateName(s) + " surrogate's units (" +
            surrogateLambdaUnit(s) + "); pass --lambda (docs/lols.md, 'λ')");
    return meta.lambda;
}

} // namespace prunescope
