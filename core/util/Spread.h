#pragma once
// Min, median and max of a sample, as the benchmark commands report them (docs/benchmarks.md); the
// median of an even number of values is the mean of the middle two.
#include <nlohmann/json.hpp>

#include <vector>

namespace prunescope {

struct Spread {
    double min = 0, median = 0, max = 0;
};

// All zero for an empty sample.
Spread spreadOf(std::vector<double> values);
// {"min": .., "median": .., "max": ..}, as the commands' JSON reports a spread.
nlohmann::json spreadJson(const Spread& s);

} // namespace prunescope
