// SPDX-License-Identifier: Apache-2.0
// The number and time cells of `kix list`, written without Qt, against Qt's own text for the same values (the text
// the command wrote before): QString::number(v, 'g', 15) and QDateTime::toString(Qt::ISODateWithMs).
#include "model/write/cellformat.h"

#include "tests/support/testmain.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace kix;

class TestCellFormat : public QObject
{
    Q_OBJECT

private:
    static QString viaQt(double v) { return std::isnan(v) ? QString() : QString::number(v, 'g', 15); }
    static QString viaCell(double v)
    {
        CellBuffer buffer;
        const std::string_view text = formatNumberCell(v, buffer);
        return QString::fromUtf8(text.data(), qsizetype(text.size()));
    }
    static QString timeViaCell(const QDateTime& t)
    {
        CellBuffer buffer;
        const std::string_view text = formatTimeCell(t, buffer);
        return QString::fromUtf8(text.data(), qsizetype(text.size()));
    }
    static QString timeViaQt(const QDateTime& t) { return t.isValid() ? t.toString(Qt::ISODateWithMs) : QString(); }

private slots:
    void numbersAsQtWritesThem_data()
    {
        QTest::addColumn<double>("value");
        const double special[] = { 0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 2.5, 1e-5, 1e-4, 1.5e-7, 123456.0, 1234567.0, 1e15,
            1e16, 1e17, 1e21, 1e22, 1e100, 1e-300, 5e-324, 0.30000000000000004, 1.0 / 3.0, 2.0 / 3.0, 42.123456789,
            0.000123456789012345, 999999999999999.0, 9999999999999999.0, 123456789012345678.0,
            std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
            std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), 3.14159, 17.25, 0.0625,
            100.0, 1e6, 1e5, 16711729214975650.0, 1000000000000005.0, 1000000000000015.0, -2000000000000025.0 };
        for (double v : special)
            QTest::addRow("%.17g", v) << v;
    }
    void numbersAsQtWritesThem()
    {
        QFETCH(double, value);
        QCOMPARE(viaCell(value), viaQt(value));
    }

    void randomNumbersAsQtWritesThem()
    {
        std::mt19937_64 random(20261206);
        std::uniform_real_distribution<double> small(0.0, 1000.0);
        int compared = 0;
        for (int i = 0; i < 200000; ++i) {
            double v = 0;
            if (i % 10 == 9) {
                // 16-digit integers, exact in a double: one in ten ends in 5, a tie at 15 digits
                v = double(std::uniform_int_distribution<std::int64_t>(1000000000000000, 9007199254740991)(random));
            } else if (i % 2 == 0) {
                const std::uint64_t bits = random();
                std::memcpy(&v, &bits, sizeof v); // any double, every exponent
            } else {
                v = small(random); // values as timings are: a few significant digits above and below 1
                if (i % 4 == 1)
                    v = std::round(v * 1000.0) / 1000.0;
            }
            if (std::isnan(v))
                continue;
            const QString cell = viaCell(v);
            if (cell != viaQt(v))
                QFAIL(qPrintable(QStringLiteral("%1: %2 != %3").arg(i).arg(cell, viaQt(v))));
            ++compared;
        }
        QVERIFY(compared > 190000);
    }

    void nanIsEmpty() { QCOMPARE(viaCell(std::nan("")), QString()); }

    void timesAsQtWritesThem()
    {
        std::mt19937_64 random(7);
        // years 1 to 9999 and outside, before and after 1970, leap days, the last millisecond of a day
        const qint64 first = QDateTime(QDate(1, 1, 1), QTime(0, 0), Qt::UTC).toMSecsSinceEpoch();
        const qint64 last = QDateTime(QDate(9999, 12, 31), QTime(23, 59, 59, 999), Qt::UTC).toMSecsSinceEpoch();
        std::uniform_int_distribution<qint64> anywhere(first, last);
        std::uniform_int_distribution<qint64> recent(0, qint64(4102444800000)); // 1970 to 2100
        for (int i = 0; i < 20000; ++i) {
            const qint64 ms = i % 2 ? anywhere(random) : recent(random);
            const QDateTime t = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
            QCOMPARE(timeViaCell(t), timeViaQt(t));
        }
        const QDateTime fixed[] = {
            QDateTime(QDate(2024, 2, 29), QTime(23, 59, 59, 999), Qt::UTC),
            QDateTime(QDate(1969, 12, 31), QTime(23, 59, 59, 1), Qt::UTC),
            QDateTime(QDate(1970, 1, 1), QTime(0, 0), Qt::UTC),
            QDateTime(QDate(2000, 3, 1), QTime(12, 0), Qt::UTC),
            QDateTime(QDate(1, 1, 1), QTime(0, 0), Qt::UTC),
            QDateTime(QDate(9999, 12, 31), QTime(23, 59, 59, 999), Qt::UTC),
            QDateTime(QDate(10000, 1, 1), QTime(0, 0), Qt::UTC), // through Qt
            QDateTime(QDate(-44, 3, 15), QTime(0, 0), Qt::UTC), // through Qt
            QDateTime(QDate(2026, 12, 6), QTime(8, 30), Qt::OffsetFromUTC, 3600), // through Qt
            QDateTime(),
        };
        for (const QDateTime& t : fixed)
            QCOMPARE(timeViaCell(t), timeViaQt(t));
        QCOMPARE(timeViaCell(fixed[0]), QStringLiteral("2024-02-29T23:59:59.999Z"));
        QCOMPARE(timeViaCell(fixed[9]), QString());
    }
};

KIX_TEST_GUILESS_MAIN(TestCellFormat)
#include "tst_cellformat.moc"
