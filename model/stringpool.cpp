// Interning of the strings that repeat across runs: a 100k-run corpus holds a handful of GPUs, protocols and
// digests, and each copy of a protocol's notes alone is ~1 KB.
#include "model/documentparser.h"

#include <QMutex>
#include <QSet>

namespace kix {

namespace {

constexpr int kMaxInternedLength = 2048;
constexpr qsizetype kMaxPoolSize = 1 << 20;

class StringPool
{
public:
    void intern(QString& s)
    {
        if (s.isEmpty() || s.size() > kMaxInternedLength)
            return;
        QMutexLocker lock(&m_mutex);
        const auto it = m_strings.constFind(s);
        if (it != m_strings.cend()) {
            s = *it; // share the pooled copy's memory
            return;
        }
        if (m_strings.size() < kMaxPoolSize)
            m_strings.insert(s);
    }

private:
    QMutex m_mutex;
    QSet<QString> m_strings;
};

StringPool& pool()
{
    static StringPool instance;
    return instance;
}

} // namespace

void internStrings(Run& run)
{
    StringPool& p = pool();
    for (QString* s : { &run.kernel, &run.pass, &run.provider, &run.gpuSlug, &run.status, &run.source, &run.gpuVendor,
             &run.gpuProduct, &run.gpuArchitecture, &run.dtype, &run.apiVersion, &run.protocolFamily,
             &run.protocolNotes, &run.timer, &run.title, &run.unit, &run.protocolDigest, &run.workloadDigest,
             &run.environmentDigest, &run.implementationDigest, &run.workloadSlug })
        p.intern(*s);
    for (KeyValue& kv : run.labels) {
        p.intern(kv.key);
        p.intern(kv.value);
    }
    for (KeyValue& kv : run.software) {
        p.intern(kv.key);
        p.intern(kv.value);
    }
    for (WorkloadParam& w : run.workload) {
        p.intern(w.key);
        p.intern(w.value);
    }
    for (QVector<Measurement>* list : { &run.statistics, &run.measurements }) {
        for (Measurement& m : *list) {
            p.intern(m.metric);
            p.intern(m.statistic);
            p.intern(m.unit);
        }
    }
}

} // namespace kix
