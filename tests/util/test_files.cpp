// Tests for core/util/JsonDocument (values located by line:column) and core/util/AtomicFile
// (checked writes, kept modes, symbolic links, stale temporaries, inputs never overwritten).
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"
#include "support/InputErrors.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <thread>

using namespace prunescope;
namespace fs = std::filesystem;

namespace {

InputError errorOf(const std::function<void()>& f) {
    return testdata::inputErrorOf(f);
}

mode_t modeOf(const std::string& path) {
    struct stat st {};
    ::stat(path.c_str(), &st);
    return st.st_mode & 07777;
}

} // namespace

class TestFiles : public QObject {
    Q_OBJECT
  private slots:
    void valuesAreLocated() {
        const std::string text =
            "{\n  \"a\": 1,\n  \"b\": {\"c\": [10, 20,\n    \"x\"]},\n  \"d\": \"s\"\n}\n";
        const JsonDocument doc(text, "f.json");
        const auto& x = doc.root()["b"]["c"][2];
        QCOMPARE(doc.pointer(x).to_string(), std::string("/b/c/2"));
        QCOMPARE(doc.location(x), std::make_pair(4, 5));
        QCOMPARE(doc.location(doc.root()["d"]), std::make_pair(5, 8));
        const InputError e = errorOf([&] { doc.int32(x); });
        QCOMPARE(e.file(), std::string("f.json"));
        QCOMPARE(e.line(), 4);
        QCOMPARE(e.column(), 5);
        QVERIFY2(std::string(e.what()).find("'/b/c/2' must be an integer") != std::string::npos,
                 e.what());
        // A missing key is reported at the object that lacks it.
        const InputError m = errorOf([&] { doc.member(doc.root()["b"], "zz"); });
        QCOMPARE(m.line(), 3);
        QVERIFY2(std::string(m.what()).find("missing field '/b/zz'") != std::string::npos,
                 m.what());
    }
    void integersMustFit() {
        const JsonDocument doc("{\"n\": 4294967303, \"m\": 18446744073709551615, \"f\": 1e3}",
                               "n.json");
        QCOMPARE(errorOf([&] { doc.int32(doc.root()["n"]); }).line(), 1);
        QVERIFY(std::string(errorOf([&] { doc.int32(doc.root()["n"]); }).what())
                    .find("4294967303 is outside") != std::string::npos);
        QCOMPARE(errorOf([&] { doc.integer(doc.root()["m"]); }).column(), 24);
        QVERIFY(errorOf([&] { doc.integer(doc.root()["f"]); }).line() ==
                1); // 1e3 is a float in JSON
    }
    void numberOverflowIsLocated() {
        const InputError e =
            errorOf([] { parseJsonDocument("{\n \"x\": [1,\n  1e999]}", "o.json"); });
        QCOMPARE(e.line(), 3);
        QCOMPARE(e.column(), 3);
        QVERIFY2(std::string(e.what()).find("number overflow") != std::string::npos, e.what());
    }
    void deepNestingIsRefused() {
        const std::string deep = std::string(100000, '[') + std::string(100000, ']');
        const InputError e = errorOf([&] { parseJsonDocument(deep, "deep.json"); });
        QCOMPARE(e.line(), 1);
        QCOMPARE(e.column(), kMaxJsonDepth + 1);
        // Brackets inside strings do not count.
        parseJsonDocument("[\"" + std::string(1000, '[') + "\"]", "s.json");
    }
    void logLineNumbersShift() {
        const InputError e = errorOf([] { JsonDocument("{\"a\": tru}", "log.jsonl", "", 7); });
        QCOMPARE(e.line(), 7);
        const JsonDocument doc("{\"a\": true}", "log.jsonl", "", 7);
        QCOMPARE(doc.location(doc.root()["a"]).first, 7);
    }

    void overwrittenFileKeepsItsMode() {
        const std::string dir = testdata::tempDir("files-mode");
        const std::string path = dir + "/secret.json";
        writeFileAtomically(path, "one");
        ::chmod(path.c_str(), 0600);
        writeFileAtomically(path, "two");
        QCOMPARE(modeOf(path), mode_t(0600)); // was reset to 0644
        QCOMPARE(readFile(path), std::string("two"));
    }
    void symlinkIsWrittenThrough() {
        const std::string dir = testdata::tempDir("files-link");
        writeFileAtomically(dir + "/real.json", "old");
        fs::create_symlink("real.json", dir + "/link.json");
        writeFileAtomically(dir + "/link.json", "new");
        QVERIFY(fs::is_symlink(dir + "/link.json")); // was replaced by a regular file
        QCOMPARE(readFile(dir + "/real.json"), std::string("new"));
    }
    void staleTemporariesAreRemoved() {
        const std::string dir = testdata::tempDir("files-tmp");
        std::ofstream(dir + "/.log.jsonl.tmp.Ab3dE9") << "partial";
        std::ofstream(dir + "/.keep.me") << "x";
        std::ofstream(dir + "/log.jsonl") << "{}\n";
        QCOMPARE(removeStaleTemporaries(dir), 1);
        QVERIFY(!fs::exists(dir + "/.log.jsonl.tmp.Ab3dE9"));
        QVERIFY(fs::exists(dir + "/.keep.me"));
        QVERIFY(fs::exists(dir + "/log.jsonl"));
        QCOMPARE(removeStaleTemporaries(dir + "/missing"), 0);
    }
    // readFile reads a regular file in one piece (its size first) and a pipe to its end; binary
    // bytes (NUL included), an empty file, and a missing file named.
    void filesAndPipesAreReadWhole() {
        const std::string dir = testdata::tempDir("files-read");
        std::string big(3'000'017, '\0');
        for (std::size_t i = 0; i < big.size(); ++i)
            big[i] = static_cast<char>((i * 2654435761u) >> 13);
        std::ofstream(dir + "/big.bin", std::ios::binary) << big;
        QVERIFY(readFile(dir + "/big.bin") == big);
        std::ofstream(dir + "/empty.txt").close();
        QCOMPARE(readFile(dir + "/empty.txt"), std::string());
        const std::string fifo = dir + "/pipe";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        std::thread writer(
            [&] { std::ofstream(fifo, std::ios::binary) << big.substr(0, 200'003); });
        const std::string got = readFile(fifo);
        writer.join();
        QVERIFY(got == big.substr(0, 200'003));
        const InputError e = errorOf([&] { readFile(dir + "/missing.json"); });
        QVERIFY(std::string(e.what()).find("missing.json") != std::string::npos);
    }
    void inputsAreNotOverwritten() {
        const std::string dir = testdata::tempDir("files-inputs");
        std::ofstream(dir + "/t.mrg") << "(S (X y))\n";
        fs::create_directories(dir + "/tb");
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 refuseToOverwriteInput(dir + "/t.mrg", {dir + "/t.mrg"}));
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 refuseToOverwriteInput(dir + "/./t.mrg", {dir + "/t.mrg"}));
        fs::create_symlink(dir + "/t.mrg", dir + "/alias.mrg");
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 refuseToOverwriteInput(dir + "/alias.mrg", {dir + "/t.mrg"}));
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 refuseToOverwriteInput(dir + "/tb/new.mrg", {dir + "/tb"}));
        refuseToOverwriteInput(dir + "/g.gram", {dir + "/t.mrg", dir + "/tb"}); // fine
        refuseToOverwriteInput(dir + "/tb/g.gram", {dir + "/tb"}); // not a treebank file
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestFiles)
#include "test_files.moc"
