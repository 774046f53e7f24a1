// Compiled only to own a precompiled header of the test suites (tests/CMakeLists.txt).
