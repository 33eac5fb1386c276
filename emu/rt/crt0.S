/* crt0.S -- boot code of the virtual DPU (see emu/vdpu/abi.h).
 * The loader sets each tasklet's sp to the top of its static stack
 * (__sys_stack_table) and starts tasklet 0 at __bootstrap. Tasklet 0 runs
 * the .init_array constructors, then starts the other tasklets (VDPU_SYS_BOOT).
 * Every tasklet calls main(); when main returns the tasklet stops (EXIT).
 * The host-visible words the SDK's crt0 always defines are here too, so a
 * host can read them by name whatever the DPU code refers to. */
    .section .text.__bootstrap,"ax",@progbits
    .globl __bootstrap
    .type __bootstrap,@function
__bootstrap:
    csrr    t0, mhartid
    bnez    t0, 2f
    la      s0, __init_array_start
    la      s1, __init_array_end
1:  beq     s0, s1, 3f
    lw      t1, 0(s0)
    jalr    t1
    addi    s0, s0, 4
    j       1b
3:  li      a7, 15          /* VDPU_SYS_BOOT */
    ecall
2:  call    main
    li      a7, 0           /* VDPU_SYS_EXIT */
    ecall
4:  j       4b
    .size __bootstrap, .-__bootstrap

/* DPU clock in Hz; the loader overwrites it with the configured clock (a
 * host converts perfcounter cycles with it). */
    .section .data.__sys_host.CLOCKS_PER_SEC,"aw",@progbits
    .p2align 3
    .globl CLOCKS_PER_SEC
    .type CLOCKS_PER_SEC,@object
    .size CLOCKS_PER_SEC,4
CLOCKS_PER_SEC:
    .word 350000000
/* the SDK's crt0 reserves this host-visible word for the runtime's error
 * reports; nothing writes it here, it reads 0 */
    .section .data.__sys_host.error_storage,"aw",@progbits
    .p2align 3
    .globl error_storage
    .type error_storage,@object
    .size error_storage,4
error_storage:
    .word 0
