// SPDX-License-Identifier: Apache-2.0
// Names, slugs, GPU facts and the protocol and environment documents of Liger-Kernel runs (see ligercsv.cpp).
#include "model/import/ligernaming.h"

#include "model/format/documentbuilder.h"

#include <QString>

#include <algorithm>
#include <map>

namespace kix::liger {

// ---- Slugs and names ----

bool isAsciiAlnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
char asciiLower(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), asciiLower);
    return s;
}

// "group_norm" -> "GroupNorm"; well-known abbreviations keep their usual spelling ("rms_norm" -> "RMSNorm").
std::string kernelDisplayName(const std::string& kernel)
{
    static const std::map<std::string, std::string> special
        = { { "rms", "RMS" }, { "jsd", "JSD" }, { "tvd", "TVD" }, { "kl", "KL" }, { "rope", "RoPE" },
              { "geglu", "GEGLU" }, { "swiglu", "SwiGLU" }, { "moe", "MoE" }, { "grpo", "GRPO" }, { "orpo", "ORPO" },
              { "cpo", "CPO" }, { "simpo", "SimPO" }, { "kto", "KTO" }, { "relu", "ReLU" }, { "dpo", "DPO" } };
    std::string out, word;
    const auto flush = [&] {
        const auto it = special.find(word);
        if (it != special.end())
            out += it->second;
        else if (!word.empty())
            out += char(std::toupper(static_cast<unsigned char>(word[0]))) + word.substr(1);
        word.clear();
    };
    for (const char c : kernel) {
        if (c == '_' || c == '-' || c == ' ')
            flush();
        else
            word += asciiLower(c);
    }
    flush();
    return out.empty() ? kernel : out;
}

using Table = std::initializer_list<std::pair<const char*, const char*>>;

// The value of the first entry whose key occurs in the product name (case-insensitive), or "".
static std::string lookup(const std::string& product, Table table)
{
    const std::string name = lower(QString::fromStdString(product).simplified().toStdString());
    for (const auto& [needle, value] : table) {
        if (name.find(needle) != std::string::npos)
            return value;
    }
    return {};
}

std::string architectureOf(const std::string& product)
{
    return lookup(product,
        { { "b200", "sm_100" }, { "h100", "sm_90" }, { "h200", "sm_90" }, { "a100", "sm_80" }, { "rtx 3090", "sm_86" },
            { "rtx 4090", "sm_89" } });
}

std::string vendorOf(const std::string& product)
{
    return lookup(product,
        { { "nvidia", "nvidia" }, { "geforce", "nvidia" }, { "tesla", "nvidia" }, { "quadro", "nvidia" },
            { "rtx", "nvidia" }, { "amd", "amd" }, { "radeon", "amd" }, { "instinct", "amd" }, { "intel", "intel" } });
}

static std::string passNotes(const std::string& pass)
{
    if (pass == "forward")
        return "the forward pass of the module on random inputs";
    if (pass == "backward")
        return "the backward pass of the module output given a random upstream gradient";
    if (pass == "full")
        return "the forward pass followed by the backward pass of a random upstream gradient";
    return "the '" + pass + "' mode of the benchmark script";
}

const char* const kProvenanceNotes = " The upstream CSV records no CUDA, driver, or torch version; the Liger release "
                                     "rides each run's labels. Comparable only within one kernel, workload, ";

json protocolDocument(const std::string& pass, bool memory)
{
    json spec;
    spec["harness"] = { { "name", "Liger-Kernel benchmark scripts" },
        { "repository", "https://github.com/linkedin/Liger-Kernel" } };
    std::string name, title = "Liger benchmark harness \u00b7 " + pass + " pass";
    if (memory) {
        spec["measurement"] = { { "timer", "none" }, { "instrument", "torch.cuda.max_memory_allocated" },
            { "primaryStatistic", "median" } };
        spec["comparability"] = { { "family", "liger_kernel_bench_memory" },
            { "notes",
                "Measured: peak GPU memory allocated (MB) while running " + passNotes(pass)
                    + ", via torch.cuda.max_memory_allocated over repeated runs with quantiles 0.5/0.2/0.8 (median "
                      "with p20/p80 spread); it is peak memory, not time."
                    + kProvenanceNotes + "pass, and GPU." } };
        name = "liger-bench-peak-memory-" + slugify(pass);
        title += " peak memory";
    } else {
        spec["measurement"] = { { "timer", "cuda_events" }, { "primaryStatistic", "median" } };
        spec["comparability"] = { { "family", "liger_kernel_bench" },
            { "notes",
                "Timed: " + passNotes(pass)
                    + ", via triton.testing.do_bench with quantiles 0.5/0.2/0.8 (median with p20/p80 spread)."
                    + kProvenanceNotes + "timed pass, and GPU." } };
        name = "liger-bench-do-bench-" + slugify(pass);
    }
    return format::protocolResource(name, title, spec);
}

json environmentDocument(const std::string& product)
{
    const json spec = {
        { "hardware",
            { { "vendor", vendorOf(product) }, { "product", product }, { "architecture", architectureOf(product) } } },
        { "software", json::object() }
    };
    const std::string shortName = product.rfind("NVIDIA ", 0) == 0 ? product.substr(7) : product;
    return format::environmentResource(
        "liger-bench-" + slugify(product), "Liger benchmark host \u00b7 " + shortName, spec);
}

} // namespace kix::liger
