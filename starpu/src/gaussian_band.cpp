// The Gaussian band codelet: the band's extended rows (multi_device/halo_rows.hpp) gathered on the worker's
// device from the band and its neighbours, filtered by tilecl::gaussian_blur, the band's own rows written out.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "multi_device/halo_rows.hpp"
#include "multi_device/shares.hpp"
#include "tilecl/convolve.hpp"
#include "tilecl/error.hpp"
#include "tilecl/starpu.hpp"
#include "worker_data.hpp"

namespace tilecl::starpu {

namespace {

using tilecl::detail::IndexRange;

// The rows an image's band and its two neighbours hold.
struct Neighbourhood {
  std::array<IndexRange, 3> rows;  // above, band, below

  // The neighbour holding `row` and how many rows from `row` on it holds (0: none).
  std::pair<std::size_t, std::size_t> find(std::size_t row) const {
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (row >= rows[i].begin && row < rows[i].end) return {i, rows[i].end - row};
    return {0, 0};
  }
};

// Copies the band's extended rows into `extended` (pitch: one row of the band), zeros where the rule reads them.
std::vector<cl::Event> gather_extended_band(cl::CommandQueue& queue, const BandArguments& args,
                                            const std::array<detail::DeviceMatrix, 3>& sources,
                                            const Neighbourhood& around, const cl::Buffer& extended) {
  const detail::DeviceMatrix& band = sources[1];
  const std::size_t row_bytes = band.nx * band.element_size;
  std::vector<cl::Event> done;
  for (const auto& run :
       tilecl::detail::extended_band_rows(args.image_height, around.rows[1], args.radius, args.border)) {
    if (run.zeros) {
      done.emplace_back();
      queue.enqueueFillBuffer(extended, std::uint8_t{0}, run.to * row_bytes, run.count * row_bytes, nullptr,
                              &done.back());
      continue;
    }
    for (std::size_t copied = 0; copied < run.count;) {
      const auto [which, held] = around.find(run.from + copied);
      if (held == 0)
        throw Error("starpu gaussian_band", "band", CL_INVALID_VALUE,
                    "halo row " + std::to_string(run.from + copied) + " lies outside the band's neighbours");
      const std::size_t rows = std::min(held, run.count - copied);
      const detail::DeviceMatrix& source = sources[which];
      const std::size_t first = run.from + copied - around.rows[which].begin;
      done.push_back(detail::copy_rows(queue, source.buffer, source.offset_bytes + first * source.pitch_bytes(),
                                       source.pitch_bytes(), extended, (run.to + copied) * row_bytes, row_bytes, rows,
                                       row_bytes, {}));
      copied += rows;
    }
  }
  return done;
}

template <typename T>
void gaussian_band_opencl(void* buffers[], void* cl_arg) {
  detail::guarded("starpu gaussian_band", [&] {
    BandArguments args;
    starpu_codelet_unpack_args(cl_arg, &args);
    const std::array<detail::DeviceMatrix, 3> sources{
        detail::device_matrix(buffers[0]), detail::device_matrix(buffers[1]), detail::device_matrix(buffers[2])};
    auto out = detail::device_matrix(buffers[3]);
    const Neighbourhood around{{IndexRange{args.above_start, args.above_start + sources[0].ny},
                                IndexRange{args.band_start, args.band_start + sources[1].ny},
                                IndexRange{args.below_start, args.below_start + sources[2].ny}}};
    cl::CommandQueue queue = detail::worker_queue();
    const auto context = queue.getInfo<CL_QUEUE_CONTEXT>();
    const std::size_t rows = sources[1].ny, extended_rows = rows + 2 * args.radius;
    const std::size_t pitch = sources[1].nx, row_bytes = pitch * sizeof(T);
    cl::Buffer extended(context, CL_MEM_READ_WRITE, extended_rows * row_bytes);
    cl::Buffer filtered(context, CL_MEM_READ_WRITE, extended_rows * row_bytes);
    const auto gathered = gather_extended_band(queue, args, sources, around, extended);
    const cl::Event blurred =
        gaussian_blur<T>(queue, pitch / args.channels, extended_rows, args.channels, extended, 0, pitch, filtered, 0,
                         pitch, args.sigma, args.border, args.radius, &gathered);
    detail::copy_rows(queue, filtered, args.radius * row_bytes, row_bytes, out.buffer, out.offset_bytes,
                      out.pitch_bytes(), rows, row_bytes, {blurred})
        .wait();
  });
}

}  // namespace

bool band_rows_reachable(std::size_t height, std::size_t bands, std::size_t radius, Border border) {
  const auto cut = tilecl::detail::cut_evenly({0, height}, bands);
  for (std::size_t b = 0; b < cut.size(); ++b) {
    const bool wrap = border == Border::Wrap;
    const IndexRange above = b > 0 ? cut[b - 1] : (wrap ? cut.back() : cut[b]);
    const IndexRange below = b + 1 < cut.size() ? cut[b + 1] : (wrap ? cut.front() : cut[b]);
    const Neighbourhood around{{above, cut[b], below}};
    for (const auto& run : tilecl::detail::extended_band_rows(height, cut[b], radius, border))
      for (std::size_t i = 0; i < run.count && !run.zeros; ++i)
        if (around.find(run.from + i).second == 0) return false;
  }
  return true;
}

template <typename T>
starpu_codelet& gaussian_band_codelet() {
  static starpu_codelet codelet =
      detail::make_codelet(sizeof(T) == 1 ? "tilecl_gaussian_band_u8" : "tilecl_gaussian_band_f32",
                           gaussian_band_opencl<T>, {STARPU_R, STARPU_R, STARPU_R, STARPU_W});
  return codelet;
}

template starpu_codelet& gaussian_band_codelet<std::uint8_t>();
template starpu_codelet& gaussian_band_codelet<float>();

}  // namespace tilecl::starpu
