#include "multi_device/image_bands.hpp"

#include <algorithm>
#include <utility>

#include "checks.hpp"
#include "multi_device/halo_rows.hpp"
#include "multi_device/matrix_blocks.hpp"
#include "multi_device/shares.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail {

namespace {

// One device's pieces: each a range of rows within one frame; two slots of extended-band buffers.
class FilterPieces final : public PieceWork {
 public:
  FilterPieces(const HostImages& images, const FilterOp& op, BandFilter filter, IndexRange rows,
               DeviceSet::Entry& entry, std::size_t pieces)
      : images_(images), halo_(op.halo), border_(op.border), filter_(std::move(filter)) {
    const std::size_t cap = (rows.size() + pieces - 1) / pieces;
    bands_ = cut_at_periods(rows, images.height, cap);
    std::size_t longest = 0;
    for (const auto& band : bands_) longest = std::max(longest, band.size());
    // Rows start on 64-byte boundaries: the kernels' aligned paths, whatever the caller's pitch.
    const std::size_t row_elements = images.width * images.channels;
    const std::size_t align = std::max<std::size_t>(1, 64 / images.element_size);
    pitch_ = (row_elements + align - 1) / align * align;
    storage_ = {pitch_, false, 0};
    const std::size_t elements = (longest + 2 * halo_) * pitch_;
    for (std::size_t slot = 0; slot < slots(); ++slot) {
      src_.push_back(device_buffer(entry.context, elements, images.element_size));
      dst_.push_back(device_buffer(entry.context, elements, images.element_size));
    }
  }

  std::size_t pieces() const override { return bands_.size(); }
  std::size_t slots() const override { return std::min<std::size_t>(2, bands_.size()); }

  Events upload(std::size_t piece, cl::CommandQueue& queue, const Events& wait) override {
    const std::size_t frame = bands_[piece].begin / images_.height;
    const auto* src =
        static_cast<const unsigned char*>(images_.src) + frame * images_.frames.src_stride * images_.element_size;
    const MatrixStorage host{images_.src_pitch, false, 0};
    const std::size_t row_elements = images_.width * images_.channels, size = images_.element_size;
    Events done;
    for (const RowRun& run : extended_band_rows(images_.height, local(piece), halo_, border_)) {
      if (run.zeros)
        fill_zeros(queue, src_[piece % slots()], run.to * pitch_ * size, run.count * pitch_ * size, wait, done);
      else
        write_block(queue, src_[piece % slots()], storage_, run.to, 0, src, host,
                    {run.from, 0, run.count, row_elements}, size, wait, done);
    }
    return done;
  }

  Events compute(std::size_t piece, cl::CommandQueue& queue, const Events& wait) override {
    const std::size_t slot = piece % slots();
    return {filter_(queue, bands_[piece].size() + 2 * halo_, src_[slot], dst_[slot], pitch_, wait)};
  }

  Events download(std::size_t piece, cl::CommandQueue& queue, const Events& computed) override {
    const IndexRange band = local(piece);
    const std::size_t frame = bands_[piece].begin / images_.height;
    auto* dst = static_cast<unsigned char*>(images_.dst) + frame * images_.frames.dst_stride * images_.element_size;
    Events done;
    read_block(queue, dst_[piece % slots()], storage_, halo_, 0, dst, {images_.dst_pitch, false, 0},
               {band.begin, 0, band.size(), images_.width * images_.channels}, images_.element_size, computed, done);
    return done;
  }

 private:
  // The piece's rows within its frame.
  IndexRange local(std::size_t piece) const {
    const std::size_t first = bands_[piece].begin / images_.height * images_.height;
    return {bands_[piece].begin - first, bands_[piece].end - first};
  }

  HostImages images_;
  std::size_t halo_;
  Border border_;
  BandFilter filter_;
  std::vector<IndexRange> bands_;  // rows of all frames (frame f's row r is f * height + r)
  std::size_t pitch_ = 0;
  MatrixStorage storage_;
  std::vector<cl::Buffer> src_, dst_;  // extended bands, per slot
};

void check_host_image(const char* op, const char* name, const char* pitch_name, const void* pointer, std::size_t pitch,
                      std::size_t row_elements) {
  if (pointer == nullptr) throw Error(op, name, CL_INVALID_VALUE, "the host pointer is null");
  if (pitch < row_elements)
    throw Error(op, pitch_name, CL_INVALID_VALUE,
                std::to_string(pitch) + " is below a row's " + std::to_string(row_elements) + " elements");
}

// Frame strides resolved (0: packed), dst frames apart, and src and dst apart.
void check_frames(const char* op, HostImages& images) {
  const std::size_t row_elements = checked_multiply(op, "width", images.width, images.channels);
  const std::size_t src_frame = storage_span({images.src_pitch, false, 0}, images.height, row_elements);
  const std::size_t dst_frame = storage_span({images.dst_pitch, false, 0}, images.height, row_elements);
  FrameBatch& frames = images.frames;
  if (frames.src_stride == 0) frames.src_stride = checked_multiply(op, "frames", images.height, images.src_pitch);
  if (frames.dst_stride == 0) frames.dst_stride = checked_multiply(op, "frames", images.height, images.dst_pitch);
  if (frames.count > 1 && frames.dst_stride < dst_frame)
    throw Error(op, "frames", CL_MEM_COPY_OVERLAP,
                "dst frames overlap: stride " + std::to_string(frames.dst_stride) + " is below a frame's span of " +
                    std::to_string(dst_frame) + " elements");
  const auto span = [&](std::size_t stride, std::size_t frame) {
    return checked_add(op, "frames", checked_multiply(op, "frames", frames.count - 1, stride), frame);
  };
  const auto* src = static_cast<const unsigned char*>(images.src);
  const auto* dst = static_cast<const unsigned char*>(images.dst);
  if (host_ranges_overlap(src, span(frames.src_stride, src_frame) * images.element_size, dst,
                          span(frames.dst_stride, dst_frame) * images.element_size))
    throw Error(op, "dst", CL_MEM_COPY_OVERLAP, "dst overlaps src");
}

}  // namespace

void filter_in_bands(DeviceSet& devices, HostImages images, const FilterOp& op) {
  for (std::size_t i = 0; i < devices.size(); ++i) op.check(devices.entry(i).compute);
  if (images.width == 0 || images.height == 0 || images.frames.count == 0) return;
  const std::size_t row_elements = checked_multiply(op.name, "width", images.width, images.channels);
  check_host_image(op.name, "src", "src_pitch", images.src, images.src_pitch, row_elements);
  check_host_image(op.name, "dst", "dst_pitch", images.dst, images.dst_pitch, row_elements);
  check_frames(op.name, images);
  const std::size_t rows = checked_multiply(op.name, "frames", images.frames.count, images.height);
  run_on_devices(op.name, devices, split_by_weights(rows, devices.weights()),
                 [&](DeviceSet::Entry& entry, IndexRange share) {
                   FilterPieces work(images, op, op.bind(entry), share, entry, devices.pieces_per_device());
                   run_pieces(entry, work);
                 });
}

}  // namespace tilecl::detail
