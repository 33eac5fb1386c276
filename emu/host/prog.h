/*
 * prog.h -- parsed DPU programs (struct dpu_program_t of <dpu.h>), shared by
 * identical ELF bytes. Layer: prog (see host.h); knows only the virtual DPU.
 */
#ifndef EMU_PROG_H
#define EMU_PROG_H

#include <stddef.h>
#include <stdint.h>

#include "../include/dpu.h"
#include "../vdpu/vdpu.h"

struct dpu_program_t {
    vdpu_program_t *vp;
    uint64_t hash; /* of the ELF bytes (program cache key)  */
    size_t size;
    int refs;   /* DPUs holding it + cache users (prog.c's lock) */
    char *name; /* where it came from: the ELF's path, or "(memory)" */
    struct dpu_program_t *next;
};

/* A program for these ELF bytes, with one reference for the caller: a live
 * identical one is shared (so ranks loaded one by one still hold "the same
 * program"), else parsed once. `what` names the source in the message
 * printed when the ELF is refused (NULL: from memory). */
dpu_error_t emu_program_get(const uint8_t *elf, size_t len, const char *what,
                            struct dpu_program_t **out);
void emu_program_ref(struct dpu_program_t *p);
void emu_program_put(struct dpu_program_t *p);

#endif /* EMU_PROG_H */
