# Run by CTest (tests/CMakeLists.txt): fails if an engine links the protocol's client side, which
# starts child processes with Linux calls; the engines build for Windows too (docs/install.md).
#   ENGINE      the engine's name;  LIBRARIES  every library target it links, directly or not
#   BINARY, NM  the engine program, and nm to list what it contains
cmake_policy(SET CMP0057 NEW)  # if(IN_LIST), in script mode
include("${CMAKE_CURRENT_LIST_DIR}/nm_symbols_check.cmake")
set(failures)
if(NOT "protocol" IN_LIST LIBRARIES)
  list(APPEND failures "the ${ENGINE} engine's libraries were not read (no protocol among: ${LIBRARIES})")
endif()
if("protocol_client" IN_LIST LIBRARIES)
  list(APPEND failures "${ENGINE} links protocol_client")
endif()
bge_check_symbols("${BINARY}" "${NM}" "bge::protocol::EngineProcess" "EngineProcess" "bge::protocol::LineReader"
                  "bge::protocol::LineReader")
if(symbols MATCHES "[ \t]U (fork|execve|posix_spawn)(@|\n)")
  list(APPEND failures "${BINARY} calls fork, execve or posix_spawn")
endif()
if(failures)
  list(JOIN failures "\n  " text)
  message(FATAL_ERROR "${ENGINE} reaches into the protocol's client side:\n  ${text}")
endif()
message(STATUS "${ENGINE} links no protocol_client, contains no EngineProcess and starts no process")
