#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the generated part of kernels/cuda/ptxas-budget.txt from ptxas -v reports.

Usage: ptxas_budget.py BUDGET REPORT...   (reports: build/<dir>/kernels/cuda/ptxas/*.txt)

Every kernel compiled in the reports gets a line `kernel | threads | max registers | why`. The budget of a
kernel is the most registers that keep the resident blocks per SM its measured registers give (sm_90: 65536
registers allocated per warp in units of 256, 2048 threads, 32 blocks, at most 255 per thread and at most
65536 / threads under its launch bounds): it may grow up to the next occupancy cliff, never past it. Lines
above the marker `# generated below` are kept as written (the seed kernels' design budgets); a kernel named
there is not generated again. Spills need no column: ptxas-budget.cmake fails every budgeted kernel that
spills at all. Demangles with c++filt, as the checker does.
"""
import re
import subprocess
import sys

MARKER = "# generated below"


def resident_blocks(regs, threads):
    per_warp = (regs * 32 + 255) // 256 * 256
    warps = (threads + 31) // 32
    return min(65536 // (per_warp * warps), 2048 // threads, 32)


def cap(regs, threads):
    blocks = resident_blocks(regs, threads)
    limit = min(255, 65536 // threads)
    best = regs
    for r in range(regs, limit + 1):
        if resident_blocks(r, threads) == blocks:
            best = r
    return best, blocks


def threads_of(name):
    m = re.match(r"(fused\w+Kernel)<\(kix::gn::DType\)\d, (\d+), (\d+),", name)
    if m:
        return int(m.group(2)) * int(m.group(3))
    m = re.match(r"persistent\w+Kernel<\(kix::gn::DType\)\d, (\d+),", name)
    if m:
        return int(m.group(1))
    if name.startswith("channelReduceKernel"):
        return 256  # kReduceChannelsPerBlock x kReduceSlices
    return 256  # the reference kernels' kThreads (merge and row sums: launched with 256 too)


def main():
    budget_path, reports = sys.argv[1], sys.argv[2:]
    kernels = []  # (mangled, regs, spill text)
    for path in reports:
        current = None
        for line in open(path):
            m = re.search(r"Compiling entry function '([^']+)' for 'sm_", line)
            if m:
                current = m.group(1)
                continue
            m = re.search(r"Used (\d+) registers", line)
            if current and m:
                kernels.append((current, int(m.group(1))))
                current = None
    names = subprocess.run(["c++filt"], input="\n".join(k for k, _ in kernels) + "\n", capture_output=True,
                           text=True, check=True).stdout.splitlines()
    pretty = []
    for name in names:
        name = re.sub(r"^(void )?kix::cuda::detail::\(anonymous namespace\)::", "", name)
        name = re.sub(r"^([^>]*>)\(.*", r"\1", name)
        if "<" not in name:
            name = re.sub(r"\(.*", "(", name)
        pretty.append(name)
    text = open(budget_path).read()
    head = text.split(MARKER)[0].rstrip("\n") + "\n"
    kept = [line.split("|")[0].strip() for line in head.splitlines() if line and not line.startswith("#")]
    rows = []
    for name, (_, regs) in sorted(zip(pretty, kernels), key=lambda p: p[0]):
        if any(name.startswith(prefix) for prefix in kept):
            continue
        threads = threads_of(name)
        limit, blocks = cap(regs, threads)
        rows.append((name, threads, limit, f"{blocks} blocks, {blocks * threads} threads/SM"))
    width = max(len(r[0]) for r in rows)
    out = head + MARKER + " by kernels/cuda/tools/ptxas_budget.py: every other instantiation the plans can choose\n"
    for name, threads, limit, why in rows:
        out += f"{name.ljust(width)} | {threads:<4} | {limit:<3} | {why}\n"
    open(budget_path, "w").write(out)
    print(f"{len(kept)} kept, {len(rows)} generated")


if __name__ == "__main__":
    main()
