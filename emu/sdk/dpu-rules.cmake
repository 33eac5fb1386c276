# dpu-rules.cmake -- read by CMake after its platform files when dpu.cmake
# is the toolchain file (CMAKE_USER_MAKE_RULES_OVERRIDE): DPU objects are
# named .o, which the compiler wrapper takes as objects when linking.
set(CMAKE_C_OUTPUT_EXTENSION .o)
set(CMAKE_ASM_OUTPUT_EXTENSION .o)
