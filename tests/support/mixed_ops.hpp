// One round of mixed calls on a queue -- axpy, transpose, reduce, gemm and rgb_to_gray -- every result checked
// against a host reference: what the concurrency tests and the soak program (tests/soak) run. No doctest here,
// so programs outside the test runner can use it.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <random>
#include <string>
#include <vector>

namespace tilecl::test {

struct MixedSizes {
  std::size_t length;         // axpy and reduce
  std::size_t rows, cols;     // transpose
  std::size_t m, n, k;        // gemm
  std::size_t width, height;  // rgb_to_gray
};

// Small fixed sizes, none a multiple of a tile.
MixedSizes small_mixed_sizes();

// Random sizes, many of them awkward (1, primes, one off a power of two), up to about `max_length` elements for
// the vector ops and sqrt(max_length) per side for the matrix and image ops.
MixedSizes random_mixed_sizes(std::mt19937_64& random, std::size_t max_length);

// The ops called per round.
constexpr std::size_t kMixedOpsPerRound = 5;

// Runs one round on `queue` (an in-order queue) and returns a description of each wrong result; empty when
// all are right. OpenCL and tilecl errors propagate.
std::vector<std::string> run_mixed_ops(cl::CommandQueue& queue, const MixedSizes& sizes, std::mt19937_64& random);

}  // namespace tilecl::test
