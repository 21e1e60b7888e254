#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Instructions per element of the GroupNorm kernels, counted in their PTX (nvcc -ptx).

Usage: ptx_count.py PTX [--match REGEX ...] [--elements N]

For each .entry whose demangled name (c++filt) matches every --match pattern: the number of PTX
instructions in its body (labels, declarations and braces left out), and with --elements (elements per
thread) that number divided by it. The kernels are fully unrolled and handle one row per loop body, so the
static count is what one thread issues per row, about; per element = count / elements per thread. PTX is
before ptxas (which fuses some pairs, e.g. mul+add into FMA, and splits others): an issue-slot estimate,
not a measurement. (This machine's toolkit has nvcc and ptxas but no cuobjdump/nvdisasm for SASS.) Also
counts a few classes: conversions (cvt), shuffles (shfl), integer division/remainder (div.s/u, rem),
fp32 division (div.rn.f32 / div.full), barriers (bar), fences (membar/fence), global loads/stores.
"""
import argparse
import re
import subprocess
import sys

CLASSES = [("cvt", r"^cvt\."), ("shfl", r"^shfl\."), ("int div/rem", r"^(div|rem)\.[su]\d+"),
           ("fp32 div", r"^div\.(rn|full|approx)\.f32"), ("bar", r"^(bar|barrier)\."),
           ("fence", r"^(membar|fence)\."), ("ld.global", r"^ld\.global"), ("st.global", r"^st\.global")]


def entries(text):
    for m in re.finditer(r"\.entry\s+(\S+)\s*\(", text):
        start = text.index("{", m.end())
        depth, i = 0, start
        while True:
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        body = []
        for line in text[start + 1:i].splitlines():
            line = line.split("//")[0].strip()
            if not line or line.startswith((".", "$", "{", "}")) or line.endswith(":"):
                continue
            line = re.sub(r"^@!?%\w+\s+", "", line)
            body.append(line.split()[0].rstrip(";"))
        yield m.group(1), body


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("ptx")
    p.add_argument("--match", action="append", default=[])
    p.add_argument("--elements", type=int, default=0)
    a = p.parse_args()
    found = list(entries(open(a.ptx, encoding="utf-8").read()))
    names = subprocess.run(["c++filt"], input="\n".join(n for n, _ in found), capture_output=True,
                           text=True).stdout.splitlines()
    hits = 0
    for (_, body), name in zip(found, names):
        if not all(re.search(m, name) for m in a.match):
            continue
        hits += 1
        per = f", {len(body) / a.elements:.1f} per element" if a.elements else ""
        print(f"{name}: {len(body)} PTX instructions{per}; "
              + ", ".join(f"{k} {sum(1 for i in body if re.match(v, i))}" for k, v in CLASSES))
    return 0 if hits else 1


if __name__ == "__main__":
    sys.exit(main())
