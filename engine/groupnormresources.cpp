// SPDX-License-Identifier: Apache-2.0
#include "engine/groupnormresources.h"

#include "kix/config.h"
#include "model/format/digest.h"
#include "model/format/documentbuilder.h"
#include "model/format/utf8.h"
#include "model/format/vocabulary.h"

namespace kix {

using nlohmann::json;

namespace {

json tensor(std::initializer_list<const char*> shape, const std::string& dtype)
{
    json dims = json::array();
    for (const char* d : shape)
        dims.push_back(d);
    return { { "shape", dims }, { "dtype", dtype }, { "layout", "contiguous" } };
}

json named(const char* name, json t)
{
    return { { "name", name }, { "tensor", std::move(t) } };
}

} // namespace

json groupNormOperation(const BenchmarkSpec& spec)
{
    const std::string dtype = utf8(dtypeName(spec.dtype));
    const json x = tensor({ "batch", "channels", "hidden" }, dtype);
    const json perChannel = tensor({ "channels" }, dtype);
    const json perGroup = tensor({ "batch", "groups" }, "fp32");
    json inputs = json::array({ named("x", x), named("weight", perChannel) });
    json outputs = json::array();
    std::string expression;
    switch (spec.pass) {
    case Pass::Forward:
        inputs.push_back(named("bias", perChannel));
        outputs = { named("y", x), named("mean", perGroup), named("rstd", perGroup) };
        expression = "y = (x - mean_g(x)) * rsqrt(var_g(x) + eps) * weight + bias over groups of channels_per_group "
                     "channels";
        break;
    case Pass::Backward:
        inputs.push_back(named("dy", x));
        inputs.push_back(named("mean", perGroup));
        inputs.push_back(named("rstd", perGroup));
        outputs = { named("dx", x), named("dweight", perChannel), named("dbias", perChannel) };
        expression = "dx, dweight, dbias = the gradients of group_norm(x, weight, bias, eps) given dy, from the "
                     "forward pass's mean and rstd";
        break;
    case Pass::Full:
        inputs.push_back(named("bias", perChannel));
        inputs.push_back(named("dy", x));
        outputs = { named("y", x), named("dx", x), named("dweight", perChannel), named("dbias", perChannel) };
        expression = "the forward pass y = group_norm(x, weight, bias, eps), then its backward pass given dy";
        break;
    }
    inputs.push_back({ { "name", "eps" }, { "scalar", { { "dtype", "fp32" } } } });
    const json variable = { { "role", "variable" }, { "type", "integer" }, { "minimum", 1 } };
    const json spec_ = {
        { "family", "group-norm" },
        { "axes",
            { { "batch", variable }, { "channels", variable }, { "hidden", variable },
                { "channels_per_group", variable },
                { "groups",
                    { { "role", "derived" }, { "type", "integer" },
                        { "expression", "channels / channels_per_group" } } } } },
        { "inputs", inputs },
        { "outputs", outputs },
        { "semantics", { { "expression", expression }, { "mutation", "none" }, { "determinism", "unspecified" } } },
    };
    const QString pass = passName(spec.pass);
    return format::resource(format::kOperationSpec,
        utf8(QStringLiteral("group-norm-%1-%2").arg(pass, dtypeName(spec.dtype))),
        utf8(QStringLiteral("GroupNorm · %1 · %2").arg(pass, dtypeName(spec.dtype))), spec_);
}

json groupNormWorkload(const BenchmarkSpec& spec, const json& operation, double tolerance)
{
    const std::string dtype = utf8(dtypeName(spec.dtype));
    const json x = { spec.batch, spec.channels, spec.hidden };
    const json perChannel = { spec.channels };
    const json perGroup = { spec.batch, spec.groups() };
    const auto data = [&](int offset) {
        return json { { "generator", "kix_seeded_uniform" }, { "seed", spec.seed + offset } };
    };
    json tensors = { { "x", { { "shape", x }, { "dtype", dtype }, { "data", data(0) } } },
        { "weight", { { "shape", perChannel }, { "dtype", dtype }, { "data", data(1) } } } };
    if (spec.pass != Pass::Backward)
        tensors["bias"] = { { "shape", perChannel }, { "dtype", dtype }, { "data", data(2) } };
    if (spec.pass != Pass::Forward)
        tensors["dy"] = { { "shape", x }, { "dtype", dtype }, { "data", data(3) } };
    if (spec.pass == Pass::Backward) {
        tensors["mean"] = { { "shape", perGroup }, { "dtype", "fp32" } };
        tensors["rstd"] = { { "shape", perGroup }, { "dtype", "fp32" } };
    }
    json correctness = { { "comparator", "max_relative_error_vs_float64" }, { "nanPolicy", "reject" } };
    if (std::isfinite(tolerance) && tolerance >= 0)
        correctness["maxRelativeError"] = tolerance;
    const json workloadSpec = {
        { "operationSpecDigest", format::kernelindexDigest(operation) },
        { "axes",
            { { "batch", spec.batch }, { "channels", spec.channels }, { "hidden", spec.hidden },
                { "channels_per_group", spec.channelsPerGroup }, { "groups", spec.groups() } } },
        { "tensors", tensors },
        { "scalars", { { "eps", { { "dtype", "fp32" }, { "value", spec.eps } } } } },
        { "correctness", correctness },
    };
    return format::resource(format::kWorkloadCase,
        utf8(QStringLiteral("group-norm-%1-%2").arg(passName(spec.pass), spec.workloadSlug())),
        utf8(QStringLiteral("GroupNorm %1 · %2").arg(passName(spec.pass), spec.workloadSlug())), workloadSpec);
}

json groupNormImplementation(
    const BenchmarkSpec& spec, const json& operation, const json& info, const QString& architecture)
{
    json rest = info.is_object() ? info : json::object();
    const std::string backend = rest.value("backend", std::string("cpu"));
    const std::string name = rest.value("name", utf8(spec.implementation));
    json implementationSpec = {
        { "projectRevision", { { "version", KIX_VERSION } } },
        { "operation", { { "specDigest", format::kernelindexDigest(operation) } } },
        { "callable", { { "language", backend == "cuda" ? "cuda" : "cpp" }, { "symbol", name } } },
        { "support",
            { { "hardwareArchitectures", json::array({ format::toName(utf8(architecture)) }) },
                { "dtypes", json::array({ utf8(dtypeName(spec.dtype)) }) } } },
        { "licensing", json::object() },
    };
    // The build is part of the implementation's identity: compiler and flags as its one build variant.
    json variant = { { "name", format::metadataName(name + "-" + backend) },
        { "install", { { "kind", "source" }, { "version", KIX_VERSION } } } };
    if (rest.contains("buildFlags") && rest["buildFlags"].is_string())
        variant["install"]["command"] = format::truncateCodePoints(rest["buildFlags"].get<std::string>(), 1000);
    if (rest.contains("compiler") && rest["compiler"].is_string())
        variant["requirements"]
            = { { "compiler", format::truncateCodePoints(rest["compiler"].get<std::string>(), 200) } };
    implementationSpec["buildVariants"] = json::array({ variant });
    const std::string algorithm = rest.value("algorithm", std::string());
    for (const char* used : { "name", "backend", "kixVersion", "buildFlags", "compiler", "algorithm" })
        rest.erase(used);
    json doc = format::resource(
        format::kImplementationRevision, "kix-" + name, "kix engine · " + name, std::move(implementationSpec), rest);
    if (!algorithm.empty())
        doc["metadata"]["description"] = format::truncateCodePoints(algorithm, format::kMaxDescription);
    return doc;
}

} // namespace kix
