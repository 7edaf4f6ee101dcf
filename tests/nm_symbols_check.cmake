# Shared by the layers checks run in CMake's script mode (arbiter_layers_check.cmake,
# engine_layers_check.cmake): what a program contains, read with nm.
#
# bge_check_symbols(BINARY NM FORBIDDEN FORBIDDEN_NAME WITNESS WITNESS_NAME) appends to the
# caller's `failures` when nm cannot read BINARY, when its symbols match the regex FORBIDDEN, or
# when none matches WITNESS (a symbol it must contain: without it, nm's listing shows nothing and
# the check could not see FORBIDDEN either). It sets the caller's `symbols` to nm's listing.
function(bge_check_symbols binary nm forbidden forbidden_name witness witness_name)
  execute_process(COMMAND "${nm}" -C "${binary}" OUTPUT_VARIABLE listing RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    list(APPEND failures "${nm} could not read ${binary}")
  elseif(listing MATCHES "${forbidden}")
    list(APPEND failures "${binary} contains ${forbidden_name}")
  elseif(NOT listing MATCHES "${witness}")
    list(APPEND failures "${nm} listed no ${witness_name} in ${binary}: the check cannot see ${forbidden_name} either")
  endif()
  set(failures "${failures}" PARENT_SCOPE)
  set(symbols "${listing}" PARENT_SCOPE)
endfunction()
