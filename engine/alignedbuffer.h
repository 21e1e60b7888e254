// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>

namespace kix {

// Host memory aligned to a cache line (whole vector loads, no split lines), uninitialised.
class AlignedBuffer
{
public:
    static constexpr std::size_t kAlignment = 64;

    AlignedBuffer() = default;
    explicit AlignedBuffer(std::size_t bytes)
        : m_data(bytes > 0 ? static_cast<std::byte*>(::operator new[](bytes, std::align_val_t(kAlignment))) : nullptr)
        , m_size(bytes)
    {
    }

    std::byte* data() { return m_data.get(); }
    const std::byte* data() const { return m_data.get(); }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    template<typename T>
    T* as()
    {
        return reinterpret_cast<T*>(m_data.get());
    }
    template<typename T>
    const T* as() const
    {
        return reinterpret_cast<const T*>(m_data.get());
    }

private:
    struct Free
    {
        void operator()(std::byte* p) const { ::operator delete[](p, std::align_val_t(kAlignment)); }
    };
    std::unique_ptr<std::byte[], Free> m_data;
    std::size_t m_size = 0;
};

} // namespace kix
