// SPDX-License-Identifier: Apache-2.0
#include "engine/backendregistry.h"

#include "engine/cpubackend.h"
#include "kix/config.h"

#if KIX_HAVE_CUDA && __has_include("engine/cudabackend.h")
#include "engine/cudabackend.h"
#define KIX_WITH_CUDA_BACKEND 1
#else
#define KIX_WITH_CUDA_BACKEND 0
#endif

namespace kix {

BackendRegistry::BackendRegistry()
{
    // A backend joins with one line here, CUDA first so that --device auto prefers it.
#if KIX_WITH_CUDA_BACKEND
    m_backends.push_back(std::make_unique<CudaBackend>());
#endif
    m_backends.push_back(std::make_unique<CpuBackend>());
}

BackendRegistry::BackendRegistry(std::vector<std::unique_ptr<Backend>> backends)
    : m_backends(std::move(backends))
{
}

Backend* BackendRegistry::backend(const QString& name) const
{
    for (const auto& b : m_backends)
        if (b->name() == name)
            return b.get();
    return nullptr;
}

QVector<DeviceInfo> BackendRegistry::devices() const
{
    QVector<DeviceInfo> all;
    for (const auto& b : m_backends)
        all += b->devices();
    return all;
}

bool BackendRegistry::resolve(const QString& device, Backend*& backend, DeviceInfo& info, QString& error) const
{
    const QString wanted = device.trimmed().toLower();
    if (wanted.isEmpty() || wanted == QStringLiteral("auto")) {
        for (const QString& name : { QStringLiteral("cuda"), QStringLiteral("cpu") }) {
            Backend* b = this->backend(name);
            const QVector<DeviceInfo> found = b ? b->devices() : QVector<DeviceInfo>();
            if (!found.isEmpty()) {
                backend = b;
                info = found.front();
                return true;
            }
        }
        error = QStringLiteral("no device found");
        for (const auto& b : m_backends)
            if (!b->unavailableReason().isEmpty())
                error += QStringLiteral("; %1: %2").arg(b->name(), b->unavailableReason());
        return false;
    }
    QString name = wanted;
    int index = 0;
    const int colon = wanted.indexOf(QLatin1Char(':'));
    if (colon >= 0) {
        name = wanted.left(colon);
        bool ok = false;
        index = wanted.mid(colon + 1).toInt(&ok);
        if (!ok || index < 0) {
            error = QStringLiteral("bad device '%1' (expected auto, cpu, cuda or cuda:N)").arg(device);
            return false;
        }
    }
    Backend* b = this->backend(name);
    if (!b) {
        error = name == QStringLiteral("cuda")
            ? QStringLiteral("device '%1': this kix was built without the CUDA backend").arg(device)
            : QStringLiteral("unknown device '%1' (expected auto, cpu, cuda or cuda:N)").arg(device);
        return false;
    }
    const QVector<DeviceInfo> found = b->devices();
    if (index >= found.size()) {
        const QString reason = b->unavailableReason();
        if (!found.isEmpty())
            error = QStringLiteral("device '%1': only %2 %3 device(s) found").arg(device).arg(found.size()).arg(name);
        else if (!reason.isEmpty()) // the backend knows why: say it, the user has a driver or a device to fix
            error = QStringLiteral("device '%1': no usable %2 device: %3").arg(device, name, reason);
        else
            error = QStringLiteral("device '%1': no %2 device found").arg(device, name);
        return false;
    }
    backend = b;
    info = found[index];
    return true;
}

} // namespace kix
