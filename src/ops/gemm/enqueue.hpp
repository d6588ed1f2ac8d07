// Enqueues a gemm plan (ops/gemm/plan.hpp) on the caller's queue: packing, the main kernel, the split-K reduction,
// each launch waiting for the one before (so out-of-order queues keep the order too).
#pragma once

#include <CL/opencl.hpp>
#include <vector>

#include "ops/gemm/plan.hpp"
#include "ops/op_frame.hpp"

namespace tilecl::detail::gemm {

// C = alpha op(A) op(B) + beta C with the resolved configuration; `events` (optional) receives every launch's event.
template <typename T>
cl::Event enqueue_gemm(const QueueTarget& target, cl::CommandQueue& queue, Resolved& resolved, const Call& call,
                       T alpha, T beta, const std::vector<cl::Event>* wait, std::vector<cl::Event>* events);

// The gemm a caller of tilecl::gemm<T> gets (its tuned choice, through the op frame), for an op that runs gemm as one
// of its steps and is timed by its events: `events` (optional) receives every launch's event.
template <typename T>
cl::Event enqueue_tuned_gemm(cl::CommandQueue& queue, const Call& call, T alpha, T beta,
                             const std::vector<cl::Event>* wait, std::vector<cl::Event>* events);

}  // namespace tilecl::detail::gemm
