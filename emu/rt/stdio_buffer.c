/* stdio_buffer.c -- the default 1 MiB printf buffer. It is a separate archive
 * member so that a program defining its own with STDOUT_BUFFER_INIT(size)
 * does not get this one too (the linker only pulls this file in when
 * __stdout_buffer is otherwise undefined). */
#include <mram.h>
#include <stdint.h>

#define DEFAULT_STDOUT_BUFFER_SIZE (1u << 20)

__mram_noinit uint8_t __stdout_buffer[DEFAULT_STDOUT_BUFFER_SIZE];
const uint32_t __attribute__((used)) __stdout_buffer_size = DEFAULT_STDOUT_BUFFER_SIZE;
