// SPDX-License-Identifier: Apache-2.0
// model/runfields: the one slug of kix (the names importers write, every run's GPU slug), pinned to the name pattern
// of the format's own schema where the shared data is present.
#include "model/runfields.h"

#include "tests/support/testmain.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace kix;

class TestRunFields : public QObject
{
    Q_OBJECT

private slots:
    void slugify_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("slug");
        QTest::newRow("product") << QStringLiteral("NVIDIA B200") << QStringLiteral("nvidia-b200");
        QTest::newRow("long product") << QStringLiteral("NVIDIA H100 80GB HBM3")
                                      << QStringLiteral("nvidia-h100-80gb-hbm3");
        QTest::newRow("runs and ends") << QStringLiteral("  --Group__Norm (fwd)-- ")
                                       << QStringLiteral("group-norm-fwd");
        QTest::newRow("dots are separators") << QStringLiteral("v1.2") << QStringLiteral("v1-2");
        QTest::newRow("not ASCII") << QStringLiteral("Radeon\u2122 Pro \u00c9") << QStringLiteral("radeon-pro");
        QTest::newRow("nothing left") << QStringLiteral(" -_- ") << QString();
    }

    void slugify()
    {
        QFETCH(QString, text);
        QFETCH(QString, slug);
        QCOMPARE(kix::slugify(text), slug);
        const QByteArray utf8 = text.toUtf8();
        QCOMPARE(
            QString::fromStdString(kix::slugify(std::string_view(utf8.constData(), std::size_t(utf8.size())))), slug);
    }

    // Every slug that is not empty is a valid metadata.name by the format's schema.
    void slugsAreNamesOfTheFormat()
    {
        if (qEnvironmentVariableIsEmpty("KIX_SHARED_DIR"))
            QSKIP("KIX_SHARED_DIR is not set: the format's schemas are not here");
        QFile file(qEnvironmentVariable("KIX_SHARED_DIR")
            + QStringLiteral("/data/kernelindex/schemas/execution-environment.v1alpha1.schema.json"));
        if (!file.open(QIODevice::ReadOnly))
            QSKIP("the format's schemas are not under KIX_SHARED_DIR");
        const nlohmann::json schema = nlohmann::json::parse(file.readAll().toStdString());
        const QRegularExpression name(QString::fromStdString(
            schema.at("properties").at("metadata").at("properties").at("name").at("pattern").get<std::string>()));
        QVERIFY(name.isValid());
        for (const char* text : { "NVIDIA B200", "AMD Instinct MI300X", "Tesla V100-SXM2-16GB", "cpu ci-runner-03",
                 "  x  ", "Radeon\xe2\x84\xa2 Pro", "9 lives", "a..b" }) {
            const std::string slug = kix::slugify(std::string_view(text));
            QVERIFY2(!slug.empty(), text);
            QVERIFY2(name.match(QString::fromStdString(slug)).hasMatch(), slug.c_str());
        }
        QVERIFY(!name.match(QStringLiteral("NVIDIA B200")).hasMatch()); // the pattern does refuse what is not a slug
    }
};

KIX_TEST_GUILESS_MAIN(TestRunFields)
#include "tst_runfields.moc"
