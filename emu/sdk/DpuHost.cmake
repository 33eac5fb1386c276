# DpuHost.cmake -- the host library for CMake projects, at the SDK's place
# (UPMEM_HOME/share/upmem/cmake/include/host/DpuHost.cmake):
#   include(${UPMEM_HOME}/share/upmem/cmake/include/host/DpuHost.cmake)
#   target_include_directories(app PRIVATE ${DPU_HOST_INCLUDE_DIRECTORIES})
#   target_link_directories(app PRIVATE ${DPU_HOST_LINK_DIRECTORIES})
#   target_link_libraries(app PRIVATE ${DPU_HOST_LIBRARIES})
# links the virtual UPMEM's shared libdpu (lib/libdpu.so; upmem_env.sh puts
# lib/ on LD_LIBRARY_PATH, as the SDK's does).
get_filename_component(DPU_HOST_PACKAGE_DIR "${CMAKE_CURRENT_LIST_DIR}/../../../../.." ABSOLUTE)
set(DPU_HOST_INCLUDE_DIRECTORIES "${DPU_HOST_PACKAGE_DIR}/include/dpu")
set(DPU_HOST_LINK_DIRECTORIES "${DPU_HOST_PACKAGE_DIR}/lib")
set(DPU_HOST_LIBRARIES dpu)
