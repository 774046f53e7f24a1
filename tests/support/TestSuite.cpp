// The registry behind PRUNESCOPE_QTEST_MAIN in grouped executables (see TestSuite.h).
#include "support/TestSuite.h"

#include <cstdio>
#include <string>
#include <vector>

namespace prunescope::testing {
namespace {
struct Suite {
    std::string name;
    SuiteBody body;
};
std::vector<Suite>& suites() {
    static std::vector<Suite> all; // filled during static initialisation, in link order
    return all;
}
} // namespace

bool registerSuite(const char* file, SuiteBody body) {
    std::string name = file;
    if (const auto slash = name.find_last_of("/\\"); slash != std::string::npos)
        name.erase(0, slash + 1);
    if (const auto dot = name.rfind('.'); dot != std::string::npos) name.erase(dot);
    suites().push_back({std::move(name), body});
    return true;
}

int runRegisteredSuite(int argc, char** argv) {
    const char* wanted = argc > 1 ? argv[1] : nullptr;
    for (const Suite& s : suites()) {
        if (wanted == nullptr || s.name != wanted) continue;
        // The suite sees argv[0] and the arguments after its name, as if it were its own
        // executable.
        std::vector<char*> args{argv[0]};
        for (int i = 2; i < argc; ++i)
            args.push_back(argv[i]);
        args.push_back(nullptr);
        int n = argc - 1;
        return s.body(n, args.data());
    }
    if (wanted) std::fprintf(stderr, "no suite named %s in this executable\n", wanted);
    std::fprintf(stderr,
                 "usage: %s SUITE [QtTest options]   (one of:", argc > 0 ? argv[0] : "suites");
    for (const Suite& s : suites())
        std::fprintf(stderr, " %s", s.name.c_str());
    std::fprintf(stderr, ")\n");
    return 2;
}
} // namespace prunescope::testing
