// Device-side timing of operations that enqueue several commands and return only the last event (tilecl's
// multi-pass reduce, CLBlast's sum, Boost.Compute's reduce): a one-work-item kernel before and after the
// operation on the same in-order queue; the time is the end of the second minus the start of the first, less
// the same span with nothing between them (measured once per call of time_bracketed).
#pragma once

#include <functional>

#include "bench_context.hpp"

namespace tilecl::bench {

// run(i) enqueues repetition i on context.queue (it may also block on the host). Every implementation timed
// this way pays the same launch gaps, so their ratios are fair.
Timing time_bracketed(BenchContext& context, const std::function<void(int)>& run);

}  // namespace tilecl::bench
