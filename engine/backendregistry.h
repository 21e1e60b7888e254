// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/backend.h"

#include <memory>
#include <vector>

namespace kix {

// The backends built into this kix (CPU always; CUDA when built with it) and device selection.
class BackendRegistry
{
public:
    // Every built-in backend.
    BackendRegistry();
    // Exactly these backends (tests).
    explicit BackendRegistry(std::vector<std::unique_ptr<Backend>> backends);

    const std::vector<std::unique_ptr<Backend>>& backends() const { return m_backends; }
    Backend* backend(const QString& name) const;
    QVector<DeviceInfo> devices() const; // of every backend, CUDA first when present

    // Picks a device: "auto" (the first CUDA device, else the CPU), "cpu", "cuda" (= "cuda:0"), "cuda:N".
    // False with a message for the user when there is no such device; when the backend is built in but found
    // none, the message carries its unavailableReason() (the CUDA error).
    bool resolve(const QString& device, Backend*& backend, DeviceInfo& info, QString& error) const;

private:
    std::vector<std::unique_ptr<Backend>> m_backends;
};

} // namespace kix
