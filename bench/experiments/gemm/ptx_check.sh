#!/bin/bash
# [DTYPE=double] ptx_check.sh [PLAN] : compile every configuration of a sweep plan for NVPTX with clang-15 + libclc-15
# (apt: clang-15 libclc-15) and report, for the kernel the configuration uses, whether it calls
# functions (not inlined) or uses a stack frame (private arrays spilled to local memory). A stand-in for
# NVIDIA's compiler, which is not available here: it catches structural problems (accumulators left in
# memory, helpers not inlined), not register counts.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
plan=${1:-$here/plans/gpu.txt}
clc=/usr/lib/clc/nvptx64--nvidiacl.bc
src=$(mktemp --suffix=.cl); ptx=$(mktemp --suffix=.ptx)
trap 'rm -f "$src" "$ptx"' EXIT
cat "$root/kernels/common.clh" "$root/kernels/gemm.cl" > "$src"
bad=0
while read -r word set variant rest; do
  [ "$word" = "run" ] || continue
  defs=""
  for kv in $rest; do
    case "${kv%%=*}" in SPLIT|LOCAL_X|LOCAL_Y|SOLVE_T) ;; *) defs="$defs -D$kv" ;; esac
  done
  vmacro=GEMM_$(echo "$variant" | tr a-z A-Z)
  for t in "-DTRANS_A=0 -DTRANS_B=0" "-DTRANS_A=1 -DTRANS_B=1"; do
    if ! clang-15 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target nvptx64-nvidia-nvcl -march=sm_80 \
         -O3 -S -Xclang -mlink-builtin-bitcode -Xclang "$clc" -o "$ptx" "$src" -DDTYPE=${DTYPE:-float} -DGEMM_VARIANT=$vmacro $defs $t 2>/dev/null; then
      echo "COMPILE FAILED: $variant $rest $t"; bad=1; continue
    fi
    body=$(awk -v k="gemm_$variant" '$0 ~ "^.entry "k"\\(" {p=1} p && /^}/ {print; exit} p' "$ptx")
    funcs=$(grep -c '^.func' "$ptx")
    depot=$(echo "$body" | grep -c '__local_depot')
    fma=$(echo "$body" | grep -c 'fma.rn')
    lds=$(echo "$body" | grep -c 'ld.shared')
    status=ok; { [ "$funcs" != 0 ] || [ "$depot" != 0 ]; } && { status=PROBLEM; bad=1; }
    printf '%-7s %-8s %-80s %s funcs=%s stack=%s fma=%s ld.shared=%s\n' "$status" "$set" "$variant $rest" "${t//-D/}" "$funcs" "$depot" "$fma" "$lds"
  done
done < "$plan"
exit $bad
