// tilecl_bench_multi: how the multi-device ops (tilecl/multi_device.hpp) scale with the number of devices, and
// what splitting costs. For 1..N devices it times SGEMM and a Gaussian blur over a batch of frames from host
// memory to host memory (the DeviceSet calls), the speedup over one device, and how far each result is from the
// one-device result; beside them, the single-device call with data already on the device (the kernels alone).
//
// Examples (PoCL: the device cut into 2 sub-devices with CL_DEVICE_PARTITION_EQUALLY; GPUs: every GPU of the
// platform, e.g. 2 H200s, each in its own context):
//   - tilecl_bench_multi --split subdevices --count 2
//   - tilecl_bench_multi --split devices --count 2
//   - tilecl_bench_multi --split queues --count 2        (one device twice: the cost of splitting alone)
//
// Options: --device P:D (the device, or the platform's first), --gemm N (N^3 SGEMM), --image WxH, --frames F,
// --repeat R (median of R timed runs after one warm-up), --json FILE.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "bench_commit.hpp"
#include "tilecl/tilecl.hpp"
#include "tuning/tuning_db.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string device, split = "subdevices", json;
  std::size_t count = 2, gemm = 1024, frames = 8, repeat = 5;
  std::string image = "1920x1080";
  double sigma = 1.5;
};

// The devices of the run: sub-devices of one device, or the platform's devices of the selected one's type.
std::vector<cl::Device> devices_of(const Options& o) {
  const auto [platform, device] = tilecl::split_device_selector(o.device);
  cl::Device root = tilecl::select_device(platform, device);
  std::vector<cl::Device> devices;
  if (o.split == "subdevices") {
    const auto units = root.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>() / static_cast<cl_uint>(o.count);
    const cl_device_partition_property properties[] = {CL_DEVICE_PARTITION_EQUALLY, std::max<cl_uint>(units, 1), 0};
    root.createSubDevices(properties, &devices);
  } else if (o.split == "queues") {
    devices.assign(o.count, root);  // one device, a context and queue per entry: what splitting costs on one device
  } else {
    cl::Platform(root.getInfo<CL_DEVICE_PLATFORM>()).getDevices(root.getInfo<CL_DEVICE_TYPE>(), &devices);
  }
  if (devices.size() > o.count) devices.resize(o.count);
  return devices;
}

tilecl::DeviceSet device_set(const std::vector<cl::Device>& devices, std::size_t count) {
  std::vector<cl::CommandQueue> queues;
  for (std::size_t i = 0; i < count; ++i) queues.emplace_back(cl::Context(devices[i]), devices[i]);
  return tilecl::DeviceSet(queues);
}

struct Row {
  std::string op;
  std::size_t devices;
  double seconds, rate, speedup, difference;
  std::string rate_unit, difference_unit;
};

// One thing to time: `run` does it once (blocking); `finish` fills the row's difference after the timed runs.
struct Case {
  Row row;
  double work;  // flops or pixels per run
  std::function<void()> run;
  std::function<double()> difference = [] { return 0.0; };
};

// Every case once to warm up (compile, tune, allocate), then `repeat` rounds over all cases in turn, so that a
// change of the machine's load meets every case alike; each row gets its median.
std::vector<Row> measure(std::vector<Case>& cases, std::size_t repeat) {
  for (auto& c : cases) c.run();
  std::vector<std::vector<double>> seconds(cases.size());
  for (std::size_t round = 0; round < repeat; ++round)
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const auto start = Clock::now();
      cases[i].run();
      seconds[i].push_back(std::chrono::duration<double>(Clock::now() - start).count());
    }
  std::vector<Row> rows;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::sort(seconds[i].begin(), seconds[i].end());
    Row row = cases[i].row;
    row.seconds = seconds[i][seconds[i].size() / 2];
    row.rate = cases[i].work / row.seconds;
    row.difference = cases[i].difference();
    rows.push_back(row);
  }
  return rows;
}

// The operands every case shares (host memory, and device 0's buffers for the single-device calls).
struct Data {
  std::size_t n, width, height, frames;
  double sigma;
  std::vector<float> a, b;
  std::vector<std::uint8_t> src;
  std::vector<std::vector<float>> c;           // per device count
  std::vector<std::vector<std::uint8_t>> dst;  // per device count
};

Data make_data(const Options& o, std::size_t width, std::size_t height, std::size_t counts) {
  Data d{o.gemm, width, height, o.frames, o.sigma, {}, {}, {}, {}, {}};
  std::mt19937 random(7);
  std::uniform_real_distribution<float> value(-1, 1);
  d.a.resize(d.n * d.n);
  d.b.resize(d.n * d.n);
  for (auto& x : d.a) x = value(random);
  for (auto& x : d.b) x = value(random);
  d.src.resize(width * height * o.frames);
  for (auto& x : d.src) x = static_cast<std::uint8_t>(random());
  d.c.assign(counts + 1, std::vector<float>(d.n * d.n));
  d.dst.assign(counts + 1, std::vector<std::uint8_t>(d.src.size()));
  return d;
}

// SGEMM n^3 host to host on `count` devices; difference: the largest |C - C(1 device)| / |C(1 device)|.
Case gemm_case(Data& d, const std::vector<cl::Device>& devices, std::size_t count) {
  auto set = std::make_shared<tilecl::DeviceSet>(device_set(devices, count));
  Case c{{"sgemm " + std::to_string(d.n) + "^3, host to host", count, 0, 0, 0, 0, "GFLOP/s", "max rel diff"},
         2.0 * double(d.n) * double(d.n) * double(d.n) * 1e-9,
         [&d, set, count] {
           tilecl::gemm<float>(*set, tilecl::Layout::RowMajor, tilecl::Transpose::No, tilecl::Transpose::No, d.n, d.n,
                               d.n, 1.0f, d.a.data(), d.n, d.b.data(), d.n, 0.0f, d.c[count].data(), d.n);
         }};
  c.difference = [&d, count] {
    double worst = 0;
    for (std::size_t i = 0; i < d.c[count].size(); ++i)
      worst =
          std::max(worst, std::abs(double(d.c[count][i]) - d.c[1][i]) / std::max(1e-30, std::abs(double(d.c[1][i]))));
    return worst;
  };
  return c;
}

// Gaussian blur (uint8, one channel, Mirror) of the frames host to host; difference: pixels unlike 1 device's.
Case gaussian_case(Data& d, const std::vector<cl::Device>& devices, std::size_t count) {
  auto set = std::make_shared<tilecl::DeviceSet>(device_set(devices, count));
  Case c{{"gaussian u8 " + std::to_string(d.width) + "x" + std::to_string(d.height) + " x" + std::to_string(d.frames) +
              ", host to host",
          count, 0, 0, 0, 0, "Mpx/s", "pixels differing"},
         double(d.src.size()) * 1e-6,
         [&d, set, count] {
           tilecl::gaussian_blur<std::uint8_t>(*set, d.width, d.height, 1, d.src.data(), d.width, d.dst[count].data(),
                                               d.width, d.sigma, tilecl::Border::Mirror, std::nullopt,
                                               {d.frames, 0, 0});
         }};
  c.difference = [&d, count] {
    std::size_t differ = 0;
    for (std::size_t i = 0; i < d.src.size(); ++i) differ += d.dst[count][i] == d.dst[1][i] ? 0 : 1;
    return double(differ);
  };
  return c;
}

// The single-device calls on device 0 with the data already there: the kernels alone, no transfers.
std::vector<Case> resident_cases(Data& d, const cl::Device& device, const std::string& where) {
  cl::Context context(device);
  auto queue = std::make_shared<cl::CommandQueue>(context, device);
  const std::size_t bytes = d.n * d.n * sizeof(float), pixels = d.src.size();
  auto buffers = std::make_shared<std::vector<cl::Buffer>>();
  for (std::size_t size : {bytes, bytes, bytes, pixels, pixels})
    buffers->emplace_back(context, CL_MEM_READ_WRITE, size);
  queue->enqueueWriteBuffer((*buffers)[0], CL_TRUE, 0, bytes, d.a.data());
  queue->enqueueWriteBuffer((*buffers)[1], CL_TRUE, 0, bytes, d.b.data());
  queue->enqueueWriteBuffer((*buffers)[3], CL_TRUE, 0, pixels, d.src.data());
  Case gemm{{"sgemm " + std::to_string(d.n) + "^3, data on " + where, 1, 0, 0, 0, 0, "GFLOP/s", ""},
            2.0 * double(d.n) * double(d.n) * double(d.n) * 1e-9,
            [&d, queue, buffers] {
              auto& b = *buffers;
              tilecl::gemm<float>(*queue, tilecl::Layout::RowMajor, tilecl::Transpose::No, tilecl::Transpose::No, d.n,
                                  d.n, d.n, 1.0f, b[0], 0, d.n, b[1], 0, d.n, 0.0f, b[2], 0, d.n)
                  .wait();
            }};
  Case blur{{"gaussian u8 frames, data on " + where, 1, 0, 0, 0, 0, "Mpx/s", ""},
            double(pixels) * 1e-6,
            [&d, queue, buffers] {
              auto& b = *buffers;
              cl::Event last;
              const std::size_t frame = d.width * d.height;
              for (std::size_t f = 0; f < d.frames; ++f)
                last = tilecl::gaussian_blur<std::uint8_t>(*queue, d.width, d.height, 1, b[3], f * frame, d.width, b[4],
                                                           f * frame, d.width, d.sigma, tilecl::Border::Mirror);
              last.wait();
            }};
  return {gemm, blur};
}

void set_speedups(std::vector<Row>& rows) {
  for (auto& row : rows)
    for (const auto& one : rows)
      if (one.op == row.op && one.devices == 1) row.speedup = row.rate / one.rate;
}

void print(const std::vector<Row>& rows) {
  std::cout << std::left << std::setw(46) << "op" << std::right << std::setw(8) << "devices" << std::setw(12) << "ms"
            << std::setw(12) << "rate" << std::setw(10) << "speedup"
            << "  difference from 1 device\n";
  for (const auto& r : rows)
    std::cout << std::left << std::setw(46) << r.op << std::right << std::setw(8) << r.devices << std::setw(12)
              << std::fixed << std::setprecision(2) << r.seconds * 1e3 << std::setw(12) << r.rate << " " << r.rate_unit
              << std::setw(8) << r.speedup << "  " << std::setprecision(3)
              << (r.difference_unit.empty() ? "" : std::to_string(r.difference) + " " + r.difference_unit) << "\n";
}

void write_json(const std::string& path, const std::string& command, const std::vector<cl::Device>& devices,
                const std::vector<Row>& rows) {
  nlohmann::json out;
  out["command"] = command;
  out["date"] = tilecl::detail::utc_now();
  out["commit"] = TILECL_BENCH_COMMIT;
  out["tilecl"] = tilecl::version();
  for (const auto& d : devices)
    out["devices"].push_back(d.getInfo<CL_DEVICE_NAME>() + " (" +
                             std::to_string(d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>()) + " compute units)");
  for (const auto& r : rows)
    out["rows"].push_back({{"op", r.op},
                           {"devices", r.devices},
                           {"seconds", r.seconds},
                           {"rate", r.rate},
                           {"rate_unit", r.rate_unit},
                           {"speedup", r.speedup},
                           {"difference", r.difference},
                           {"difference_unit", r.difference_unit}});
  std::ofstream(path) << out.dump(2) << "\n";
}

int run(const Options& o, const std::string& command) {
  const auto devices = devices_of(o);
  std::size_t width = 0, height = 0;
  if (std::sscanf(o.image.c_str(), "%zux%zu", &width, &height) != 2 || width == 0 || height == 0)
    throw std::invalid_argument("--image " + o.image + ": WIDTHxHEIGHT");
  std::cout << "tilecl_bench_multi " << tilecl::detail::utc_now() << ", commit " << TILECL_BENCH_COMMIT << ", "
            << devices.size() << " devices: " << devices.front().getInfo<CL_DEVICE_NAME>() << " ("
            << devices.front().getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>() << " compute units each)\n";
  Data data = make_data(o, width, height, devices.size());
  std::vector<Case> cases;
  for (std::size_t count = 1; count <= devices.size(); ++count) cases.push_back(gemm_case(data, devices, count));
  for (std::size_t count = 1; count <= devices.size(); ++count) cases.push_back(gaussian_case(data, devices, count));
  for (auto& c : resident_cases(data, devices.front(), "device 0")) cases.push_back(std::move(c));
  // Sub-devices: the whole device too, to show what a sub-device holds back.
  const cl::Device parent = devices.front().getInfo<CL_DEVICE_PARENT_DEVICE>();
  if (parent() != nullptr)
    for (auto& c : resident_cases(data, parent, "the whole device")) cases.push_back(std::move(c));
  std::vector<Row> rows = measure(cases, o.repeat);
  set_speedups(rows);
  print(rows);
  if (!o.json.empty()) write_json(o.json, command, devices, rows);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    CLI::App app{"tilecl_bench_multi: the multi-device ops on 1..N devices or sub-devices"};
    app.add_option("--device", o.device, "P:D, the device to cut or whose platform to use");
    app.add_option("--split", o.split, "subdevices, devices, or queues (the one device repeated)")
        ->check(CLI::IsMember({"subdevices", "devices", "queues"}));
    app.add_option("--count", o.count, "the most devices")->check(CLI::Range(1, 64));
    app.add_option("--gemm", o.gemm, "N of the N^3 SGEMM")->check(CLI::Range(1, 65536));
    app.add_option("--image", o.image, "WIDTHxHEIGHT of each frame");
    app.add_option("--frames", o.frames, "frames per batch")->check(CLI::Range(1, 4096));
    app.add_option("--repeat", o.repeat, "timed runs (the median is reported)")->check(CLI::Range(1, 1000));
    app.add_option("--json", o.json, "write the rows to this file");
    CLI11_PARSE(app, argc, argv);
    std::string command = "tilecl_bench_multi";
    for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
    return run(o, command);
  } catch (const std::exception& error) {
    std::cerr << "tilecl_bench_multi: " << error.what() << std::endl;
    return 1;
  }
}
