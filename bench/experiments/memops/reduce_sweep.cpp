// reduce_sweep: checks and times the kernels of kernels/reduce.cl over a list of configurations, side by
// side with the device copy bandwidth, Boost.Compute reduce and CLBlast sum / amax.
//
//   reduce_sweep --kernels DIR [--preset gpu|cpu|smoke] [--config TEXT]... [--n N] [--reps N] [--warmup N]
//                [--json PATH] [--list] [--no-peers] [--verify-only] [--no-verify] [--check-max N] [--no-accuracy]
//
// A configuration is "variant/NAME=V,...@launch=v": variant interleaved | sequential | vector | chunked;
// build values DTYPE (float, double, int), OP (sum, min, max, argmin, argmax -> REDUCE_OP), WG_X, VEC, WPT,
// USE_SUBGROUPS; launch values: groups (vector: work-groups of pass 1), lx (chunked: local size, 0 = runtime's
// choice). Every configuration runs the full pass plan (pass 1 + reduce_partials passes) and is timed from
// the first to the last kernel. The device comes from TILECL_PLATFORM / TILECL_DEVICE.
#include "harness.hpp"
#include "../../../tests/reference/reduce_reference.hpp"

#ifdef MEMOPS_HAVE_CLBLAST
#include <clblast_c.h>
#endif
#ifdef MEMOPS_HAVE_BOOST_COMPUTE
#include <boost/compute/algorithm/reduce.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/core.hpp>
#include <boost/compute/functional/operator.hpp>
#endif

#include <climits>
#include <cstring>
#include <limits>

using namespace memops;
using tilecl::reference::ReduceOp;

namespace {

ReduceOp parse_op(const std::string& s) {
  if (s == "sum" || s == "0") return ReduceOp::sum;
  if (s == "min" || s == "1") return ReduceOp::min;
  if (s == "max" || s == "2") return ReduceOp::max;
  if (s == "argmin" || s == "3") return ReduceOp::argmin;
  if (s == "argmax" || s == "4") return ReduceOp::argmax;
  throw std::runtime_error("unknown op " + s);
}

bool is_arg(ReduceOp op) { return op == ReduceOp::argmin || op == ReduceOp::argmax; }

struct Variant {
  Config config;
  DType dtype = DType::f32;
  ReduceOp op = ReduceOp::sum;
  long wg = 256, vec = 4, wpt = 4;

  explicit Variant(const std::string& text) : config(parse_config(text)) {
    if (auto it = config.build.find("DTYPE"); it != config.build.end()) dtype = parse_dtype(it->second);
    if (auto it = config.build.find("OP"); it != config.build.end()) op = parse_op(it->second);
    wg = config.value("WG_X", 256);
    vec = config.value("VEC", 4);
    wpt = config.value("WPT", 4);
  }
  std::string options() const {
    std::string result = "-DDTYPE=" + std::string(cl_name(dtype)) + " -DREDUCE_OP=" + std::to_string(int(op));
    for (const auto& [name, v] : config.build) {
      if (name != "DTYPE" && name != "OP") result += " -D" + name + "=" + v;
    }
    return result;
  }
};

// ---------------------------------------------------------------------------------------------------------
// The pass plan (what the runtime's op module will do): pass 1, then reduce_partials until one value.

struct Pass {
  bool first = false;        // pass 1 (reads x) or reduce_partials
  int count = 0, span = 0;   // reduce_partials: partials in, partials per work-group
  long in_value = 0, in_index = 0;    // workspace element offsets read (reduce_partials)
  long out_value = 0, out_index = 0;  // workspace element offsets written (or result offset if to_result)
  bool to_result = false;
  cl::NDRange global, local;
};

struct Plan {
  std::vector<Pass> passes;
  std::size_t workspace_bytes = 0;
  long index_base = 0;  // first int slot of the index array in the workspace (argmin/argmax)
  long partials = 0;    // P1
};

constexpr int kPartialsPerItemInLastPass = 16;  // the last pass reduces at most WG_X * 16 partials

long pass1_partials(const Variant& v, long n) {
  if (v.config.variant == "interleaved" || v.config.variant == "sequential") return (n + v.wg - 1) / v.wg;
  if (v.config.variant == "vector") {
    const long groups = v.config.value("groups", 1024);
    return std::max<long>(1, std::min(groups, (n / v.vec + v.wg - 1) / v.wg));
  }
  if (v.config.variant == "chunked") return (n + v.vec * v.wpt - 1) / (v.vec * v.wpt);
  throw std::runtime_error("unknown variant " + v.config.variant);
}

// Workspace layout (one buffer): values [P1 | P2 | ... | final] as DTYPE, then (argmin/argmax) indices as int
// starting at the next 8-byte boundary, same slots.
Plan make_plan(const Variant& v, long n, long result_offset) {
  Plan plan;
  const long wg = v.wg;
  long count = 0, next = 0;
  if (n > 0) {
    Pass p1;
    p1.first = true;
    plan.partials = count = pass1_partials(v, n);
    p1.out_value = p1.out_index = 0;
    next = count;
    if (v.config.variant == "chunked") {
      const long lx = v.config.value("lx", 8);
      p1.global = cl::NDRange(lx ? (count + lx - 1) / lx * lx : count);
      p1.local = lx ? cl::NDRange(lx) : cl::NullRange;
    } else {
      p1.global = cl::NDRange(count * wg);
      p1.local = cl::NDRange(wg);
    }
    plan.passes.push_back(p1);
  }
  long in = 0;
  while (count > wg * kPartialsPerItemInLastPass) {
    Pass p;
    p.count = static_cast<int>(count);
    p.span = static_cast<int>(wg * kPartialsPerItemInLastPass);
    const long groups = (count + p.span - 1) / p.span;
    p.in_value = p.in_index = in;
    p.out_value = p.out_index = next;
    p.global = cl::NDRange(groups * wg);
    p.local = cl::NDRange(wg);
    plan.passes.push_back(p);
    in = next;
    next += groups;
    count = groups;
  }
  Pass last;
  last.count = static_cast<int>(count);
  last.span = static_cast<int>(std::max<long>(count, 1));
  last.in_value = last.in_index = in;
  last.to_result = true;
  last.out_value = is_arg(v.op) ? next : result_offset;  // arg ops: value to a workspace slot, index to result
  last.out_index = result_offset;
  last.global = cl::NDRange(wg);
  last.local = cl::NDRange(wg);
  plan.passes.push_back(last);
  const long slots = next + 1;
  const long value_bytes = (slots * static_cast<long>(size_of(v.dtype)) + 7) / 8 * 8;
  plan.index_base = is_arg(v.op) ? value_bytes / 4 : 0;
  plan.workspace_bytes = value_bytes + (is_arg(v.op) ? slots * 4 : 0);
  return plan;
}

struct Program {
  cl::Kernel first, partials;
};

void enqueue_plan(const Env& env, Program& k, const Variant& v, const Plan& plan, int n, const cl::Buffer& x,
                  long x_offset, const cl::Buffer& workspace, const cl::Buffer& result,
                  std::vector<cl::Event>* events) {
  const long ib = plan.index_base;
  for (const Pass& p : plan.passes) {
    cl::Event e;
    if (p.first) {
      k.first.setArg(0, n);
      k.first.setArg(1, x);
      k.first.setArg(2, static_cast<cl_ulong>(x_offset));
      k.first.setArg(3, workspace);
      k.first.setArg(4, static_cast<cl_ulong>(p.out_value));
      k.first.setArg(5, workspace);
      k.first.setArg(6, static_cast<cl_ulong>(ib + p.out_index));
      env.queue.enqueueNDRangeKernel(k.first, cl::NullRange, p.global, p.local, nullptr, events ? &e : nullptr);
    } else {
      const bool arg = is_arg(v.op);
      k.partials.setArg(0, p.count);
      k.partials.setArg(1, p.span);
      k.partials.setArg(2, workspace);
      k.partials.setArg(3, static_cast<cl_ulong>(p.in_value));
      k.partials.setArg(4, workspace);
      k.partials.setArg(5, static_cast<cl_ulong>(ib + p.in_index));
      if (p.to_result && !arg) {
        k.partials.setArg(6, result);
        k.partials.setArg(7, static_cast<cl_ulong>(p.out_value));
        k.partials.setArg(8, workspace);
        k.partials.setArg(9, static_cast<cl_ulong>(0));
      } else if (p.to_result) {
        k.partials.setArg(6, workspace);
        k.partials.setArg(7, static_cast<cl_ulong>(p.out_value));
        k.partials.setArg(8, result);
        k.partials.setArg(9, static_cast<cl_ulong>(p.out_index));
      } else {
        k.partials.setArg(6, workspace);
        k.partials.setArg(7, static_cast<cl_ulong>(p.out_value));
        k.partials.setArg(8, workspace);
        k.partials.setArg(9, static_cast<cl_ulong>(ib + p.out_index));
      }
      env.queue.enqueueNDRangeKernel(k.partials, cl::NullRange, p.global, p.local, nullptr, events ? &e : nullptr);
    }
    if (events) events->push_back(e);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Data and expected results

// Host data of one type, as raw bytes, with typed views.
struct HostData {
  DType type;
  std::vector<std::uint8_t> bytes;
  template <typename T>
  const T* as() const {
    return reinterpret_cast<const T*>(bytes.data());
  }
  template <typename T>
  T* as() {
    return reinterpret_cast<T*>(bytes.data());
  }
  std::size_t count() const { return bytes.size() / size_of(type); }
};

// kind 0: sums (floating: uniform [-1, 1) or [0, 1); int: any 32-bit value, so sums wrap);
// kind 1: extremes (small integers in [-20, 20): many ties, so "first index" is tested).
HostData make_data(DType t, std::size_t n, int kind, Random& rng, bool unit_interval = false) {
  HostData d{t, std::vector<std::uint8_t>(n * size_of(t))};
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = rng.next();
    const double small = static_cast<double>(static_cast<int>(r % 40) - 20);
    switch (t) {
      case DType::f32:
        d.as<float>()[i] = kind ? static_cast<float>(small)
                                : (unit_interval ? static_cast<float>(r >> 40) * (1.0f / 16777216.0f)
                                                 : static_cast<float>(r >> 40) * (1.0f / 8388608.0f) - 1.0f);
        break;
      case DType::f64:
        d.as<double>()[i] = kind ? small : static_cast<double>(r >> 11) * (2.0 / 9007199254740992.0) - 1.0;
        break;
      case DType::i32: d.as<std::int32_t>()[i] = kind ? static_cast<std::int32_t>(small) : static_cast<std::int32_t>(r); break;
      default: throw std::runtime_error("reduce: unsupported type");
    }
  }
  return d;
}

// The result of one reduction as the device reports it: a value (sum/min/max) or an index.
struct Outcome {
  double value = 0;       // floating results, widened
  std::int64_t integer = 0;  // int results or indices
  bool is_index = false;
};

template <typename T>
Outcome expected(ReduceOp op, const T* x, std::size_t n) {
  namespace ref = tilecl::reference;
  Outcome o;
  switch (op) {
    case ReduceOp::sum:
      if constexpr (std::is_floating_point_v<T>) o.value = ref::sum(x, n);
      else o.integer = ref::sum(x, n);
      break;
    case ReduceOp::min:
      if constexpr (std::is_floating_point_v<T>) o.value = ref::min_value(x, n);
      else o.integer = ref::min_value(x, n);
      break;
    case ReduceOp::max:
      if constexpr (std::is_floating_point_v<T>) o.value = ref::max_value(x, n);
      else o.integer = ref::max_value(x, n);
      break;
    case ReduceOp::argmin: o.integer = static_cast<std::int64_t>(ref::argmin(x, n)); o.is_index = true; break;
    case ReduceOp::argmax: o.integer = static_cast<std::int64_t>(ref::argmax(x, n)); o.is_index = true; break;
  }
  return o;
}

Outcome expected_of(const HostData& d, ReduceOp op, std::size_t offset, std::size_t n) {
  switch (d.type) {
    case DType::f32: return expected(op, d.as<float>() + offset, n);
    case DType::f64: return expected(op, d.as<double>() + offset, n);
    case DType::i32: return expected(op, d.as<std::int32_t>() + offset, n);
    default: throw std::runtime_error("reduce: unsupported type");
  }
}

double sum_abs_of(const HostData& d, std::size_t offset, std::size_t n) {
  switch (d.type) {
    case DType::f32: return tilecl::reference::sum_abs(d.as<float>() + offset, n);
    case DType::f64: return tilecl::reference::sum_abs(d.as<double>() + offset, n);
    default: return 0;
  }
}

Outcome read_result(const Env& env, const cl::Buffer& result, DType t, ReduceOp op, long offset) {
  Outcome o;
  if (is_arg(op)) {
    std::int32_t i = 0;
    env.queue.enqueueReadBuffer(result, CL_TRUE, offset * 4, 4, &i);
    o.integer = i;
    o.is_index = true;
  } else if (t == DType::f32) {
    float f = 0;
    env.queue.enqueueReadBuffer(result, CL_TRUE, offset * 4, 4, &f);
    o.value = f;
  } else if (t == DType::f64) {
    env.queue.enqueueReadBuffer(result, CL_TRUE, offset * 8, 8, &o.value);
  } else {
    std::int32_t i = 0;
    env.queue.enqueueReadBuffer(result, CL_TRUE, offset * 4, 4, &i);
    o.integer = i;
  }
  return o;
}

// Tolerance of a floating-point sum, relative to sum |x|: the kernels add at most a few hundred elements
// sequentially per lane, then pairwise.
double sum_tolerance(DType t) { return t == DType::f32 ? 2e-6 : 1e-14; }

// Empty string if `got` matches `want`, else a description.
std::string compare(DType t, ReduceOp op, const Outcome& got, const Outcome& want, double scale) {
  char text[160];
  if (is_arg(op) || t == DType::i32) {
    if (got.integer == want.integer) return "";
    std::snprintf(text, sizeof text, "got %lld, want %lld", static_cast<long long>(got.integer),
                  static_cast<long long>(want.integer));
    return text;
  }
  if (std::isnan(want.value) || std::isnan(got.value)) {
    if (std::isnan(want.value) && std::isnan(got.value)) return "";
  } else if (op != ReduceOp::sum || std::isinf(want.value)) {
    if (got.value == want.value) return "";
  } else if (std::fabs(got.value - want.value) <= sum_tolerance(t) * scale + 1e-300) {
    return "";
  }
  std::snprintf(text, sizeof text, "got %.9g, want %.9g (scale %.3g)", got.value, want.value, scale);
  return text;
}

// Sizes checked before timing: small, around work-group and vector multiples, primes, large; x offsets
// misaligned and aligned; the result written at an offset.
const std::vector<long> kCheckSizes = {1,    2,    3,    4,     5,     7,     8,     15,     16,     17,     31,    33,
                                       100,  255,  256,  257,   1000,  1023,  1024,  1025,   4097,   65535, 65537,
                                       100003, 1000003, 4194319};
const std::vector<long> kCheckOffsets = {0, 1, 3, 5, 4, 8};

struct Row {
  std::string kind, name, dtype, op, status, note;
  double median_s = 0, kernel_s = 0, pass1_s = 0, gbps = 0, pct_copy = 0, vs_peer = 0, compile_s = 0;
  long partials = 0, passes = 0, workspace_bytes = 0;
};

void print_row(const Row& r) {
  if (r.status != "ok") {
    std::printf("%-50s %-6s %-6s %s\n", r.name.c_str(), r.dtype.c_str(), r.op.c_str(), r.status.c_str());
  } else if (r.median_s == 0) {
    std::printf("%-50s %-6s %-6s verified%s%s\n", r.name.c_str(), r.dtype.c_str(), r.op.c_str(),
                r.note.empty() ? "" : "; ", r.note.c_str());
  } else {
    std::printf("%-50s %-6s %-6s %8.3f ms %7.1f GB/s %5.1f%% copy %5.2fx peer%s%s\n", r.name.c_str(),
                r.dtype.c_str(), r.op.c_str(), r.median_s * 1e3, r.gbps, r.pct_copy, r.vs_peer,
                r.note.empty() ? "" : " ", r.note.c_str());
  }
  std::fflush(stdout);
}

// Sub-groups of one work-item, for checking the USE_SUBGROUPS=1 path on devices without cl_khr_subgroups.
const char* const kSubGroupShim = R"CLC(
#define get_sub_group_size() 1u
#define get_num_sub_groups() ((uint)get_local_size(0))
#define get_sub_group_id() ((uint)get_local_id(0))
#define get_sub_group_local_id() 0u
#define sub_group_reduce_add(x) (x)
#define sub_group_reduce_min(x) (x)
#define sub_group_reduce_max(x) (x)
#define sub_group_any(p) ((p) != 0)
)CLC";

std::vector<std::string> preset(const std::string& name) {
  std::vector<std::string> list;
  if (name == "smoke") {
    return {"interleaved/WG_X=64", "sequential/WG_X=32,OP=argmax",
            "vector/WG_X=64,VEC=4,WPT=2@groups=7", "vector/WG_X=32,VEC=2,WPT=3,OP=argmin,DTYPE=double@groups=5",
            "vector/WG_X=64,VEC=4,WPT=2,OP=min@groups=3", "vector/WG_X=64,VEC=4,WPT=2,DTYPE=int@groups=4",
            "vector/WG_X=16,VEC=8,WPT=1,OP=max,DTYPE=int@groups=9",
            "chunked/VEC=8,WPT=4@lx=8", "chunked/VEC=4,WPT=3,OP=argmax@lx=4",
            "chunked/VEC=2,WPT=5,OP=argmin,DTYPE=double@lx=0", "chunked/VEC=8,WPT=2,OP=sum,DTYPE=int@lx=8",
            "chunked/VEC=16,WPT=2,OP=max,DTYPE=double@lx=8",
            "vector/WG_X=64,VEC=4,WPT=2,USE_SUBGROUPS=1@groups=5",
            "vector/WG_X=32,VEC=4,WPT=2,USE_SUBGROUPS=1,OP=argmin@groups=5",
            "vector/WG_X=32,VEC=2,WPT=2,USE_SUBGROUPS=1,OP=max,DTYPE=double@groups=5",
            "vector/WG_X=32,VEC=4,WPT=2,USE_SUBGROUPS=1,OP=argmax,DTYPE=int@groups=5"};
  }
  if (name == "cpu") {
    list = {"interleaved/WG_X=256", "sequential/WG_X=256", "vector/WG_X=64,VEC=8,WPT=4@groups=32",
            "vector/WG_X=256,VEC=8,WPT=4@groups=8", "vector/WG_X=256,VEC=4,WPT=4@groups=64"};
    for (const char* c : {"VEC=8,WPT=128@lx=8", "VEC=8,WPT=256@lx=8", "VEC=8,WPT=512@lx=8", "VEC=8,WPT=1024@lx=8",
                          "VEC=8,WPT=256@lx=64", "VEC=8,WPT=512@lx=0", "VEC=16,WPT=128@lx=8", "VEC=16,WPT=256@lx=8",
                          "VEC=4,WPT=512@lx=8"}) {
      list.push_back(std::string("chunked/") + c);
    }
    for (const char* op : {"min", "max", "argmin", "argmax"}) {
      list.push_back(std::string("chunked/VEC=8,WPT=256,OP=") + op + "@lx=8");
      list.push_back(std::string("chunked/VEC=16,WPT=128,OP=") + op + "@lx=8");
    }
    list.push_back("chunked/VEC=4,WPT=512,DTYPE=double@lx=8");
    list.push_back("chunked/VEC=8,WPT=256,DTYPE=double@lx=8");
    list.push_back("chunked/VEC=8,WPT=256,DTYPE=int@lx=8");
    list.push_back("chunked/VEC=8,WPT=256,DTYPE=int,OP=argmax@lx=8");
    return list;
  }
  if (name == "gpu") {
    list = {"interleaved/WG_X=256", "sequential/WG_X=256", "chunked/VEC=4,WPT=16@lx=256"};
    // sum float: work-group size x loads in flight x work-groups per CU (132 CUs)
    for (const char* wpt : {"1", "2", "4", "8"}) {
      for (const char* g : {"264", "528", "1056", "2112"}) {
        list.push_back(std::string("vector/WG_X=256,VEC=4,WPT=") + wpt + "@groups=" + g);
      }
    }
    for (const char* c : {"WG_X=128,VEC=4,WPT=4@groups=2112", "WG_X=128,VEC=4,WPT=4@groups=4224",
                          "WG_X=512,VEC=4,WPT=2@groups=528", "WG_X=512,VEC=4,WPT=4@groups=528",
                          "WG_X=512,VEC=4,WPT=4@groups=1056", "WG_X=1024,VEC=4,WPT=2@groups=264",
                          "WG_X=1024,VEC=4,WPT=4@groups=264", "WG_X=1024,VEC=4,WPT=4@groups=528",
                          "WG_X=256,VEC=8,WPT=2@groups=1056", "WG_X=256,VEC=2,WPT=8@groups=1056"}) {
      list.push_back(std::string("vector/") + c);
    }
    for (const char* op : {"min", "max", "argmin", "argmax"}) {
      list.push_back(std::string("vector/WG_X=256,VEC=4,WPT=4,OP=") + op + "@groups=1056");
      list.push_back(std::string("vector/WG_X=256,VEC=4,WPT=2,OP=") + op + "@groups=2112");
      list.push_back(std::string("vector/WG_X=512,VEC=4,WPT=4,OP=") + op + "@groups=528");
    }
    for (const char* c : {"DTYPE=double,WG_X=256,VEC=2,WPT=4@groups=1056", "DTYPE=double,WG_X=256,VEC=2,WPT=8@groups=1056",
                          "DTYPE=double,WG_X=256,VEC=4,WPT=2@groups=1056", "DTYPE=double,WG_X=256,VEC=2,WPT=4,OP=argmax@groups=1056",
                          "DTYPE=int,WG_X=256,VEC=4,WPT=4@groups=1056", "DTYPE=int,WG_X=256,VEC=4,WPT=4,OP=max@groups=1056",
                          "DTYPE=int,WG_X=256,VEC=4,WPT=4,OP=argmin@groups=1056"}) {
      list.push_back(std::string("vector/") + c);
    }
    return list;
  }
  throw std::runtime_error("unknown preset " + name);
}

}  // namespace

int main(int argc, char** argv) {
  std::string kernel_dir, json_path, preset_name;
  std::vector<std::string> config_texts;
  long n_big = 0, check_max = 1L << 40;
  int reps = 0, warmup = 2;
  bool list_only = false, peers = true, verify = true, verify_only = false, accuracy = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error("missing value after " + a);
      return argv[++i];
    };
    if (a == "--kernels") kernel_dir = next();
    else if (a == "--json") json_path = next();
    else if (a == "--preset") preset_name = next();
    else if (a == "--config") config_texts.push_back(next());
    else if (a == "--n") n_big = std::stol(next());
    else if (a == "--reps") reps = std::stoi(next());
    else if (a == "--warmup") warmup = std::stoi(next());
    else if (a == "--list") list_only = true;
    else if (a == "--no-peers") peers = false;
    else if (a == "--no-verify") verify = false;
    else if (a == "--verify-only") verify_only = true;
    else if (a == "--check-max") check_max = std::stol(next());
    else if (a == "--no-accuracy") accuracy = false;
    else {
      std::fprintf(stderr,
                   "usage: %s --kernels DIR [--preset gpu|cpu|smoke] [--config TEXT]... [--n N] [--reps N]\n"
                   "       [--warmup N] [--json PATH] [--list] [--no-peers] [--verify-only] [--no-verify] [--check-max N]\n"
                   "       [--no-accuracy]\n",
                   argv[0]);
      return 2;
    }
  }
  if (kernel_dir.empty() && !list_only) {
    std::fprintf(stderr, "--kernels DIR is required\n");
    return 2;
  }
  if (list_only) {  // print the configurations of a preset (no device needed)
    if (preset_name.empty()) preset_name = "gpu";
    const auto list = preset(preset_name);
    for (const auto& t : list) std::printf("%s\n", t.c_str());
    std::printf("%zu configurations\n", list.size());
    return 0;
  }
  const auto start = std::chrono::steady_clock::now();
  Env env = open_device();
  print_device(env);
  if (preset_name.empty() && config_texts.empty()) preset_name = env.is_cpu ? "cpu" : "gpu";
  if (!preset_name.empty()) {
    for (auto& t : preset(preset_name)) config_texts.push_back(t);
  }
  if (n_big == 0) n_big = env.is_cpu ? (1L << 25) : (1L << 28);
  if (reps == 0) reps = env.is_cpu ? 7 : 15;
  const std::uint64_t seed = seed_from_env();
  Random rng(seed);
  const std::string source = family_source(kernel_dir, "reduce");
  Timer timer(env);
  const bool subgroups = has_extension(env.device, "cl_khr_subgroups");
  std::printf("reduce n = %ld, seed %llu, %d reps (median), warm-up %d, launch gap %.1f us, cl_khr_subgroups %s\n",
              n_big, static_cast<unsigned long long>(seed), reps, warmup, timer.idle_seconds() * 1e6,
              subgroups ? "yes" : "no");

  std::vector<Row> rows;
  std::vector<JsonRecord> json_rows;
  auto record = [&](const Row& r) {
    rows.push_back(r);
    print_row(r);
    json_rows.push_back(JsonRecord()
                            .add("kind", r.kind).add("name", r.name).add("dtype", r.dtype).add("op", r.op)
                            .add("n", n_big).add("status", r.status).add("note", r.note)
                            .add("median_s", r.median_s).add("kernel_s", r.kernel_s).add("pass1_s", r.pass1_s)
                            .add("pass1_gbps", r.pass1_s > 0 ? double(n_big) * size_of(parse_dtype(r.dtype == "-" ? "float" : r.dtype)) / r.pass1_s * 1e-9 : 0.0)
                            .add("gbps", r.gbps)
                            .add("pct_copy", r.pct_copy).add("vs_peer", r.vs_peer).add("compile_s", r.compile_s)
                            .add("partials", r.partials).add("passes", r.passes)
                            .add("workspace_bytes", r.workspace_bytes));
  };

  // Device limit: clEnqueueCopyBuffer of a large buffer, read + write bytes.
  double copy_gbps = 0;
  if (!verify_only) {
    const std::size_t copy_bytes = std::max<std::size_t>(std::size_t(n_big) * 4, std::size_t(256) << 20);
    const Timing copy = copy_timing(env, timer, copy_bytes, warmup, reps);
    copy_gbps = 2.0 * copy_bytes / copy.median_s * 1e-9;
    Row r{"copy", "clEnqueueCopyBuffer " + std::to_string(copy_bytes >> 20) + " MiB", "-", "-", "ok", ""};
    r.median_s = copy.median_s;
    r.gbps = copy_gbps;
    r.pct_copy = 100;
    record(r);
  }

  // Big timing input per type (one buffer: larger than any last-level cache at the default sizes), with
  // the reference results of every op for the big-size check.
  struct Big {
    HostData data;
    cl::Buffer buffer;
    std::vector<cl::Buffer> rotation;
    std::map<ReduceOp, Outcome> want;
    double scale = 0;
  };
  std::map<DType, Big> bigs;
  auto big_for = [&](DType t) -> Big& {
    if (auto it = bigs.find(t); it != bigs.end()) return it->second;
    bigs.clear();
    Big b;
    b.data = make_data(t, n_big, 0, rng, true);  // sums: [0, 1) as in the accuracy target
    const std::size_t bytes = b.data.bytes.size();
    const int rotation = rotation_count(env.device, bytes);
    for (int i = 0; i < rotation; ++i) {
      b.rotation.emplace_back(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, b.data.bytes.data());
    }
    for (ReduceOp op : {ReduceOp::sum, ReduceOp::min, ReduceOp::max, ReduceOp::argmin, ReduceOp::argmax}) {
      b.want[op] = expected_of(b.data, op, 0, n_big);
    }
    b.scale = sum_abs_of(b.data, 0, n_big);
    return bigs.emplace(t, std::move(b)).first->second;
  };
  auto gbps_of = [&](DType t, double s) { return s > 0 ? double(n_big) * size_of(t) / s * 1e-9 : 0; };
  cl::Buffer result(env.context, CL_MEM_READ_WRITE, 64 * 8);

  // Peers: Boost.Compute reduce (plus<float>), CLBlast sum and amax, on the same big float buffer.
  std::map<std::pair<DType, ReduceOp>, double> peer_gbps;
  auto time_peer = [&](const std::string& name, DType t, ReduceOp op, const std::string& note,
                       const std::function<void(const cl::Buffer&)>& run,
                       const std::function<std::string()>& check_result) {
    Row r{"peer", name, cl_name(t), tilecl::reference::to_string(op), "ok", note};
    try {
      Big& b = big_for(t);
      const Timing tm = timer.time([&](int rep, std::vector<cl::Event>&) { run(b.rotation[rep % b.rotation.size()]); },
                                   warmup, reps);
      r.median_s = tm.median_s;
      r.gbps = gbps_of(t, tm.median_s);
      r.pct_copy = 100 * r.gbps / copy_gbps;
      const std::string bad = check_result();
      if (!bad.empty()) r.note += (r.note.empty() ? "" : "; ") + std::string("result ") + bad;
      if (!peer_gbps.count({t, op})) peer_gbps[{t, op}] = r.gbps;
    } catch (const std::exception& e) {
      r.status = std::string("ERROR ") + e.what();
    }
    record(r);
  };
  bool want_f32 = false;
  for (const auto& text : config_texts) want_f32 |= Variant(text).dtype == DType::f32;
  if (peers && want_f32 && !verify_only) {
#ifdef MEMOPS_HAVE_BOOST_COMPUTE
    {
      namespace bc = boost::compute;
      bc::context context(env.context());
      bc::command_queue queue(env.queue());
      Big& b = big_for(DType::f32);
      std::vector<bc::vector<float>> vectors;
      for (const cl::Buffer& buffer : b.rotation) {
        vectors.emplace_back(std::size_t(n_big), context);
        env.queue.enqueueCopyBuffer(buffer, cl::Buffer(vectors.back().get_buffer().get(), true), 0, 0, n_big * 4);
      }
      bc::vector<float> sum(1, context);
      env.queue.finish();
      time_peer("Boost.Compute reduce plus<float>", DType::f32, ReduceOp::sum, "",
                [&](const cl::Buffer& buffer) {
                  std::size_t i = 0;
                  while (b.rotation[i]() != buffer()) ++i;
                  bc::reduce(vectors[i].begin(), vectors[i].end(), sum.begin(), bc::plus<float>(), queue);
                },
                [&]() {
                  float s = 0;
                  bc::copy(sum.begin(), sum.end(), &s, queue);
                  Outcome got;
                  got.value = s;
                  return compare(DType::f32, ReduceOp::sum, got, b.want[ReduceOp::sum], b.scale);
                });
    }
#endif
#ifdef MEMOPS_HAVE_CLBLAST
    cl::Buffer peer_out(env.context, CL_MEM_READ_WRITE, 64);
    Big& b = big_for(DType::f32);
    time_peer("CLBlast sum (Ssum)", DType::f32, ReduceOp::sum, "",
              [&](const cl::Buffer& x) {
                cl_command_queue q = env.queue();
                cl_event e = nullptr;
                const auto s = CLBlastSsum(n_big, peer_out(), 0, x(), 0, 1, &q, &e);
                if (s != CLBlastSuccess) throw std::runtime_error("CLBlastSsum status " + std::to_string(s));
                if (e) clReleaseEvent(e);
              },
              [&]() {
                Outcome got = read_result(env, peer_out, DType::f32, ReduceOp::sum, 0);
                return compare(DType::f32, ReduceOp::sum, got, b.want[ReduceOp::sum], b.scale);
              });
    time_peer("CLBlast amax (iSamax)", DType::f32, ReduceOp::argmax, "index of max |x|",
              [&](const cl::Buffer& x) {
                cl_command_queue q = env.queue();
                cl_event e = nullptr;
                const auto s = CLBlastiSamax(n_big, peer_out(), 0, x(), 0, 1, &q, &e);
                if (s != CLBlastSuccess) throw std::runtime_error("CLBlastiSamax status " + std::to_string(s));
                if (e) clReleaseEvent(e);
              },
              [&]() {
                // inputs are in [0, 1): max |x| is max x; amax need not return the first of equal maxima
                const Outcome got = read_result(env, peer_out, DType::f32, ReduceOp::argmax, 0);
                const float* x = b.data.as<float>();
                const std::int64_t want = b.want[ReduceOp::argmax].integer;
                if (got.integer >= 0 && got.integer < n_big && x[got.integer] == x[want]) {
                  return got.integer == want ? std::string() : std::string("a later index of the maximum");
                }
                return compare(DType::f32, ReduceOp::argmax, got, b.want[ReduceOp::argmax], 0);
              });
#endif
  }

  // Check data per type: sums and extremes, long enough for every check size and offset.
  long check_len = 16 + 16;
  for (long n : kCheckSizes) {
    if (n <= check_max) check_len = std::max(check_len, n + 16);
  }
  std::map<std::pair<DType, int>, std::pair<HostData, cl::Buffer>> check_data;
  auto check_set = [&](DType t, int kind) -> std::pair<HostData, cl::Buffer>& {
    auto key = std::make_pair(t, kind);
    if (auto it = check_data.find(key); it != check_data.end()) return it->second;
    HostData d = make_data(t, check_len, kind, rng);
    cl::Buffer buffer(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, d.bytes.size(), d.bytes.data());
    return check_data.emplace(key, std::make_pair(std::move(d), buffer)).first->second;
  };
  // NaN / infinity cases for floating types: (n, {index, value}) with the rest from the extreme set.
  struct Special {
    long n;
    std::vector<std::pair<long, double>> set;
    bool all_inf = false;
  };
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<Special> specials = {
      {1, {{0, nan}}},
      {1000, {{300, nan}, {700, nan}}},
      {1000, {{0, nan}}},
      {4099, {{4098, nan}}},
      {100003, {{65536, -inf}, {70000, -inf}, {99999, nan}}},
      {100003, {{5, inf}, {50000, -inf}, {7, inf}}},
      {1000, {}, true},
      {257, {{3, -inf}, {200, inf}}},
  };

  // One workspace for every check run, sized for the largest plan: what the runtime will keep, and a
  // buffer that is never reallocated (oclgrind reports false uninitialized reads when a freed buffer's
  // address is reused by a larger one).
  std::size_t check_workspace_bytes = 64;
  for (const std::string& text : config_texts) {
    for (long n : kCheckSizes) {
      if (n <= check_max) check_workspace_bytes = std::max(check_workspace_bytes, make_plan(Variant(text), n, 4).workspace_bytes);
    }
    if (accuracy && check_max >= (1L << 26)) check_workspace_bytes = std::max(check_workspace_bytes, make_plan(Variant(text), 1L << 26, 4).workspace_bytes);
  }
  cl::Buffer check_workspace(env.context, CL_MEM_READ_WRITE, check_workspace_bytes);

  int failures = 0;
  for (const std::string& text : config_texts) {
    Variant v(text);
    Row r{"ours", text, cl_name(v.dtype), tilecl::reference::to_string(v.op), "ok", ""};
    try {
      // USE_SUBGROUPS=1 on a device without cl_khr_subgroups: check the code path with sub-groups of one
      // work-item (a test shim prepended here, never part of the kernel file); timing is meaningless then.
      const bool shim = v.config.value("USE_SUBGROUPS", 0) && !subgroups;
      if (shim) r.note = "sub-group shim (size 1)";
      const auto compile_start = std::chrono::steady_clock::now();
      cl::Program program = build_program(env, (shim ? std::string(kSubGroupShim) : std::string()) + source,
                                          v.options() + " -cl-std=CL1.2");
      Program k{cl::Kernel(program, ("reduce_" + v.config.variant).c_str()), cl::Kernel(program, "reduce_partials")};
      r.compile_s = seconds_since(compile_start);
      for (cl::Kernel* kernel : {&k.first, &k.partials}) {
        const std::size_t limit = kernel->getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(env.device);
        if (v.config.variant != "chunked" && std::size_t(v.wg) > limit) {
          throw std::runtime_error("WG_X " + std::to_string(v.wg) + " > kernel limit " + std::to_string(limit));
        }
      }
      auto run_once = [&](const cl::Buffer& x, long n, long x_offset, long result_offset) {
        const Plan plan = make_plan(v, n, result_offset);
        if (std::getenv("MEMOPS_TRACE")) {
          std::printf("  run n=%ld x_offset=%ld result_offset=%ld passes=%zu P1=%ld workspace=%zu\n", n, x_offset,
                      result_offset, plan.passes.size(), plan.partials, plan.workspace_bytes);
        }
        if (plan.workspace_bytes > check_workspace_bytes) throw std::runtime_error("check workspace too small");
        env.queue.enqueueFillBuffer(result, std::uint8_t(0xA7), 0, 64 * 8);
        enqueue_plan(env, k, v, plan, static_cast<int>(n), x, x_offset, check_workspace, result, nullptr);
        return read_result(env, result, v.dtype, v.op, result_offset);
      };
      if (verify) {
        const int kind = v.op == ReduceOp::sum ? 0 : 1;
        auto& [data, buffer] = check_set(v.dtype, kind);
        std::size_t case_index = 0;
        for (long n : kCheckSizes) {
          if (n > check_max) continue;
          const long off = kCheckOffsets[case_index % kCheckOffsets.size()];
          const long result_offset = static_cast<long>(case_index % 5);
          ++case_index;
          const Outcome got = run_once(buffer, n, off, result_offset);
          const Outcome want = expected_of(data, v.op, off, n);
          const std::string bad = compare(v.dtype, v.op, got, want, sum_abs_of(data, off, n));
          if (!bad.empty()) throw std::runtime_error("WRONG n=" + std::to_string(n) + " offset " + std::to_string(off) + ": " + bad);
        }
        if (v.op == ReduceOp::sum) {  // n = 0 gives 0
          const Outcome got = run_once(buffer, 0, 0, 2);
          if (got.value != 0 || got.integer != 0) throw std::runtime_error("WRONG n=0 sum is not 0");
        }
        if (v.dtype != DType::i32) {
          for (const Special& sp : specials) {
            if (sp.n > check_max) continue;
            HostData d = make_data(v.dtype, sp.n + 3, 1, rng);
            for (long i = 0; i < sp.n; ++i) {
              double value = sp.all_inf ? inf : (v.dtype == DType::f32 ? d.as<float>()[i + 3] : d.as<double>()[i + 3]);
              for (const auto& [at, set] : sp.set) {
                if (at == i) value = set;
              }
              if (v.dtype == DType::f32) d.as<float>()[i + 3] = static_cast<float>(value);
              else d.as<double>()[i + 3] = value;
            }
            cl::Buffer x(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, d.bytes.size(), d.bytes.data());
            const Outcome got = run_once(x, sp.n, 3, 1);
            const Outcome want = expected_of(d, v.op, 3, sp.n);
            const std::string bad = compare(v.dtype, v.op, got, want, sum_abs_of(d, 3, sp.n));
            if (!bad.empty()) {
              throw std::runtime_error("WRONG NaN/inf case n=" + std::to_string(sp.n) + ": " + bad);
            }
          }
        }
        if (v.dtype == DType::i32 && v.op != ReduceOp::sum) {  // extremes of the type itself
          std::vector<std::int32_t> d(300, INT_MAX);
          d[250] = INT_MIN;
          d[260] = INT_MIN;
          cl::Buffer x(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, d.size() * 4, d.data());
          const Outcome got = run_once(x, 300, 0, 0);
          HostData hd{DType::i32, std::vector<std::uint8_t>(d.size() * 4)};
          std::memcpy(hd.bytes.data(), d.data(), hd.bytes.size());
          const std::string bad = compare(v.dtype, v.op, got, expected_of(hd, v.op, 0, 300), 0);
          if (!bad.empty()) throw std::runtime_error("WRONG INT_MIN/INT_MAX case: " + bad);
        }
        // The accuracy promise: a float sum of 2^26 values in [0, 1) within 1e-6 of the double reference.
        if (accuracy && v.dtype == DType::f32 && v.op == ReduceOp::sum && check_max >= (1L << 26)) {
          static HostData unit;
          static cl::Buffer unit_buffer;
          static double unit_sum = 0;
          if (unit.bytes.empty()) {
            unit = make_data(DType::f32, 1L << 26, 0, rng, true);
            unit_buffer = cl::Buffer(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, unit.bytes.size(),
                                     unit.bytes.data());
            unit_sum = tilecl::reference::sum(unit.as<float>(), unit.count());
          }
          const Outcome got = run_once(unit_buffer, 1L << 26, 0, 0);
          const double rel = std::fabs(got.value - unit_sum) / unit_sum;
          if (!(rel <= 1e-6)) {
            char text[120];
            std::snprintf(text, sizeof text, "WRONG 2^26 sum: relative error %.3g > 1e-6", rel);
            throw std::runtime_error(text);
          }
          char text[64];
          std::snprintf(text, sizeof text, "2^26 rel err %.1e", rel);
          r.note = text;
        }
      }
      if (!verify_only) {
        Big& b = big_for(v.dtype);
        const Plan plan = make_plan(v, n_big, 0);
        cl::Buffer workspace(env.context, CL_MEM_READ_WRITE, plan.workspace_bytes);
        const Timing tm = timer.time(
            [&](int rep, std::vector<cl::Event>& events) {
              enqueue_plan(env, k, v, plan, static_cast<int>(n_big), b.rotation[rep % b.rotation.size()], 0, workspace,
                           result, &events);
            },
            warmup, reps);
        r.median_s = tm.median_s;
        r.kernel_s = tm.kernel_median_s;
        r.pass1_s = tm.each_kernel_median_s.empty() ? 0 : tm.each_kernel_median_s[0];
        char text[96];
        std::snprintf(text, sizeof text, "%spass1 %.0f GB/s, %zu passes", r.note.empty() ? "" : "; ",
                      gbps_of(v.dtype, r.pass1_s), plan.passes.size());
        r.note += text;
        r.gbps = gbps_of(v.dtype, tm.median_s);
        r.pct_copy = 100 * r.gbps / copy_gbps;
        r.partials = plan.partials;
        r.passes = static_cast<long>(plan.passes.size());
        r.workspace_bytes = static_cast<long>(plan.workspace_bytes);
        auto p = peer_gbps.find({v.dtype, v.op});
        r.vs_peer = p != peer_gbps.end() ? r.gbps / p->second : 0;
        const Outcome got = read_result(env, result, v.dtype, v.op, 0);
        const std::string bad = compare(v.dtype, v.op, got, b.want[v.op], b.scale);
        if (!bad.empty()) throw std::runtime_error("WRONG at n=" + std::to_string(n_big) + ": " + bad);
      }
    } catch (const cl::Error& e) {
      r.status = std::string("ERROR ") + e.what() + " " + std::to_string(e.err());
    } catch (const std::exception& e) {
      r.status = std::string("ERROR ") + e.what();
    }
    if (r.status != "ok") ++failures;
    record(r);
  }

  std::printf("\n== reduce summary: %s, n = %ld, copy %.1f GB/s, %d failures, %.1f s ==\n", env.device_name.c_str(),
              n_big, copy_gbps, failures, seconds_since(start));
  std::map<std::string, const Row*> best;
  for (const Row& r : rows) {
    if (r.kind != "ours" || r.status != "ok") continue;
    const std::string key = r.dtype + " " + r.op + " " + parse_config(r.name).variant;
    if (!best.count(key) || best[key]->gbps < r.gbps) best[key] = &r;
  }
  for (const Row& r : rows) {
    if (r.kind != "ours") print_row(r);
  }
  std::printf("-- best per type, op and variant:\n");
  for (const auto& [key, r] : best) print_row(*r);
  std::vector<const Row*> top;
  for (const Row& r : rows) {
    if (r.kind == "ours" && r.status == "ok" && r.dtype == "float" && r.op == "sum") top.push_back(&r);
  }
  std::sort(top.begin(), top.end(), [](const Row* a, const Row* b) { return a->gbps > b->gbps; });
  std::printf("-- top float sum configurations:\n");
  for (std::size_t i = 0; i < std::min<std::size_t>(top.size(), 6); ++i) print_row(*top[i]);
  for (const Row& r : rows) {
    if (r.kind == "ours" && r.status != "ok") print_row(r);
  }
  JsonRecord header;
  header.add("family", "reduce").add("device", env.device_name).add("platform", env.platform_name)
      .add("driver", env.device.getInfo<CL_DRIVER_VERSION>()).add("date", now_text()).add("seed", static_cast<long>(seed))
      .add("n", n_big).add("reps", reps).add("copy_gbps", copy_gbps).add("subgroups", subgroups)
      .add("launch_gap_s", timer.idle_seconds())
      .add("wall_s", seconds_since(start));
  write_json(json_path, header, json_rows);
  return failures ? 1 : 0;
}
