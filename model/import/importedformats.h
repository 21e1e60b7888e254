// SPDX-License-Identifier: Apache-2.0
#pragma once
// model/import/'s definition of the reader's hook (model/read/inputformats.h): Liger-Kernel CSV, then the other
// tools' JSON results.

#include "model/read/inputformats.h"
