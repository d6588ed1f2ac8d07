// gemv's tuning pieces shared by its files: the timing problem of a bucket, the build options of a configuration
// and the tuning subject of a bucket (bucket names, search space and defaults are declared in ops/gemv.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "build_options.hpp"
#include "dtype.hpp"
#include "ops/gemv.hpp"
#include "tuning/search_space.hpp"
#include "tuning/tuning_subject.hpp"

namespace tilecl::detail {

// A bucket and the problem timed when it is tuned.
struct GemvBucketShape {
  const char* name;
  GemvForm form;
  std::uint64_t rows, cols, vectors;
};
// Throws tilecl::Error for an unknown bucket.
const GemvBucketShape& gemv_bucket_problem(const std::string& bucket);

// DTYPE, STORAGE, NUM_VECTORS, FORM (the program holds only the form's main kernel) and the configuration's
// build parameters.
BuildOptions gemv_build_options(const DTypeInfo& dtype, const Config& config, GemvForm form, std::uint64_t vectors);

// The rules every gemv configuration meets (also those of gemm's "gemv" variant, which runs these kernels).
std::vector<Constraint> gemv_constraints(std::size_t element);

// The subject the tuning service resolves a call of `bucket` with; throws tilecl::Error for an unknown dtype
// or bucket.
std::unique_ptr<TuningSubject> make_gemv_subject(const std::string& dtype, const std::string& bucket);

}  // namespace tilecl::detail
