#pragma once
// The flags dep-train, cube-train and the dependency evaluators share for treebanks and models.
#include <CLI/CLI.hpp>

#include <string>

namespace prunescope::cli {

// --train FILE|DIR (required): the training treebank in a dependency format.
CLI::Option* addDepTrainTreebankOption(CLI::App* sub, std::string& path);
// --treebank FILE|DIR (required): the gold treebank to parse and score.
CLI::Option* addDepGoldTreebankOption(CLI::App* sub, std::string& path);
// --out FILE (required): the model, rewritten after every epoch that improves dev.
CLI::Option* addEpochModelOutOption(CLI::App* sub, std::string& out);
// --hash-bits B: feature table size 2^B, 10 to 26.
CLI::Option* addFeatureHashBitsOption(CLI::App* sub, int& bits,
                                      const std::string& what = "Feature table size 2^bits");
// --max-len N: training sentences longer than N are skipped (0 = none).
CLI::Option* addTrainSkipLengthOption(CLI::App* sub, int& maxLen);

} // namespace prunescope::cli
