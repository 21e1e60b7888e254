// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CUDA emulator stands in for the toolkit header of this name (kernels/cuda/emulation/cuda_emu.h).
#include "kernels/cuda/emulation/cuda_emu.h"
