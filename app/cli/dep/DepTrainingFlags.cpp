#include "app/cli/dep/DepTrainingFlags.h"

namespace prunescope::cli {

CLI::Option* addDepTrainTreebankOption(CLI::App* sub, std::string& path) {
    return sub
        ->add_option("--train", path,
                     "Training treebank: a .dp/.conll/.conllu file or a directory of them")
        ->required();
}

CLI::Option* addDepGoldTreebankOption(CLI::App* sub, std::string& path) {
    return sub
        ->add_option("--treebank", path,
                     "Gold treebank: a .dp/.conll/.conllu file or a directory of them")
        ->required();
}

CLI::Option* addEpochModelOutOption(CLI::App* sub, std::string& out) {
    return sub
        ->add_option("--out", out,
                     "Model file to write (JSON; rewritten after every epoch that improves dev)")
        ->required();
}

CLI::Option* addFeatureHashBitsOption(CLI::App* sub, int& bits, const std::string& what) {
    return sub->add_option("--hash-bits", bits, what)
        ->check(CLI::Range(10, 26))
        ->capture_default_str();
}

CLI::Option* addTrainSkipLengthOption(CLI::App* sub, int& maxLen) {
    return sub
        ->add_option("--max-len", maxLen, "Skip training sentences longer than this (0 = none)")
        ->capture_default_str();
}

} // namespace prunescope::cli
