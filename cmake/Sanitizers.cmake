# TILECL_SANITIZE: build everything in this project (library, tests, tools) with the named sanitizers,
# e.g. -DTILECL_SANITIZE=address,undefined or -DTILECL_SANITIZE=thread (scripts/checks/sanitizers).
# These are directory-wide options, not target ones, on purpose: a sanitizer only works when every object
# of the process that it can reach is built with it (ThreadSanitizer above all), tests and probe included.
# They are never part of the installed interface. UndefinedBehaviorSanitizer is fatal (no recovery), so a
# report fails the test that triggered it.
set(TILECL_SANITIZE "" CACHE STRING "Sanitizers to build with, as for -fsanitize= (address,undefined or thread)")
if(TILECL_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang|GNU")
    message(FATAL_ERROR "TILECL_SANITIZE needs clang or gcc")
  endif()
  add_compile_options(-fsanitize=${TILECL_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${TILECL_SANITIZE})
  message(STATUS "tilecl: building with -fsanitize=${TILECL_SANITIZE}")
endif()

# TILECL_BUILD_FUZZERS: libFuzzer's coverage instrumentation in every object, the library included (the
# parsers under test live there); tests/fuzz links its targets with -fsanitize=fuzzer.
if(TILECL_BUILD_FUZZERS)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
