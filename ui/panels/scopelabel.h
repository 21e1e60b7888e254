// SPDX-License-Identifier: Apache-2.0
#pragma once
// The chart panel's scope beside its tabs ("all 168 shown runs"), shortened where the row has no room for it.

#include <QLabel>

namespace kix {

// The scope beside the tabs ("all 168 shown runs"): where the row has no room for it, a shorter form ("168 runs",
// then "168") rather than a clipped one; the tooltip keeps the whole text.
class ScopeLabel : public QLabel
{
public:
    using QLabel::QLabel;
    void setScope(const QString& scope);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fit();
    QString m_scope;
};

} // namespace kix
