// The tuning subject of the filter ops: one (op, dtype, channels, filter size, arithmetic, area class) problem
// the tuner can run, time and verify with any configuration of the search space, and the `tilecl tune --shape`
// syntax that names one.
#pragma once

#include <memory>
#include <string>

#include "ops/image/filter_types.hpp"
#include "tuning/tuning_subject.hpp"

namespace tilecl::detail {

enum class FilterOp { Convolve2d, Separable, Box, Gaussian };

// "convolve2d", "separable_filter", "box_blur", "gaussian_blur".
const char* filter_op_name(FilterOp op);
FilterForm form_of(FilterOp op);

// The fixed-point finish of an op under the OpenCV arithmetic for images of `width` pixels (box_blur's depends
// on the row length: OpenCV's scalar tail).
FixedFinish finish_of(FilterOp op, const FilterShape& shape, std::uint64_t width);

// The integer taps the words kernel can sum for an op on bytes (or not): box_blur's ones unless OpenCV's dividing
// finish applies, OpenCV's fixed-point GaussianBlur taps.
IntegerTaps integer_taps_of(FilterOp op, const FilterShape& shape, bool bytes);

// The subject of a call: the tuning key's bucket is "c<channels> <FW>x<FH> <area class>" (+ " tall" or " wide",
// + " opencv"; filter_image_class).
template <typename T>
std::unique_ptr<TuningSubject> make_filter_subject(FilterOp op, std::uint64_t width, std::uint64_t height,
                                                   const FilterShape& shape, Border border);

// From `tilecl tune --shape` text: WIDTHxHEIGHT[xCHANNELS],FWxFH[,border][,opencv], e.g. 7680x4320x3,9x9,mirror.
std::unique_ptr<TuningSubject> parse_filter_subject(FilterOp op, const std::string& dtype, const std::string& shape);

}  // namespace tilecl::detail
