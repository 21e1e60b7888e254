# SPDX-License-Identifier: Apache-2.0
# Usage: cmake -DCXX=c++ -DFLAGS="-Ia|-Ib" -DHEADER=ui/mainwindow.h -P probe_include.cmake
# Passes only when the compiler refuses the include because the header is not on the include path.
string(REPLACE "|" ";" flags "${FLAGS}")
string(RANDOM LENGTH 8 tag)
set(probe "${CMAKE_CURRENT_BINARY_DIR}/layering_probe_${tag}.cpp")
file(WRITE "${probe}" "#include \"${HEADER}\"\n")
execute_process(COMMAND ${CXX} -fsyntax-only ${flags} "${probe}" RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
file(REMOVE "${probe}")
if(rc EQUAL 0)
    message(FATAL_ERROR "${HEADER} is reachable with ${flags}: the include rule is not enforced")
endif()
string(FIND "${err}" "${HEADER}: No such file or directory" at)
if(at LESS 0)
    message(FATAL_ERROR "the probe failed for another reason than a missing ${HEADER}:\n${err}")
endif()
message(STATUS "${HEADER} is out of reach with ${flags}")
