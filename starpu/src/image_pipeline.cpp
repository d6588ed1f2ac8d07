// The image pipeline task graph: per frame, RGB bands to gray bands, then a Gaussian blur per band reading the
// gray bands around it.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tilecl/error.hpp"
#include "tilecl/starpu.hpp"

namespace tilecl::starpu {

namespace {

constexpr const char* kOp = "starpu gray_gaussian_pipeline";

// A packed host image of `rows` rows of `row_elements` elements, registered and cut into bands of rows.
class BandedImage {
 public:
  BandedImage(const void* data, std::size_t rows, std::size_t row_elements, std::size_t element_size,
              std::size_t bands, bool keep)
      : keep_(keep) {
    starpu_matrix_data_register(&handle_, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(data),
                                static_cast<uint32_t>(row_elements), static_cast<uint32_t>(row_elements),
                                static_cast<uint32_t>(rows), element_size);
    starpu_data_filter by_rows{};
    by_rows.filter_func = starpu_matrix_filter_vertical_block;
    by_rows.nchildren = static_cast<unsigned>(bands);
    starpu_data_partition(handle_, &by_rows);
  }
  ~BandedImage() {
    starpu_data_unpartition(handle_, STARPU_MAIN_RAM);
    // An intermediate image need not come back to host memory.
    if (keep_)
      starpu_data_unregister(handle_);
    else
      starpu_data_unregister_no_coherency(handle_);
  }
  BandedImage(const BandedImage&) = delete;
  BandedImage& operator=(const BandedImage&) = delete;

  starpu_data_handle_t band(std::size_t index) const {
    return starpu_data_get_sub_data(handle_, 1, static_cast<unsigned>(index));
  }
  std::size_t rows(std::size_t index) const { return starpu_matrix_get_ny(band(index)); }

 private:
  starpu_data_handle_t handle_ = nullptr;
  bool keep_;
};

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
void insert_blurs(const BandedImage& gray, const BandedImage& out, std::size_t bands, std::size_t height,
                  const BandArguments& common) {
  std::vector<std::size_t> starts{0};
  for (std::size_t b = 0; b < bands; ++b) starts.push_back(starts.back() + gray.rows(b));
  const bool wrap = common.border == Border::Wrap;
  for (std::size_t b = 0; b < bands; ++b) {
    const std::size_t above = b > 0 ? b - 1 : (wrap ? bands - 1 : b);
    const std::size_t below = b + 1 < bands ? b + 1 : (wrap ? 0 : b);
    BandArguments args = common;
    args.image_height = height;
    args.band_start = starts[b];
    args.above_start = starts[above];
    args.below_start = starts[below];
    insert(gaussian_band_codelet<std::uint8_t>(), {gray.band(above), gray.band(b), gray.band(below)}, out.band(b),
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
    std::vector<std::unique_ptr<BandedImage>> images;
    const BandArguments common{0, 0, 0, 0, 1, sigma, radius, border};
    for (std::size_t f = 0; f < frames; ++f) {
      images.push_back(std::make_unique<BandedImage>(rgb + f * 3 * width * height, height, 3 * width, 1, bands, true));
      const BandedImage& colour = *images.back();
      images.push_back(std::make_unique<BandedImage>(gray.data() + f * width * height, height, width, 1, bands, false));
      const BandedImage& grey = *images.back();
      images.push_back(std::make_unique<BandedImage>(out + f * width * height, height, width, 1, bands, true));
      for (std::size_t b = 0; b < bands; ++b) insert(rgb_to_gray_codelet(), {colour.band(b)}, grey.band(b), nullptr);
      insert_blurs(grey, *images.back(), bands, height, common);
    }
    starpu_task_wait_for_all();
  }
  rethrow_failure();
}

}  // namespace tilecl::starpu
