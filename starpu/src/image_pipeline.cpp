// The image pipeline task graph: per frame, RGB bands to gray bands, then a Gaussian blur per band reading the
// gray bands around it.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "partitioned_matrix.hpp"
#include "tilecl/error.hpp"
#include "tilecl/starpu.hpp"

namespace tilecl::starpu {

namespace {

constexpr const char* kOp = "starpu gray_gaussian_pipeline";

void insert(starpu_codelet& codelet, std::vector<starpu_data_handle_t> read, starpu_data_handle_t written,
            const BandArguments* args) {
  int status = 0;
  if (args == nullptr)
    status = starpu_task_insert(&codelet, STARPU_R, read[0], STARPU_W, written, 0);
  else
    status = starpu_task_insert(&codelet, STARPU_R, read[0], STARPU_R, read[1], STARPU_R, read[2], STARPU_W, written,
                                STARPU_VALUE, args, sizeof(*args), 0);
  if (status != 0)
    throw Error(kOp, "task", CL_INVALID_OPERATION, "starpu_task_insert failed (" + std::to_string(status) + ")");
}

// The blur tasks of one frame: band b reads bands b - 1, b and b + 1 (folded at the edges: around itself, or
// around the image under Wrap).
void insert_blurs(const detail::PartitionedMatrix& gray, const detail::PartitionedMatrix& out, std::size_t bands,
                  std::size_t height, const BandArguments& common) {
  std::vector<std::size_t> starts{0};
  for (std::size_t b = 0; b < bands; ++b) starts.push_back(starts.back() + gray.tile_rows(b));
  const bool wrap = common.border == Border::Wrap;
  for (std::size_t b = 0; b < bands; ++b) {
    const std::size_t above = b > 0 ? b - 1 : (wrap ? bands - 1 : b);
    const std::size_t below = b + 1 < bands ? b + 1 : (wrap ? 0 : b);
    BandArguments args = common;
    args.image_height = height;
    args.band_start = starts[b];
    args.above_start = starts[above];
    args.below_start = starts[below];
    insert(gaussian_band_codelet<std::uint8_t>(), {gray.tile(above), gray.tile(b), gray.tile(below)}, out.tile(b),
           &args);
  }
}

}  // namespace

void gray_gaussian_pipeline(std::size_t width, std::size_t height, std::size_t frames, const std::uint8_t* rgb,
                            std::uint8_t* out, double sigma, std::size_t radius, Border border, std::size_t bands) {
  if (bands == 0) throw Error(kOp, "bands", CL_INVALID_VALUE, "0 bands");
  if (width == 0 || height == 0 || frames == 0) return;
  if (rgb == nullptr || out == nullptr) throw Error(kOp, rgb ? "out" : "rgb", CL_INVALID_VALUE, "null host pointer");
  bands = std::min(bands, height);
  while (bands > 1 && !band_rows_reachable(height, bands, radius, border)) --bands;
  std::vector<std::uint8_t> gray(width * height * frames);
  {
    std::vector<std::unique_ptr<detail::PartitionedMatrix>> images;
    const BandArguments common{0, 0, 0, 0, 1, sigma, radius, border};
    for (std::size_t f = 0; f < frames; ++f) {
      const auto image = [&](const std::uint8_t* data, std::size_t row, bool keep) -> detail::PartitionedMatrix& {
        images.push_back(std::make_unique<detail::PartitionedMatrix>(data, height, row, row, 1, bands, 1, keep));
        return *images.back();
      };
      const auto& colour = image(rgb + f * 3 * width * height, 3 * width, true);
      const auto& grey = image(gray.data() + f * width * height, width, false);  // need not come back
      const auto& blurred = image(out + f * width * height, width, true);
      for (std::size_t b = 0; b < bands; ++b) insert(rgb_to_gray_codelet(), {colour.tile(b)}, grey.tile(b), nullptr);
      insert_blurs(grey, blurred, bands, height, common);
    }
    starpu_task_wait_for_all();
  }
  rethrow_failure();
}

}  // namespace tilecl::starpu
