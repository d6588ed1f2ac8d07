#include "ops/image/image_common.hpp"

#include <algorithm>
#include <cmath>

#include "checks.hpp"
#include "tilecl/error.hpp"
#include "tuning/op_registry.hpp"

namespace tilecl::detail {

std::int64_t config_value(const Config& config, const char* name, std::int64_t fallback) {
  auto found = config.values.find(name);
  return found == config.values.end() ? fallback : found->second;
}

std::uint64_t image_extent(std::uint64_t pitch, std::uint64_t row_elements, std::uint64_t height) {
  return height == 0 ? 0 : pitch * (height - 1) + row_elements;
}

void check_image(const std::string& op, const std::string& name, const cl::Buffer& buffer, const cl::Context& context,
                 std::uint64_t offset, std::uint64_t pitch, std::uint64_t row_elements, std::uint64_t height,
                 std::size_t element_size) {
  const std::string pitch_name = name + "_pitch";
  if (pitch < row_elements)
    throw Error(
        op, pitch_name, CL_INVALID_VALUE,
        "pitch " + std::to_string(pitch) + " is less than a row (" + std::to_string(row_elements) + " elements)");
  check_kernel_extent(op, pitch_name, pitch);
  const std::uint64_t extent =
      checked_add(op, name, checked_multiply(op, name, pitch, height - 1), row_elements);  // height >= 1 here
  check_buffer(op, name, buffer, context, offset, extent, element_size);
}

std::vector<Parameter> work_group_parameters() {
  return {{"WG_X", {64, 32, 128, 256, 16, 8, 0}, ParameterKind::Launch}, {"WG_Y", {4, 1, 2, 8}, ParameterKind::Launch}};
}

Constraint work_group_fits() {
  return {"WG_X * WG_Y <= the device's max work-group size, WG_Y = 1 when WG_X = 0",
          [](const Values& v, const DeviceInfo& d) {
            const std::int64_t x = at(v, "WG_X"), y = at(v, "WG_Y");
            if (y < 1) return false;
            if (x == 0) return y == 1;
            return static_cast<std::uint64_t>(x * y) <= d.max_work_group_size &&
                   static_cast<std::uint64_t>(x) <= d.max_work_item_sizes[0] &&
                   static_cast<std::uint64_t>(y) <= d.max_work_item_sizes[1];
          }};
}

namespace {
constexpr std::uint64_t kMaxFittedRows = 64;       // rows a fitted group may grow to
constexpr std::uint64_t kMinFittedGroupRows = 64;  // groups along y a fitted group leaves the call
}  // namespace

LaunchGeometry fitted_flat_launch(std::int64_t wg_x, std::int64_t wg_y, std::uint64_t items_x, std::uint64_t items_y) {
  if (wg_x <= 0) return {cl::NDRange(items_x, items_y), cl::NullRange, 0};
  auto x = static_cast<std::uint64_t>(wg_x), y = static_cast<std::uint64_t>(std::max<std::int64_t>(wg_y, 1));
  const std::uint64_t rows_cap = std::max(y, kMaxFittedRows);
  while (x % 2 == 0 && x / 2 >= std::max<std::uint64_t>(items_x, 1)) {
    x /= 2;
    if (y * 2 <= rows_cap && items_y / (y * 2) >= kMinFittedGroupRows) y *= 2;
  }
  return {cl::NDRange(round_up(items_x, x), round_up(items_y, y)), cl::NDRange(x, y), static_cast<std::size_t>(x * y)};
}

Values work_group_default(std::int64_t preferred_x, std::int64_t items, std::size_t device_limit) {
  const std::int64_t limit =
      std::max<std::int64_t>(1, std::min<std::int64_t>(items, static_cast<std::int64_t>(device_limit)));
  const std::int64_t x = std::min(preferred_x, limit);
  return {{"WG_X", x}, {"WG_Y", std::max<std::int64_t>(1, limit / x)}};
}

AreaClass area_class(std::uint64_t pixels) {
  if (pixels <= (std::uint64_t{1} << 16)) return {"px<=2^16", 256, 192};
  if (pixels <= (std::uint64_t{1} << 20)) return {"px<=2^20", 1024, 768};
  if (pixels <= (std::uint64_t{1} << 23)) return {"px<=2^23", 2560, 1440};
  return {"px>2^23", 7680, 4320};
}

ImageSize parse_image_size(const std::string& op, const std::string& text, bool allow_channels) {
  const std::vector<std::uint64_t> sizes = parse_sizes(op, text);
  if (sizes.size() == 2 || (allow_channels && sizes.size() == 3)) {
    ImageSize size{sizes[0], sizes[1], sizes.size() == 3 ? sizes[2] : 1};
    if (size.width > 0 && size.height > 0 && size.channels > 0) return size;
  }
  throw Error(op, "shape", CL_INVALID_VALUE,
              "'" + text + "' is not an image size: WIDTHxHEIGHT" + (allow_channels ? "[xCHANNELS]" : "") +
                  " with positive sizes, e.g. 1920x1080" + (allow_channels ? " or 1920x1080x3" : ""));
}

template <typename T>
std::string compare_image(const std::vector<T>& got, const std::vector<double>& expected, double tolerance) {
  if (got.size() != expected.size()) return "size differs";
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double value = static_cast<double>(got[i]);
    bool ok;
    if constexpr (std::is_floating_point_v<T>) {
      ok = std::abs(value - expected[i]) <= tolerance * (1.0 + std::abs(expected[i]));
    } else {
      ok = std::abs(value - std::clamp(expected[i], 0.0, 255.0)) <= 0.5 + tolerance;
    }
    if (!ok)
      return "element " + std::to_string(i) + " is " + std::to_string(value) + ", expected " +
             std::to_string(expected[i]);
  }
  return {};
}

template std::string compare_image<float>(const std::vector<float>&, const std::vector<double>&, double);
template std::string compare_image<std::uint8_t>(const std::vector<std::uint8_t>&, const std::vector<double>&, double);

}  // namespace tilecl::detail
