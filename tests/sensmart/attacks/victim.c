/* The victim of the attack suite (attacks.toml): keeps a pattern in its stack and its
 * globals, publishes where the stack pattern lies, sleeps while the attackers run, then
 * checks that its memory, a kernel datum and its own TCB are unchanged and that every
 * attacker ended in its fault policy. */
#include <cactus/cactus.h>
#include <stdint.h>
#include "cactus_firmware.h"

#define WORDS 64
#define ATTACKS 10
#define TCB_BASE_PRIO 157 /* struct k_tcb's base_prio (kernel/core/k.h) */
#define TCB_SIZE 160

extern volatile uint32_t *attack_victim_stack;
extern uint32_t k_slice_ticks; /* kernel data an attacker targets */
extern uint8_t k_tasks[];      /* the TCBs */

volatile uint32_t victim_global[WORDS];
volatile uint32_t victim_hijacked;

static const char *const names[ATTACKS] = {
    "stack_ptr",  "globals_ptr", "stack_overflow", "memcpy_globals", "memset_stack",
    "kernel_data", "tcb",        "return_address", "fptr_task_code", "fptr_kernel_code",
};

static uint32_t pattern(uint32_t i, uint32_t salt)
{
    return (i * 2654435761u) ^ salt;
}

/* Where a hijacked attacker ends up (a corrupted return address or a forged pointer): it
 * marks the victim's memory and ends the attacker. */
void victim_secret(void)
{
    victim_hijacked = 1;
    kprintf("HIJACKED: victim_secret runs in task %d\n", cactus_task_self());
    cactus_task_exit();
}

void victim_main(void *arg)
{
    (void)arg;
    volatile uint32_t local[WORDS];
    uint32_t sum = 0;
    for (uint32_t i = 0; i < WORDS; i++) {
        local[i] = pattern(i, 0x5a5a0000u);
        victim_global[i] = pattern(i, 0xa5a50000u);
        sum += local[i] + victim_global[i];
    }
    uint32_t slice = k_slice_ticks;
    uint8_t prio = k_tasks[FW_TASK_VICTIM * TCB_SIZE + TCB_BASE_PRIO];
    attack_victim_stack = &local[WORDS / 2];
    cactus_sleep(50); /* every attacker runs to its end meanwhile */

    uint32_t check = 0;
    for (uint32_t i = 0; i < WORDS; i++)
        check += local[i] + victim_global[i];
    int stopped = 0;
    for (int a = 0; a < ATTACKS; a++) {
        int state = cactus_task_state(FW_TASK_VICTIM + 1 + a);
        int ok = state == CACTUS_TASK_FAULTED;
        stopped += ok;
        kprintf("attack %d %s: %s\n", a + 1, names[a], ok ? "stopped" : "NOT stopped");
    }
    int intact = check == sum && !victim_hijacked && k_slice_ticks == slice &&
                 k_tasks[FW_TASK_VICTIM * TCB_SIZE + TCB_BASE_PRIO] == prio;
    kprintf("victim memory: checksum %08x, want %08x; hijacked %u; kernel datum %s; TCB %s\n",
            check, sum, victim_hijacked, k_slice_ticks == slice ? "unchanged" : "CHANGED",
            k_tasks[FW_TASK_VICTIM * TCB_SIZE + TCB_BASE_PRIO] == prio ? "unchanged"
                                                                       : "CHANGED");
    kprintf("attacks_tried=%d attacks_stopped=%d\n", ATTACKS, stopped);
    if (stopped == ATTACKS && intact) {
        kprintf("PASS attacks\n");
        cactus_exit(0);
    }
    kprintf("FAIL attacks\n");
    cactus_exit(1);
}
