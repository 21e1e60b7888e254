// SPDX-License-Identifier: Apache-2.0
// The main of every test executable: `EXECUTABLE TEST [QTest options...]` runs one registered test class;
// `EXECUTABLE --list` prints the names it holds.
#include "tests/support/testmain.h"

#include "app/processpolicy.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

struct Registry
{
    std::map<std::string, kixtest::TestEntry> entries;
    std::vector<std::string> clashes; // two files with one name: refused at start, not silently one of them
};

Registry& registry()
{
    static Registry r; // filled by the test files' static initialisers, before main
    return r;
}

std::string baseName(const char* path)
{
    std::string name(path);
    const std::size_t slash = name.find_last_of("/\\");
    if (slash != std::string::npos)
        name.erase(0, slash + 1);
    const std::size_t dot = name.rfind('.');
    if (dot != std::string::npos)
        name.erase(dot);
    return name;
}

int usage(const char* program, const char* why)
{
    if (why)
        std::fprintf(stderr, "%s: %s\n", program, why);
    std::fprintf(stderr, "usage: %s TEST [Qt Test options]   (%s --list names the tests)\n", program, program);
    return 2;
}

} // namespace

bool kixtest::registerTest(const char* sourceFile, TestEntry entry)
{
    const std::string name = baseName(sourceFile);
    const bool fresh = registry().entries.emplace(name, entry).second;
    if (!fresh)
        registry().clashes.push_back(name);
    return fresh;
}

int main(int argc, char** argv)
{
    kix::applyProcessPolicy(); // as the kix binary does: the tests run under the process policy users get
    const Registry& r = registry();
    if (!r.clashes.empty()) {
        for (const std::string& name : r.clashes)
            std::fprintf(stderr, "%s: two test files are named %s\n", argv[0], name.c_str());
        return 2;
    }
    if (argc < 2)
        return usage(argv[0], "which test?");
    if (std::strcmp(argv[1], "--list") == 0) {
        for (const auto& [name, entry] : r.entries)
            std::printf("%s\n", name.c_str());
        return 0;
    }
    const auto it = r.entries.find(argv[1]);
    if (it == r.entries.end())
        return usage(argv[0], (std::string("no test named ") + argv[1]).c_str());
    // the test sees its own name as the program and the rest as Qt Test's options
    std::vector<char*> args { argv[1] };
    args.insert(args.end(), argv + 2, argv + argc);
    args.push_back(nullptr);
    return it->second(int(args.size()) - 1, args.data());
}
