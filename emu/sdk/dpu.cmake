# dpu.cmake -- CMake toolchain file for DPU programs on the virtual UPMEM,
# at the SDK's place (UPMEM_HOME/share/upmem/cmake/dpu.cmake), for projects
# that build their DPU side as a CMake project of its own:
#   cmake -DCMAKE_TOOLCHAIN_FILE=$UPMEM_HOME/share/upmem/cmake/dpu.cmake ...
# (often through ExternalProject_Add). The C compiler is the virtual
# UPMEM's dpu-upmem-dpurte-clang wrapper, which already targets the virtual
# DPU and its runtime: no --target and no sysroot are needed, and the SDK's
# -mcpu=v1A/v1B flags are accepted and ignored.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR dpu)

if(NOT DEFINED UPMEM_HOME)
    if("$ENV{UPMEM_HOME}" STREQUAL "")
        # this file sits in UPMEM_HOME/share/upmem/cmake
        get_filename_component(UPMEM_HOME "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
    else()
        set(UPMEM_HOME "$ENV{UPMEM_HOME}")
    endif()
endif()

set(CMAKE_C_COMPILER "${UPMEM_HOME}/bin/dpu-upmem-dpurte-clang")
set(CMAKE_ASM_COMPILER "${UPMEM_HOME}/bin/dpu-upmem-dpurte-clang")
# the wrapper links whole DPU programs; try_compile builds a library
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_C_COMPILER_FORCED 1)
set(CMAKE_C_COMPILER_ID Clang)
# objects named .o: CMake's Generic platform says .obj, a name the wrapper,
# like any Unix compiler driver, does not take as an object file; rules
# read after the platform's (this folder's dpu-rules.cmake) say .o again
set(CMAKE_USER_MAKE_RULES_OVERRIDE "${CMAKE_CURRENT_LIST_DIR}/dpu-rules.cmake")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
