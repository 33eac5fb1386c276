/* dpu_isa.h -- shared by tests/emu/progs/dpu_isa.c and tests/emu/test_vdpu.c */
#define DISA_N     64 /* random operand triples */
#define DISA_NOUT  44 /* results per triple (at least the number dpu_isa.c writes) */
#define DISA_NCOST 36
