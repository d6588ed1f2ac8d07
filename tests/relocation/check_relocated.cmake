# cmake -P check (the tests.relocated CTest): a test folder copied elsewhere runs on its own. Copies the test
# executable, its probe and test-data/ (the kernel sources) from TESTS_DIR into WORK/moved, runs there, from /,
# the test cases that start the probe and read the kernel sources, and checks they passed using the copies
# (the banner names the paths in use).
foreach(variable TESTS_DIR WORK)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "check_relocated.cmake: ${variable} is not set")
  endif()
endforeach()
set(moved ${WORK}/moved)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${moved})
file(COPY ${TESTS_DIR}/tilecl_tests ${TESTS_DIR}/tilecl_test_probe ${TESTS_DIR}/test-data DESTINATION ${moved})
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env --unset=TILECL_TEST_PROBE --unset=TILECL_TEST_SOURCE_DIR --unset=TILECL_CACHE_DIR
          ${moved}/tilecl_tests --no-intro=true
          "--test-case=kernel sources: the embedded text*,binary cache: a second process finds*"
  WORKING_DIRECTORY /
  RESULT_VARIABLE status
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)
file(REMOVE_RECURSE ${WORK})
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the relocated tests failed (exit status ${status}):\n${output}")
endif()
foreach(expected "probe: ${moved}/tilecl_test_probe" "kernel sources: ${moved}/test-data" "test cases: *2 | *2 passed")
  if(NOT output MATCHES "${expected}")
    message(FATAL_ERROR "the relocated run's output lacks '${expected}':\n${output}")
  endif()
endforeach()
message(STATUS "a copy of the test folder ran with its own probe and kernel sources:\n${output}")
