# SPDX-License-Identifier: Apache-2.0
# Each source file of kix_model implements a header of its own name (model/read/x.cpp -> model/read/x.h), so that no header
# is implemented across files that declare nothing themselves.
# Usage: cmake -DMODEL_DIR=<source>/model -P sources_have_headers.cmake
file(GLOB_RECURSE sources RELATIVE "${MODEL_DIR}" "${MODEL_DIR}/*.cpp")
list(FILTER sources EXCLUDE REGEX "^bench/")
set(missing "")
foreach(source IN LISTS sources)
    string(REGEX REPLACE "\\.cpp$" ".h" header "${source}")
    if(NOT EXISTS "${MODEL_DIR}/${header}")
        list(APPEND missing "${source}")
    else()
        file(STRINGS "${MODEL_DIR}/${source}" includes REGEX "^#include \"model/${header}\"")
        if(NOT includes)
            list(APPEND missing "${source} (does not include model/${header})")
        endif()
    endif()
endforeach()
if(missing)
    message(FATAL_ERROR "model sources without a header of their own: ${missing}")
endif()
message(STATUS "${MODEL_DIR}: every source has its own header")
