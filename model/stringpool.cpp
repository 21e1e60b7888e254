// SPDX-License-Identifier: Apache-2.0
// A 100k-run corpus holds a handful of GPUs, protocols and digests, and each copy of a protocol's notes alone is
// ~1 KB: the loader makes each such string once per thread, straight from the parser's UTF-8 bytes.
#include "model/stringpool.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace kix {

namespace {

constexpr std::size_t kMaxInternedBytes = 2048;
constexpr std::size_t kMaxPoolSize = 1 << 16;

std::uint64_t load8(const char* p)
{
    std::uint64_t v = 0;
    std::memcpy(&v, p, 8);
    return v;
}

// A cheap hash of the length and three 8-byte windows (head, middle, tail); equality is always checked in full.
std::uint64_t quickHash(std::string_view s)
{
    std::uint64_t h = s.size() * 0x9E3779B97F4A7C15ull;
    if (s.size() >= 8) {
        h ^= load8(s.data()) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
        h ^= load8(s.data() + (s.size() - 8) / 2) + 0x85EBCA77C2B2AE63ull + (h << 6) + (h >> 2);
        h ^= load8(s.data() + s.size() - 8) + 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
    } else {
        for (const char c : s)
            h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ull;
    }
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    return h;
}

// Open addressing, linear probing; never shrinks, cleared when full.
class Pool
{
public:
    QString intern(std::string_view s)
    {
        if (m_slots.empty())
            m_slots.resize(1024);
        const std::uint64_t h = quickHash(s);
        std::size_t mask = m_slots.size() - 1;
        for (std::size_t i = h & mask;; i = (i + 1) & mask) {
            Slot& slot = m_slots[i];
            if (!slot.used) {
                if (m_count >= kMaxPoolSize) {
                    clear(); // a pathological corpus of unique strings: start over rather than grow without bound
                    return intern(s);
                }
                slot = { h, std::string(s), QString::fromUtf8(s.data(), qsizetype(s.size())), true };
                ++m_count;
                const QString value = slot.value;
                if (m_count * 2 > m_slots.size())
                    grow();
                return value;
            }
            if (slot.hash == h && slot.key == s)
                return slot.value;
        }
    }

private:
    struct Slot
    {
        std::uint64_t hash = 0;
        std::string key;
        QString value;
        bool used = false;
    };

    void grow()
    {
        std::vector<Slot> old(m_slots.size() * 2);
        old.swap(m_slots);
        const std::size_t mask = m_slots.size() - 1;
        for (Slot& slot : old) {
            if (!slot.used)
                continue;
            std::size_t i = slot.hash & mask;
            while (m_slots[i].used)
                i = (i + 1) & mask;
            m_slots[i] = std::move(slot);
        }
    }

    void clear()
    {
        m_slots.assign(1024, Slot {});
        m_count = 0;
    }

    std::vector<Slot> m_slots;
    std::size_t m_count = 0;
};

} // namespace

QString internUtf8(std::string_view utf8)
{
    if (utf8.empty())
        return {};
    if (utf8.size() > kMaxInternedBytes)
        return QString::fromUtf8(utf8.data(), qsizetype(utf8.size()));
    thread_local Pool pool;
    return pool.intern(utf8);
}

} // namespace kix
