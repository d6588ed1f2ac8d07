#include "tuning/known_failures.hpp"

#include <mutex>

#include "log.hpp"

namespace tilecl::detail {
namespace {

std::string failure_key(const QueueTarget& target, const TuningKey& key, const std::string& source,
                        const std::string& config) {
  return target.info->fingerprint() + "|" + key.op + "|" + key.dtype + "|" + source + "|" + config;
}

// Failure keys (failure_key()) of the choices this process discarded.
class FailedInProcess {
 public:
  void insert(const std::string& failure) {
    std::lock_guard<std::mutex> lock(mutex_);
    failed_.insert(failure);
  }

  // The configurations of the failure keys that start with `prefix`, added to `configs`.
  void add_configs(const std::string& prefix, std::set<std::string>& configs) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = failed_.lower_bound(prefix); it != failed_.end() && it->rfind(prefix, 0) == 0; ++it)
      configs.insert(it->substr(prefix.size()));
  }

 private:
  std::mutex mutex_;
  std::set<std::string> failed_;
};

FailedInProcess& failed_in_process() {
  static auto* failed = new FailedInProcess;
  return *failed;
}

}  // namespace

std::set<std::string> known_failures(const QueueTarget& target, const TuningRecords& records, const TuningKey& key,
                                     const std::string& source) {
  std::set<std::string> failed;
  for (const auto& failure : records.failures) {
    if (failure.op == key.op && failure.dtype == key.dtype && failure.source_hash == source)
      failed.insert(failure.config);
  }
  failed_in_process().add_configs(failure_key(target, key, source, ""), failed);
  return failed;
}

void record_failure(const QueueTarget& target, const TuningKey& key, const std::string& source, const Config& failed,
                    const std::string& reason) {
  const std::string config = failed.to_string();
  warn_once("tuning-failure:" + failure_key(target, key, source, config),
            "the configuration chosen for " + key.op + " " + key.dtype + " " + key.bucket + " (" + config +
                ") failed: " + reason + "; it is recorded as failing and the key is tuned again without it");
  TuningRecords records;
  records.failures.push_back({key.op, key.dtype, source, config, reason.substr(0, 300)});
  TuningDatabase(*target.info).merge(records);
  failed_in_process().insert(failure_key(target, key, source, config));
}

}  // namespace tilecl::detail
