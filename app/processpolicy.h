// SPDX-License-Identifier: Apache-2.0
#pragma once
// What kix's executables (the kix binary, the test and benchmark programs) decide for their whole process, and the
// libraries leave alone: the allocator's tuning and the SIGBUS handler that lets the loader map files.

namespace kix {

// Once per process, before any thread starts: glibc's trim and mmap thresholds (measured reason in
// docs/benchmarks.md, "Measured figures", the loader), then the SIGBUS handler for mapped files
// (model/read/mappedfile.h), chained to whatever handler there was, and mapped reads allowed. Calling it again does
// nothing.
void applyProcessPolicy();

// The SIGBUS handler alone, installed again on top of whatever handler is there now (chained to it), and mapped
// reads allowed. For a process whose later set-up replaced the handler: Qt Test installs its own crash handler
// when a test class starts, so a test that shrinks a mapped file calls this first.
void installMappedFaultHandler();

} // namespace kix
