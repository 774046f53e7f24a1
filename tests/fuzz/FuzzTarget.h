#pragma once
// libFuzzer harnesses for every reader of user files (issue 19). Each harness feeds the bytes to
// one reader and then to the code that consumes what it read. The contract under test: a reader
// either returns a valid value or throws InputError naming the place; anything else (a crash, a
// sanitizer report, another exception type, a hang) is a finding. Build with -DPRUNESCOPE_FUZZ=ON
// (clang) for libFuzzer; every build also has fuzz_replay_<reader>, which runs the seed corpus
// (tests/fuzz/corpus/<reader>/) through the same function as a regression test.
#include <cstddef>
#include <cstdint>
#include <string>

#define PRUNESCOPE_FUZZ_INPUT(text)                                                                \
    extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {            \
        fuzzOne(std::string(reinterpret_cast<const char*>(data), size));                           \
        return 0;                                                                                  \
    }
