// Runs a fuzz target on every file of the given files or directories (the seed corpus and the
// inputs of past findings) without libFuzzer: the regression test every build runs.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    for (int a = 1; a < argc; ++a) {
        if (fs::is_directory(argv[a])) {
            for (const auto& e : fs::recursive_directory_iterator(argv[a]))
                if (e.is_regular_file()) files.push_back(e.path());
        } else {
            files.emplace_back(argv[a]);
        }
    }
    if (files.empty()) {
        std::fprintf(stderr, "usage: %s FILE|DIR...\n(no inputs found)\n", argv[0]);
        return 1;
    }
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    }
    std::printf("%zu inputs ran without a finding\n", files.size());
    return 0;
}
