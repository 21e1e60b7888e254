#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""torch.nn.GroupNorm timed the way the seed run was (Liger-Kernel's benchmark protocol), written as
kernelindex run documents; plus the two helpers scripts/gpu-check.sh needs around it.

Subcommands:
  bench        time torch.nn.GroupNorm with triton.testing.do_bench (quantiles 0.5/0.2/0.8; backward times
               y.backward(dy, retain_graph=True) with the forward outside the timed region; full times
               forward + backward) and write one {run, protocol, environment} document per line (JSON Lines).
               --flush memset (the default: do_bench's own cache.zero_(), the policy kix_cuda_check uses too),
               read (a read of a buffer of twice the L2 before each repetition, as kix_cuda_check --flush
               read) or none (N back-to-back calls per event pair, as kix_cuda_check --flush none); each run
               records its policy (label cache_flush, comparability notes).
               Without torch or triton (or without a GPU) it says so and exits 0 having written nothing.
  convert-kix  turn kix_cuda_check's bench lines (JSON) into kernelindex documents, for machines where
               the Qt-based `kix bench` cannot be built.
  summary      a Markdown table of kix and torch medians per workload, dtype and pass, with the floor
               and the targets, from kernelindex documents (.json files, folders of them, or .jsonl).
"""

import argparse
import datetime
import hashlib
import json
import os
import re
import sys

API = "kernelindex.dev/v1alpha1"
SEED_CHANNELS = [32, 64, 128, 256, 512, 1024, 2048]  # Liger's group_norm sweep (x_name C)
# Seed workload targets from the product's issue, ms (kix-fused on an H200).
TARGETS_MS = {("fp32", "forward"): 0.278, ("fp32", "backward"): 0.416,
              ("bf16", "forward"): 0.139, ("bf16", "backward"): 0.208}


def canonical(value):
    """The JSON the engine hashes: sorted keys, no whitespace, UTF-8 (as nlohmann::json::dump())."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value):
    return "sha256:" + hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()


def slug(text, limit=100):
    return re.sub(r"[^a-z0-9]+", "-", text.lower())[:limit].strip("-")


def workload_slug(m, c, h, cpg, dtype):
    return f"batch{m}-channels{c}-channels_per_group{cpg}-hidden{h}-{dtype}"


def workload(m, c, h, cpg, dtype, eps):
    """Hashed into workloadDigest exactly as engine/runbuilder.cpp does, so kix and torch runs match."""
    return {"op": "group_norm", "batch": m, "channels": c, "hidden": h, "channels_per_group": cpg,
            "dtype": dtype, "eps": eps}


def observed_now():
    now = datetime.datetime.now(datetime.timezone.utc)
    return now, now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def document(*, provider, pass_, gpu_slug, gpu_name, architecture, software, shape, dtype, eps, median_ns,
             p20_ns, p80_ns, source, metrics, protocol_spec, protocol_name, protocol_title, implementation,
             extra_measurements=(), extra_native=None, labels=None):
    m, c, h, cpg = shape
    now, observed = observed_now()
    wslug = workload_slug(m, c, h, cpg, dtype)
    external = "/".join(["group_norm", pass_, provider, gpu_slug, wslug, now.strftime("%Y-%m-%d-%H-%M-%S")])
    protocol = {"kind": "BenchmarkProtocol", "apiVersion": API, "spec": protocol_spec,
                "metadata": {"name": protocol_name, "title": protocol_title}}
    environment = {"kind": "ExecutionEnvironment", "apiVersion": API,
                   "spec": {"hardware": {"vendor": "nvidia", "product": gpu_name, "architecture": architecture},
                            "software": software},
                   "metadata": {"name": slug(f"{source}-{gpu_slug}"), "title": f"{source} host · {gpu_name}"}}
    native = {"source": source, "metrics": metrics, "benchmark": f"group_norm/{pass_}", "externalId": external}
    native.update(extra_native or {})
    run = {"kind": "BenchmarkRun", "apiVersion": API,
           "spec": {"status": "passed",
                    "timing": {"latencyNs": {"median": round(median_ns)}, "primaryStatistic": "median"},
                    "observedAt": observed,
                    "measurements": [{"unit": "ns", "value": round(p20_ns), "metric": "latency", "statistic": "p20"},
                                     {"unit": "ns", "value": round(p80_ns), "metric": "latency", "statistic": "p80"}]
                    + list(extra_measurements),
                    "sourceNative": native,
                    "protocolDigest": digest(protocol),
                    "workloadDigest": digest(workload(m, c, h, cpg, dtype, eps)),
                    "environmentDigest": digest(environment),
                    "implementationDigest": digest(implementation)},
           "metadata": {"name": slug(f"{source}-group-norm-{pass_}-{provider}-{gpu_slug}-{wslug}"),
                        "title": f"GroupNorm · {provider} · {pass_}", "labels": labels or {}}}
    return {"run": run, "protocol": protocol, "environment": environment}


# ---------------------------------------------------------------------------------------------- bench
FLUSH_POLICIES = ("memset", "read", "none")
FLUSH_TEXT = {"memset": "cudaMemsetAsync over at least twice the L2 before every repetition, untimed (do_bench's "
                        "flush; the L2 is left dirty)",
              "read": "a read sweep of a zeroed buffer of at least twice the L2, through L2, before every "
                      "repetition, untimed (the L2 is left clean)",
              "none": "no flush: back-to-back repetitions between one pair of events, the sample is their mean"}
# Provider suffix of the runs timed under a policy other than the default (the flush controls).
FLUSH_SUFFIX = {"memset": "", "read": "-readsweep", "none": "-backtoback"}


def timed_loop(torch, fn, flush, warmup_ms, rep_ms, launches, grad_to_none=()):
    """do_bench's loop (estimate, warm-up by time, repetitions by time; median/p20/p80) with kix_cuda_check's
    other two flush policies: `read` reads a buffer of twice the L2 (256 MB at least) before each repetition;
    `none` times `launches` back-to-back calls per event pair."""
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    l2 = getattr(props, "L2_cache_size", 50 << 20)
    cache = torch.zeros(max(2 * l2, 256 << 20) // 4, dtype=torch.int32, device="cuda")

    def clear():
        for t in grad_to_none:
            t.grad = None

    def flush_now():
        if flush == "read":
            cache.sum()  # a read of every element through L2; the 4-byte result is all it writes

    per_sample = launches if flush == "none" else 1
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    fn()
    torch.cuda.synchronize()
    start.record()
    for _ in range(5):
        flush_now()
        for _ in range(per_sample):
            clear()
            fn()
    stop.record()
    torch.cuda.synchronize()
    estimate = max(start.elapsed_time(stop) / 5, 1e-3)
    for _ in range(max(1, int(warmup_ms / estimate))):
        fn()
    samples = []
    for _ in range(max(5, int(rep_ms / estimate))):
        flush_now()
        start.record()
        for _ in range(per_sample):
            clear()
            fn()
        stop.record()
        torch.cuda.synchronize()
        samples.append(start.elapsed_time(stop) / per_sample)
    q = torch.quantile(torch.tensor(samples, dtype=torch.float64), torch.tensor([0.5, 0.2, 0.8], dtype=torch.float64))
    return q.tolist()


def bench(args):
    try:
        import torch
        import triton
        from triton.testing import do_bench
    except Exception as error:  # noqa: BLE001 - any import failure means: no torch timing here
        print(f"torch_groupnorm_bench: torch/triton not available ({error}); skipping torch timings")
        return 0
    if not torch.cuda.is_available():
        print("torch_groupnorm_bench: torch sees no CUDA device; skipping torch timings")
        return 0
    device = torch.device("cuda")
    gpu_name = torch.cuda.get_device_name(device)
    major, minor = torch.cuda.get_device_capability(device)
    gpu_slug = slug(gpu_name)
    software = {"torch": torch.__version__, "triton": triton.__version__, "cuda": torch.version.cuda or ""}
    flush = args.flush
    timer = "triton.testing.do_bench" if flush == "memset" else "do_bench's loop (scripts/torch_groupnorm_bench.py)"
    notes = (f"Timed: torch.nn.GroupNorm via {timer} with quantiles 0.5/0.2/0.8 (median with "
             f"p20/p80), warm-up {args.warmup} ms, repetitions for {args.rep} ms. Cache flush policy {flush}: "
             f"{FLUSH_TEXT[flush]}{f' ({args.launches} per event pair)' if flush == 'none' else ''}. "
             "backward: y.backward(dy, retain_graph=True), forward outside the timed region; full: forward + "
             "backward. As Liger-Kernel's benchmark timed the seed run. Comparable only within one kernel, "
             "workload, timed pass, and GPU.")
    dtypes = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}
    out = open(args.out, "w", encoding="utf-8")
    count = 0
    for pass_ in args.passes.split(","):
        protocol_spec = {"harness": {"name": "kix torch GroupNorm bench (scripts/torch_groupnorm_bench.py)",
                                     "repository": "kix"},
                         "measurement": {"timer": "cuda_events", "primaryStatistic": "median", "timedPass": pass_,
                                         "warmupMs": args.warmup, "repMs": args.rep,
                                         "cacheFlush": FLUSH_TEXT[flush]},
                         "comparability": {"notes": notes, "family": "liger_kernel_bench"}}
        for dtype in args.dtypes.split(","):
            for c in [int(v) for v in args.channels.split(",")]:
                m, h, cpg, eps = args.batch, args.hidden, args.channels_per_group, args.eps
                torch.manual_seed(0)
                x = torch.randn(m, c, h, device=device, dtype=dtypes[dtype], requires_grad=True)
                dy = torch.randn_like(x)
                module = torch.nn.GroupNorm(c // cpg, c, eps=eps).to(device=device, dtype=dtypes[dtype])

                def forward():
                    return module(x)

                def full():
                    module(x).backward(dy, retain_graph=True)

                if flush != "memset":
                    if pass_ == "backward":
                        y = forward()
                        fn = lambda: y.backward(dy, retain_graph=True)  # noqa: E731
                    else:
                        fn = forward if pass_ == "forward" else full
                    ms = timed_loop(torch, fn, flush, args.warmup, args.rep, args.launches,
                                    grad_to_none=() if pass_ == "forward" else (x,))
                elif pass_ == "forward":
                    ms = do_bench(forward, quantiles=[0.5, 0.2, 0.8], warmup=args.warmup, rep=args.rep)
                elif pass_ == "backward":
                    y = forward()
                    ms = do_bench(lambda: y.backward(dy, retain_graph=True), quantiles=[0.5, 0.2, 0.8],
                                  grad_to_none=[x], warmup=args.warmup, rep=args.rep)
                else:
                    ms = do_bench(full, quantiles=[0.5, 0.2, 0.8], grad_to_none=[x], warmup=args.warmup,
                                  rep=args.rep)
                median, p20, p80 = ms
                implementation = {"name": "torch.nn.GroupNorm", "backend": "torch", "torch": torch.__version__,
                                  "cuda": torch.version.cuda or ""}
                doc = document(provider="torch" + FLUSH_SUFFIX[flush], pass_=pass_, gpu_slug=gpu_slug, gpu_name=gpu_name,
                               architecture=f"sm_{major}{minor}", software=software, shape=(m, c, h, cpg),
                               dtype=dtype, eps=eps, median_ns=median * 1e6, p20_ns=p20 * 1e6, p80_ns=p80 * 1e6,
                               source="kix-torch-bench", metrics={"ms_20": p20, "ms_50": median, "ms_80": p80},
                               protocol_spec=protocol_spec,
                               protocol_name=f"kix-torch-do-bench-{pass_}" + FLUSH_SUFFIX[flush].replace("-", "-flush-"),
                               protocol_title=f"torch do_bench · {pass_} pass", implementation=implementation,
                               labels={"torch_version": torch.__version__, "cache_flush": flush})
                out.write(json.dumps(doc, ensure_ascii=False) + "\n")
                out.flush()
                count += 1
                print(f"torch {pass_:8} {dtype} C={c:5} flush {flush}: median {median:.4f} ms (p20 {p20:.4f}, p80 {p80:.4f})",
                      flush=True)
                del x, dy, module
                torch.cuda.empty_cache()
    out.close()
    print(f"torch_groupnorm_bench: {count} runs written to {args.out}")
    return 0


# ---------------------------------------------------------------------------------------- convert-kix
KIX_IMPLS = ("kix-fused", "kix-persistent", "kix-reference")  # the candidates the summary picks the best of


def convert_kix(args):
    out = open(args.out, "w", encoding="utf-8")
    count = 0
    for line in open(args.raw, encoding="utf-8"):
        line = line.strip()
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        d = r["device"]
        flush = r.get("flush", "read")  # lines from before the policy was memset for everyone were read sweeps
        shape = (r["batch"], r["channels"], r["hidden"], r["channels_per_group"])
        protocol_spec = {"harness": {"name": "kix_cuda_check", "repository": "kix"},
                         "measurement": {"timer": "cuda_events", "primaryStatistic": "median",
                                         "timedPass": r["pass"], "warmupMs": r["warmup_ms"], "repMs": r["rep_ms"],
                                         "graphReplay": r["graph"],
                                         "cacheFlush": FLUSH_TEXT[flush]},
                         "comparability": {"notes": "kix's do_bench-style loop (engine/timingharness.cpp) in "
                                                    f"kix_cuda_check. Cache flush policy {flush}: {FLUSH_TEXT[flush]}"
                                                    + (f" ({r.get('launches_per_sample', 1)} per event pair)"
                                                       if flush == "none" else "")
                                                    + ". Comparable only within one kernel, workload, timed pass, "
                                                    "GPU and flush policy.",
                                           "family": "kix_engine"}}
        software = {"driver": d["driver"], "cudaDriver": d["cuda_driver"], "cudaRuntime": d["cuda_runtime"]}
        wide = r["impl"] == "kix-fused" and r.get("bytes_per_thread", 32) != 32
        implementation = {"name": r["impl"], "backend": "cuda", "launch": "cuda_graph" if r["graph"] else "stream",
                          "bytesPerThread": r.get("bytes_per_thread", 32)}
        provider = r["impl"] + ("-graph" if r["graph"] else "") + (f"-{r['bytes_per_thread']}b" if wide else "") \
            + FLUSH_SUFFIX[flush]
        measurements = [
            {"unit": "ns", "value": round(r["min_ns"]), "metric": "latency", "statistic": "min"},
            {"unit": "ns", "value": round(r["max_ns"]), "metric": "latency", "statistic": "max"},
            {"unit": "ns", "value": r["mean_ns"], "metric": "latency", "statistic": "mean"},
            {"unit": "count", "value": r["samples"], "metric": "latency", "statistic": "samples"},
            {"unit": "B", "value": r["minimum_bytes"], "metric": "bytes_moved", "statistic": "min"},
            {"unit": "GB/s", "value": r["gbps"], "metric": "bandwidth", "statistic": "median"}]
        if args.copy_bandwidth:
            measurements.append({"unit": "GB/s", "value": args.copy_bandwidth, "metric": "copy_bandwidth",
                                 "statistic": "median"})
        native = {"plan": r["plan"], "clockBefore": r["clock_before"], "clockAfter": r["clock_after"],
                  "warnings": [r["throttle_warning"]] if r["throttle_warning"] else []}
        doc = document(provider=provider, pass_=r["pass"], gpu_slug=slug(d["name"]), gpu_name=d["name"],
                       architecture=d["architecture"], software=software, shape=shape, dtype=r["dtype"],
                       eps=r["eps"], median_ns=r["median_ns"], p20_ns=r["p20_ns"], p80_ns=r["p80_ns"],
                       source="kix-cuda-check",
                       metrics={"ms_20": r["p20_ns"] / 1e6, "ms_50": r["median_ns"] / 1e6, "ms_80": r["p80_ns"] / 1e6},
                       protocol_spec=protocol_spec,
                       protocol_name=f"kix-cuda-check-{r['pass']}" + FLUSH_SUFFIX[flush].replace("-", "-flush-"),
                       protocol_title=f"kix_cuda_check · {r['pass']} pass", implementation=implementation,
                       extra_measurements=measurements, extra_native=native, labels={"cache_flush": flush})
        out.write(json.dumps(doc, ensure_ascii=False) + "\n")
        count += 1
    out.close()
    print(f"convert-kix: {count} runs written to {args.out}")
    return 0


# -------------------------------------------------------------------------------------------- summary
def load_documents(paths):
    docs = []
    for path in paths:
        files = [os.path.join(path, f) for f in sorted(os.listdir(path)) if f.endswith((".json", ".jsonl"))] \
            if os.path.isdir(path) else [path]
        for f in files:
            if not os.path.exists(f):
                continue
            text = open(f, encoding="utf-8").read()
            if f.endswith(".jsonl"):
                docs += [json.loads(l) for l in text.splitlines() if l.strip()]
            elif text.strip():
                value = json.loads(text)
                docs += value if isinstance(value, list) else [value]
    return docs


def summary(args):
    medians = {}  # (channels, dtype, pass, provider) -> ms
    warnings = []
    for doc in load_documents(args.inputs):
        run = doc.get("run", doc)
        native = run["spec"]["sourceNative"]
        parts = native["externalId"].split("/")
        _, pass_, provider, _, wslug = parts[:5]
        fields = dict(re.findall(r"([a-z_]+?)(\d+)(?=-|$)", wslug))
        dtype = wslug.rsplit("-", 1)[1]
        if run["spec"].get("status") != "passed":
            continue
        key = (int(fields.get("channels", 0)), dtype, pass_, provider)
        medians[key] = run["spec"]["timing"]["latencyNs"]["median"] / 1e6
        warnings += [f"{provider} {pass_} {wslug}: {w}" for w in native.get("warnings", [])]
    if not medians:
        text = "No timed runs (no GPU, or every timing step was skipped).\n"
        open(args.out, "w", encoding="utf-8").write(text) if args.out else None
        print(text)
        return 0
    controls_of = {s: [] for s in FLUSH_SUFFIX.values() if s}

    def control(provider):  # the flush suffix of a control run, or ""
        return next((s for s in controls_of if provider.endswith(s)), "")
    providers = sorted({k[3] for k in medians if not control(k[3])},
                       key=lambda p: (p not in KIX_IMPLS, p != "torch", KIX_IMPLS.index(p) if p in KIX_IMPLS else 0, p))
    lines = ["| C | dtype | pass | " + " | ".join(f"{p} (ms)" for p in providers) + " | best kix | best/torch | target |",
             "|---|---|---|" + "---|" * len(providers) + "---|---|---|"]
    slower = []
    for c, dtype, pass_ in sorted({k[:3] for k in medians}, key=lambda k: (k[1], k[2], k[0])):
        row = [medians.get((c, dtype, pass_, p)) for p in providers]
        # The best candidate that passed its correctness check (failed runs were skipped above).
        candidates = [(medians[(c, dtype, pass_, p)], p) for p in KIX_IMPLS if (c, dtype, pass_, p) in medians]
        best_ms, best = min(candidates) if candidates else (None, None)
        torch_ms = medians.get((c, dtype, pass_, "torch"))
        ratio = f"{torch_ms / best_ms:.2f}x faster" if best_ms and torch_ms else "-"
        if best_ms and torch_ms and best_ms >= torch_ms:
            slower.append(f"C={c} {dtype} {pass_}")
        target = TARGETS_MS.get((dtype, pass_)) if c == 2048 else None
        verdict = "-" if target is None or best_ms is None else \
            (f"met (<= {target})" if best_ms <= target else f"MISSED (> {target})")
        lines.append(f"| {c} | {dtype} | {pass_} | " + " | ".join("-" if v is None else f"{v:.4f}" for v in row)
                     + f" | {best or '-'} | {ratio} | {verdict} |")
    # The flush controls beside the policy's figure: the read sweep (clean L2) and back to back (no flush).
    controls = []
    for (c, dtype, pass_, p) in sorted({(k[0], k[1], k[2], k[3][:-len(control(k[3]))]) for k in medians
                                        if control(k[3])}):
        base = medians.get((c, dtype, pass_, p))
        parts = []
        for suffix, words in (("-readsweep", "after the read sweep"), ("-backtoback", "back to back")):
            ms = medians.get((c, dtype, pass_, p + suffix))
            if ms is not None:
                parts.append(f"{ms:.4f} ms {words}" + (f" ({(ms / base - 1) * 100:+.1f}%)" if base else ""))
        head = f"{base:.4f} ms after the memset flush, " if base else "no memset-flush run, "
        controls.append(f"- {p} C={c} {dtype} {pass_}: {head}" + ", ".join(parts))
    text = "\n".join(lines) + "\n"
    if args.copy_bandwidth:
        text += f"\nDevice copy bandwidth: {args.copy_bandwidth:.0f} GB/s (read + write).\n"
    text += "\nBest kix implementation slower than torch on: " + (", ".join(slower) if slower else "no shape") + "\n"
    if controls:
        text += ("\nFlush policy: every figure above is after do_bench's memset flush (kix and torch alike). "
                 "Controls (the read sweep leaves the L2 clean; back to back keeps what the previous repetition "
                 "left):\n") + \
            "".join(f"{line}\n" for line in controls)
    if warnings:
        text += "\nClock warnings:\n" + "".join(f"- {w}\n" for w in warnings)
    open(args.out, "w", encoding="utf-8").write(text) if args.out else None
    print(text)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("bench", help="time torch.nn.GroupNorm")
    b.add_argument("--out", required=True, help="JSON Lines file of kernelindex documents")
    b.add_argument("--passes", default="forward,backward,full")
    b.add_argument("--dtypes", default="fp32,bf16")
    b.add_argument("--channels", default=",".join(map(str, SEED_CHANNELS)))
    b.add_argument("--batch", type=int, default=128)
    b.add_argument("--hidden", type=int, default=512)
    b.add_argument("--channels-per-group", type=int, default=4)
    b.add_argument("--eps", type=float, default=1e-6)
    b.add_argument("--warmup", type=float, default=25, help="ms (do_bench's default)")
    b.add_argument("--rep", type=float, default=100, help="ms of repetitions (do_bench's default; Liger used 500)")
    b.add_argument("--flush", choices=FLUSH_POLICIES, default="memset",
                   help="cache flush policy: memset (do_bench's, the default), read, none (back to back)")
    b.add_argument("--launches", type=int, default=20, help="back-to-back calls per event pair (--flush none)")
    k = sub.add_parser("convert-kix", help="kix_cuda_check bench lines to kernelindex documents")
    k.add_argument("raw")
    k.add_argument("--out", required=True)
    k.add_argument("--copy-bandwidth", type=float, default=0, help="GB/s, recorded in every run")
    s = sub.add_parser("summary", help="Markdown table of medians")
    s.add_argument("inputs", nargs="+")
    s.add_argument("--out")
    s.add_argument("--copy-bandwidth", type=float, default=0)
    args = parser.parse_args()
    return {"bench": bench, "convert-kix": convert_kix, "summary": summary}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
