// SPDX-License-Identifier: Apache-2.0
#include "engine/correctness.h"

#include "engine/backend.h"
#include "kernels/groupnorm_reference.h"

#include <algorithm>
#include <map>
#include <vector>

namespace kix {

QString CorrectnessResult::summary() const
{
    return QStringLiteral("max relative error %1%2, tolerance %3%4")
        .arg(maxRelativeError, 0, 'g', 3)
        .arg(worstOutput.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(worstOutput))
        .arg(tolerance, 0, 'g', 3)
        .arg(sampled ? QStringLiteral(", sampled rows") : QString());
}

namespace {

// Outputs read back from the device: whole tensors once when they are small, else range by range.
class OutputReader
{
public:
    OutputReader(PreparedBenchmark& benchmark, bool whole, const BenchmarkSpec& spec)
        : m_benchmark(benchmark)
        , m_whole(whole)
        , m_spec(spec)
    {
    }

    const float* read(Output which, qint64 offset, qint64 count)
    {
        if (m_whole) {
            auto it = m_tensors.find(which);
            if (it == m_tensors.end()) {
                const qint64 size = sizeOf(which);
                std::vector<float> values(static_cast<std::size_t>(size));
                m_benchmark.readOutput(which, 0, size, values.data());
                it = m_tensors.emplace(which, std::move(values)).first;
            }
            return it->second.data() + offset;
        }
        m_scratch.resize(static_cast<std::size_t>(count));
        m_benchmark.readOutput(which, offset, count, m_scratch.data());
        return m_scratch.data();
    }

private:
    qint64 sizeOf(Output which) const
    {
        switch (which) {
        case Output::Y:
        case Output::Dx:
            return m_spec.elements();
        case Output::Mean:
        case Output::Rstd:
            return m_spec.rows();
        case Output::DWeight:
        case Output::DBias:
            return m_spec.channels;
        }
        return 0;
    }

    PreparedBenchmark& m_benchmark;
    bool m_whole;
    const BenchmarkSpec& m_spec;
    std::map<Output, std::vector<float>> m_tensors;
    std::vector<float> m_scratch;
};

// Evenly spaced indices in [0, count), first and last included.
std::vector<qint64> spread(qint64 count, qint64 wanted)
{
    std::vector<qint64> picked;
    if (count <= wanted) {
        for (qint64 i = 0; i < count; ++i)
            picked.push_back(i);
        return picked;
    }
    for (qint64 k = 0; k < wanted; ++k)
        picked.push_back(k * (count - 1) / (wanted - 1));
    picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
    return picked;
}

struct Errors
{
    gn::ref::ErrorAccumulator y, mean, rstd, dx, dweight, dbias;
};

} // namespace

CorrectnessResult checkCorrectness(PreparedBenchmark& benchmark, const BenchmarkSpec& spec)
{
    const gn::Shape shape = spec.shape();
    const bool forward = spec.pass != Pass::Backward;
    const bool backward = spec.pass != Pass::Forward;
    const qint64 length = spec.rowLength();
    const qint64 groups = spec.groups();
    const qint64 cpg = spec.channelsPerGroup;
    const bool whole = spec.elements() <= kWholeTensorCheckElements;
    OutputReader reader(benchmark, whole, spec);

    std::vector<double> weight(static_cast<std::size_t>(spec.channels));
    std::vector<double> bias(weight.size());
    for (std::size_t c = 0; c < weight.size(); ++c) {
        weight[c] = gn::initInput(spec.seed, gn::Tensor::Weight, c);
        bias[c] = gn::initInput(spec.seed, gn::Tensor::Bias, c);
    }
    std::vector<double> x(static_cast<std::size_t>(length)), dy(x.size()), out(x.size());
    auto loadRow = [&](gn::Tensor tensor, qint64 row, std::vector<double>& into) {
        const auto first = static_cast<std::uint64_t>(row * length);
        for (std::size_t i = 0; i < into.size(); ++i)
            into[i] = gn::roundToDType(gn::initInput(spec.seed, tensor, first + i), spec.dtype);
    };
    auto compare
        = [&](gn::ref::ErrorAccumulator& error, Output which, qint64 offset, const double* reference, qint64 count) {
              const float* values = reader.read(which, offset, count);
              for (qint64 i = 0; i < count; ++i)
                  error.add(values[i], reference[i]);
          };

    Errors errors;
    std::vector<double> dweight(weight.size(), 0.0), dbias(weight.size(), 0.0); // reference sums (whole check)
    const std::vector<qint64> rows = spread(spec.rows(), whole ? spec.rows() : 16);
    for (const qint64 row : rows) {
        const std::size_t first = static_cast<std::size_t>((row % groups) * cpg);
        loadRow(gn::Tensor::X, row, x);
        if (forward) {
            double mean = 0;
            double rstd = 0;
            gn::ref::forwardRow(x.data(), &weight[first], &bias[first], shape, out.data(), mean, rstd);
            compare(errors.y, Output::Y, row * length, out.data(), length);
            compare(errors.mean, Output::Mean, row, &mean, 1);
            compare(errors.rstd, Output::Rstd, row, &rstd, 1);
        }
        if (backward) {
            loadRow(gn::Tensor::Dy, row, dy);
            gn::ref::backwardRow(
                x.data(), dy.data(), &weight[first], shape, out.data(), &dweight[first], &dbias[first]);
            compare(errors.dx, Output::Dx, row * length, out.data(), length);
        }
    }
    if (backward) {
        if (whole) {
            compare(errors.dweight, Output::DWeight, 0, dweight.data(), spec.channels);
            compare(errors.dbias, Output::DBias, 0, dbias.data(), spec.channels);
        } else {
            // dweight and dbias of a group need every row of that group over the batch.
            const qint64 budget = qint64(1) << 26; // reference elements, about a second of host work
            const qint64 perGroup = spec.batch * length;
            const qint64 wanted = std::clamp<qint64>(budget / std::max<qint64>(1, perGroup), 1, 3);
            for (const qint64 g : spread(groups, wanted)) {
                const std::size_t first = static_cast<std::size_t>(g * cpg);
                std::fill(dweight.begin() + qint64(first), dweight.begin() + qint64(first) + cpg, 0.0);
                std::fill(dbias.begin() + qint64(first), dbias.begin() + qint64(first) + cpg, 0.0);
                for (qint64 n = 0; n < spec.batch; ++n) {
                    const qint64 row = n * groups + g;
                    loadRow(gn::Tensor::X, row, x);
                    loadRow(gn::Tensor::Dy, row, dy);
                    gn::ref::backwardRow(
                        x.data(), dy.data(), &weight[first], shape, out.data(), &dweight[first], &dbias[first]);
                }
                compare(errors.dweight, Output::DWeight, g * cpg, &dweight[first], cpg);
                compare(errors.dbias, Output::DBias, g * cpg, &dbias[first], cpg);
            }
        }
    }

    CorrectnessResult result;
    result.tolerance = gn::ref::tolerance(spec.dtype);
    result.sampled = !whole;
    const std::pair<const char*, const gn::ref::ErrorAccumulator*> all[] = {
        { "y", &errors.y },
        { "mean", &errors.mean },
        { "rstd", &errors.rstd },
        { "dx", &errors.dx },
        { "dweight", &errors.dweight },
        { "dbias", &errors.dbias },
    };
    for (const auto& [name, error] : all) {
        const double relative = error->relative();
        if (relative > result.maxRelativeError) {
            result.maxRelativeError = relative;
            result.worstOutput = QLatin1String(name);
        }
    }
    result.passed = result.maxRelativeError <= result.tolerance;
    return result;
}

} // namespace kix
