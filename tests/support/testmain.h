// SPDX-License-Identifier: Apache-2.0
#pragma once
// One executable per test folder holds many Qt Test classes; ctest still runs each class on its own, by name, in a
// process of its own (`kix_tests_model tst_runloader -silent`). A test file ends with one of these instead of
// QTEST_MAIN and friends: they register the class under the file's name (tst_runloader.cpp → "tst_runloader") and
// set up the application object QTEST_MAIN, QTEST_GUILESS_MAIN or QTEST_APPLESS_MAIN would.

#include <QTest>
// QTest's qCompare() has qfloat16 overloads and declares qfloat16 only: a QCOMPARE of a nlohmann::json value makes
// the compiler try json's conversion to qfloat16, which needs the complete type.
#include <QtCore/qfloat16.h>

namespace kixtest {

using TestEntry = int (*)(int argc, char** argv);

// Registers `entry` under the base name of `sourceFile` without its extension; false when that name is taken (the
// runner then refuses to start, naming both).
bool registerTest(const char* sourceFile, TestEntry entry);

} // namespace kixtest

// The entry and its registration are named after the class, so that test files compiled together (a unity
// build) do not clash.
#define KIX_TEST_ENTRY(TestObject, ...)                                                                                \
    namespace {                                                                                                        \
    int kixTestEntry##TestObject(int argc, char* argv[])                                                               \
    {                                                                                                                  \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                                             \
        __VA_ARGS__                                                                                                    \
        TestObject tc;                                                                                                 \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                     \
        return QTest::qExec(&tc, argc, argv);                                                                          \
    }                                                                                                                  \
    [[maybe_unused]] const bool kixTestRegistered##TestObject                                                          \
        = kixtest::registerTest(__FILE__, &kixTestEntry##TestObject);                                                  \
    }

// QTEST_MAIN: a QApplication where the executable links Qt Widgets, else a QGuiApplication or QCoreApplication.
#define KIX_TEST_MAIN(TestObject) KIX_TEST_ENTRY(TestObject, QTEST_MAIN_SETUP())
// QTEST_GUILESS_MAIN: a QCoreApplication.
#define KIX_TEST_GUILESS_MAIN(TestObject) KIX_TEST_ENTRY(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
// QTEST_APPLESS_MAIN: no application object.
#define KIX_TEST_APPLESS_MAIN(TestObject) KIX_TEST_ENTRY(TestObject, (void)0;)
