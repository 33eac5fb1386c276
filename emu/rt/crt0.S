/* crt0.S -- boot code of the virtual DPU (see emu/vdpu/abi.h).
 * The loader sets each tasklet's sp to the top of its static stack
 * (__sys_stack_table) and starts tasklet 0 at __bootstrap. Tasklet 0 runs
 * the .init_array constructors, then starts the other tasklets (VDPU_SYS_BOOT).
 * Every tasklet calls main(); when main returns the tasklet stops (EXIT). */
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
