# cmake -P check: compiles SOURCE (syntax only) twice with COMPILER and the flags in FLAGS (a ;-list):
#   - as is: it must compile;
#   - with -DTILECL_UNSUPPORTED and FAIL_FLAGS (no limit on the number of errors): it must fail with one failed static_assert per op in OPS (a ;-list; the source
#     names each with a type of its own, so each is reported) and no other error, and the diagnostics must
#     contain every message in MESSAGES (a ;-list).
foreach(variable COMPILER SOURCE FLAGS OPS MESSAGES)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "check_compile.cmake: ${variable} is not set")
  endif()
endforeach()

execute_process(COMMAND ${COMPILER} ${FLAGS} -fsyntax-only ${SOURCE} RESULT_VARIABLE status ERROR_VARIABLE errors
                OUTPUT_VARIABLE output)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the supported element types do not compile:\n${errors}")
endif()

execute_process(COMMAND ${COMPILER} ${FLAGS} ${FAIL_FLAGS} -DTILECL_UNSUPPORTED -fsyntax-only ${SOURCE} RESULT_VARIABLE status
                ERROR_VARIABLE errors OUTPUT_VARIABLE output)
if(status EQUAL 0)
  message(FATAL_ERROR "unsupported element types compiled: the static_asserts do not fire")
endif()
set(missing "")
foreach(text IN LISTS MESSAGES)
  string(FIND "${errors}" "${text}" found)
  if(found EQUAL -1)
    list(APPEND missing "the message '${text}'")
  endif()
endforeach()
if(missing)
  list(JOIN missing "\n  " missing_text)
  message(FATAL_ERROR "the diagnostics lack\n  ${missing_text}\ndiagnostics:\n${errors}")
endif()
# gcc: "error: static assertion failed: ...", clang: "error: static_assert failed ..." followed by "no matching
# function for call to '<op>'" (the failed substitution), which is not another error.
string(REGEX MATCHALL "error: static.assert(ion)? failed" failures "${errors}")
string(REGEX REPLACE "error: no matching function for call to '[a-z_0-9]+'" "" other_errors "${errors}")
string(REGEX MATCHALL "error: " all_errors "${other_errors}")
list(LENGTH failures count)
list(LENGTH all_errors error_count)
list(LENGTH OPS expected)
if(NOT count EQUAL expected OR NOT error_count EQUAL expected)
  message(FATAL_ERROR "expected ${expected} failed static_asserts (one per op) and no other error, got ${count} of "
                      "${error_count} errors:\n${errors}")
endif()
message(STATUS "unsupported element types: ${count} failed static_asserts, one per op, as expected")
