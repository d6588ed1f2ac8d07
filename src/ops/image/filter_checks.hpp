// Argument checks of the filter ops (each failure a tilecl::Error naming the op and the argument).
#pragma once

#include <cstdint>
#include <string>

#include "checks.hpp"
#include "dtype.hpp"
#include "ops/image/filter_types.hpp"

namespace tilecl::detail {

// 1, 3 or 4 interleaved channels.
void check_channels(const std::string& op, std::uint64_t channels);

// An odd filter length of at most 2 * kMaxRadius + 1 taps; returns its radius.
int radius_of_length(const std::string& op, const std::string& argument, std::uint64_t length);

// A radius of at most kMaxRadius.
int checked_radius(const std::string& op, const std::string& argument, std::uint64_t radius);

// Both images: sizes within the kernels' 32-bit indexing, pitches, buffers large enough and of the queue's
// context, src and dst apart.
void validate_images(const std::string& op, const QueueTarget& target, const DTypeInfo& dtype,
                     const FilterProblem& problem, const ImageOperands& image);

}  // namespace tilecl::detail
