/* The attackers of the attack suite (attacks.toml): task argument k selects one attack. An
 * attack the isolate pass stops ends the task in its fault policy (kill) before anything is
 * written; one that is not stopped prints so and the task ends normally. */
#include <cactus/cactus.h>
#include <stdint.h>
#include "cactus_firmware.h"

extern volatile uint32_t *attack_victim_stack;
extern volatile uint32_t victim_global[];
extern uint32_t k_slice_ticks;
extern uint8_t k_tasks[];
extern void victim_secret(void);
/* The kernel's (kernel/lib/string.c): no C library headers in a firmware. */
void *memcpy(void *dst, const void *src, __SIZE_TYPE__ n);
void *memset(void *dst, int c, __SIZE_TYPE__ n);

#define TCB_BASE_PRIO 157
#define TCB_SIZE 160
#define BAD 0xbadbad00u

/* Keeps the compiler from seeing through an address (the attacks compute theirs). */
static uintptr_t launder(uintptr_t p)
{
    __asm__ volatile("" : "+r"(p));
    return p;
}

/* A stack-relative overflow: an index into a local array reaching the victim's stack. */
static __attribute__((noinline)) void overflow(uintptr_t target)
{
    volatile uint32_t buf[4];
    int32_t idx = (int32_t)(target - (uintptr_t)&buf[0]) / 4;
    buf[launder((uintptr_t)idx)] = BAD;
    buf[0] = 0;
}

/* Writes one word: the overflowing callee of smash. */
static __attribute__((noinline)) void clobber(volatile uintptr_t *slot, uintptr_t v)
{
    *slot = v;
}

/* Has a callee overwrite its saved return address with `target` (the word below its frame
 * pointer), then returns through it. */
static __attribute__((noinline)) void smash(uintptr_t target)
{
    uintptr_t *fp = __builtin_frame_address(0);
    clobber(&fp[-1], target);
    __asm__ volatile("" ::: "memory"); /* no tail call: ra is saved, reloaded, returned through */
}

void attacker_main(void *arg)
{
    uint32_t k = (uint32_t)(uintptr_t)arg;
    static const uint32_t junk[8] = { BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD };
    switch (k) {
    case 1: /* a computed pointer into the victim's stack */
        *(volatile uint32_t *)launder((uintptr_t)attack_victim_stack) = BAD;
        break;
    case 2: /* the victim's globals, named */
        victim_global[3] = BAD;
        break;
    case 3:
        overflow((uintptr_t)attack_victim_stack);
        break;
    case 4: /* memcpy into the victim's globals */
        memcpy((void *)launder((uintptr_t)victim_global), junk, launder(sizeof junk));
        break;
    case 5: /* memset over the victim's stack */
        memset((void *)launder((uintptr_t)attack_victim_stack), 0, launder(32));
        break;
    case 6: /* kernel data */
        *(volatile uint32_t *)launder((uintptr_t)&k_slice_ticks) = BAD;
        break;
    case 7: /* the victim's TCB */
        *(volatile uint8_t *)launder((uintptr_t)&k_tasks[FW_TASK_VICTIM * TCB_SIZE +
                                                         TCB_BASE_PRIO]) = 0x55;
        break;
    case 8: /* a corrupted return address into the victim's code */
        smash((uintptr_t)victim_secret);
        break;
    case 9: /* a forged function pointer into the victim's code */
        ((void (*)(void))launder((uintptr_t)victim_secret))();
        break;
    case 10: /* a forged function pointer into the kernel's code */
        ((int (*)(const char *, ...))launder((uintptr_t)kprintf))("HIJACKED: kernel code\n");
        break;
    }
    kprintf("attack %u NOT stopped\n", k);
}
