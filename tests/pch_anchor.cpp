// Compiled only to own the GUI test suites' precompiled header (tests/CMakeLists.txt).
