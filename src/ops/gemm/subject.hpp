// gemm's tuning subject: one shape class, timed at the first call's own shape (scaled down when huge) with the
// class's transposes, verified at a ragged shape with offsets and padded leading dimensions, once with beta = 0
// over NaN.
#pragma once

#include <memory>
#include <string>

#include "ops/gemm/problem.hpp"
#include "tuning/tuning_subject.hpp"

namespace tilecl::detail::gemm {

// `problem` is the row-major problem of the call (its sizes and transposes; buffers are not used).
std::unique_ptr<TuningSubject> make_subject(const DTypeInfo& dtype, const KernelProblem& problem);

}  // namespace tilecl::detail::gemm
