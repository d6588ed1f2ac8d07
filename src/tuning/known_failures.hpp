// Configurations known to fail for a key: the tuning database's failure records and the choices this process
// discarded (a chosen configuration that failed to build or launch). Tuning skips them.
#pragma once

#include <set>
#include <string>

#include "checks.hpp"
#include "tuning/tuning_db.hpp"
#include "tuning/tuning_subject.hpp"

namespace tilecl::detail {

// The configurations (Config::to_string()) known to fail for `key` and the kernel source hash `source`.
std::set<std::string> known_failures(const QueueTarget& target, const TuningRecords& records, const TuningKey& key,
                                     const std::string& source);

// Records a chosen configuration that failed: reported once, written to the database and kept in this process.
void record_failure(const QueueTarget& target, const TuningKey& key, const std::string& source, const Config& failed,
                    const std::string& reason);

}  // namespace tilecl::detail
