// rgb_to_gray's tuning subject: one (dtype, source channels, arithmetic, area class) problem the tuner can run,
// time and verify with any configuration of the search space.
#pragma once

#include <memory>

#include "ops/image/gray_space.hpp"
#include "tuning/tuning_subject.hpp"

namespace tilecl::detail {

// The bucket is the area class, with " c4" for four-channel sources and " opencv" for OpenCV's arithmetic.
template <typename T>
std::unique_ptr<TuningSubject> make_gray_subject(std::uint64_t width, std::uint64_t height, const GrayShape& shape);

}  // namespace tilecl::detail
