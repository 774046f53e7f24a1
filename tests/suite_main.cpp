// main() of an executable that holds several suites (tests/CMakeLists.txt, PRUNESCOPE_TEST_GROUPS).
#include "support/TestSuite.h"

int main(int argc, char** argv) {
    return prunescope::testing::runRegisteredSuite(argc, argv);
}
