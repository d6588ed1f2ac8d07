// Each op module's tuning entries (see tuning/op_registry.hpp).
#pragma once

#include <vector>

#include "tuning/op_registry.hpp"

namespace tilecl::detail {

std::vector<TunableOp> elementwise_tunable_ops();
std::vector<TunableOp> transpose_tunable_ops();
std::vector<TunableOp> reduce_tunable_ops();
std::vector<TunableOp> gemm_tunable_ops();
std::vector<TunableOp> color_tunable_ops();
std::vector<TunableOp> convolve_tunable_ops();
std::vector<TunableOp> gemv_tunable_ops();
std::vector<TunableOp> gemm_batched_tunable_ops();

}  // namespace tilecl::detail
