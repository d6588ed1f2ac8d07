// Enqueues a half / bfloat16 / TF32 gemm plan (ops/gemm/mma_plan.hpp) on the caller's queue: packing, then the main
// kernel, each launch waiting for the one before.
#pragma once

#include <CL/opencl.hpp>
#include <vector>

#include "ops/gemm/mma_variants.hpp"
#include "ops/gemm/problem.hpp"
#include "ops/op_frame.hpp"

namespace tilecl::detail::gemm::mma {

// C = alpha op(A) op(B) + beta C with the resolved configuration; `events` (optional) receives every launch's event.
// A build failure of the PTX kernel is recorded (record_ptx_failure) before it is rethrown for the frame to handle.
cl::Event enqueue_mma(const QueueTarget& target, cl::CommandQueue& queue, Resolved& resolved, const FormatInfo& format,
                      const Call& call, float alpha, float beta, const std::vector<cl::Event>* wait,
                      std::vector<cl::Event>* events);

}  // namespace tilecl::detail::gemm::mma
