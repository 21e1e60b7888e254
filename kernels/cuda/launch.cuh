// SPDX-License-Identifier: Apache-2.0
#pragma once
// The two places where the kernel sources differ from C++: a kernel launch and dynamic shared memory. Under
// nvcc they are the CUDA syntax; compiled by the host compiler against the CUDA emulator
// (kernels/cuda/emulation/, KIX_CUDA_EMULATION) they run the kernel on CPU fibers.
//
//   KIX_LAUNCH(kernel, grid, block, sharedBytes, stream)(arguments...);
//   KIX_DYNAMIC_SHARED(float2, heads); // extern __shared__ float2 heads[];
//
// `kernel` is one name or variable (a template-id with commas goes into a variable first).

#if defined(KIX_CUDA_EMULATION)
#define KIX_KERNEL_STRINGIZE_(x) #x
#define KIX_KERNEL_STRINGIZE(x) KIX_KERNEL_STRINGIZE_(x)
#define KIX_LAUNCH(kernel, grid, block, sharedBytes, stream)                                                           \
    ::kix::cuda::emu::launcher(                                                                                        \
        kernel, grid, block, sharedBytes, stream, __FILE__ ":" KIX_KERNEL_STRINGIZE(__LINE__) " (" #kernel ")")
#define KIX_DYNAMIC_SHARED(type, name) type* name = static_cast<type*>(::kix::cuda::emu::dynamicShared())
#else
#define KIX_LAUNCH(kernel, grid, block, sharedBytes, stream) kernel<<<grid, block, sharedBytes, stream>>>
#define KIX_DYNAMIC_SHARED(type, name) extern __shared__ type name[]
#endif
