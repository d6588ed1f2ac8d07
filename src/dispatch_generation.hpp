// The generation of the per-thread dispatch memos (src/ops/op_frame.hpp): a memo entry made under an older
// generation is resolved again. Whatever can change a choice or a program advances it: the tuning API
// (overrides, clear), the resolver (a discarded choice), `tilecl tune`, clear_program_cache and a forgotten
// context. It lives below the ops and the tuning service so that neither depends on the other for it.
#pragma once

#include <cstdint>

namespace tilecl::detail {

// Advances the generation: every thread's memo resolves its entries again.
void invalidate_dispatch_memos();
std::uint64_t dispatch_generation();

}  // namespace tilecl::detail
