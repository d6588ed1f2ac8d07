// tilecl: OpenCL kernels compiled at run time, tuned per device, cached in memory and on disk.
#pragma once

#include "tilecl/color.hpp"
#include "tilecl/convolve.hpp"
#include "tilecl/device.hpp"
#include "tilecl/elementwise.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/reduce.hpp"
#include "tilecl/runtime.hpp"
#include "tilecl/transpose.hpp"
#include "tilecl/tuning.hpp"
#include "tilecl/types.hpp"
