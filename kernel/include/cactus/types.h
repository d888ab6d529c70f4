/* Cactus public types: task descriptors, configuration, kernel objects (allocated by the user,
 * initialised by cactus_*_init) and status codes. Fields of kernel objects are private. */
#ifndef CACTUS_TYPES_H
#define CACTUS_TYPES_H

#include <stdint.h>

/* Status codes returned by kernel calls (0 = success). */
enum cactus_status {
    CACTUS_OK = 0,
    CACTUS_ETIMEOUT = -1, /* not obtained within the timeout (including CACTUS_NO_WAIT) */
    CACTUS_EINVAL = -2,   /* bad argument */
    CACTUS_ENOMEM = -3,   /* no free task slot or stack memory */
    CACTUS_EPERM = -4,    /* caller is not the mutex owner */
    CACTUS_EDEADLK = -5,  /* caller already owns the mutex */
    CACTUS_EFULL = -6,    /* semaphore already at its maximum */
    CACTUS_ESRCH = -7,    /* no such (live) task */
};

#define CACTUS_NO_WAIT 0u
#define CACTUS_FOREVER 0xFFFFFFFFu
#define CACTUS_PRIO_LEVELS 32 /* priorities 0 (lowest) .. 31 (highest) */

/* What happens to a task that faults or runs out of stack. */
enum cactus_fault_policy {
    CACTUS_ON_FAULT_KILL = 0,    /* terminate it and call the fault hook */
    CACTUS_ON_FAULT_RESTART = 1, /* call the fault hook, restart it from its entry on a fresh stack */
    CACTUS_ON_FAULT_HALT = 2,    /* print a report, call the halt hook, stop the system */
};

enum cactus_fault_reason {
    CACTUS_FAULT_STACK_SP = 1,         /* saved sp below the stack limit at a switch */
    CACTUS_FAULT_STACK_GUARD = 2,      /* guard pattern at the stack end overwritten */
    CACTUS_FAULT_STACK_REQUEST = 3,    /* instrumented code asked for more than the stack has */
    CACTUS_FAULT_STACK_COLLATERAL = 4, /* another task's overflow reached this task's stack */
    CACTUS_FAULT_EXCEPTION = 5,        /* CPU exception (cause/pc/tval say which) */
    CACTUS_FAULT_ISOLATION = 6,        /* isolate pass: access outside the task's regions */
};

enum cactus_task_state {
    CACTUS_TASK_FREE = 0, /* slot unused */
    CACTUS_TASK_READY,
    CACTUS_TASK_RUNNING,
    CACTUS_TASK_BLOCKED,
    CACTUS_TASK_SLEEPING,
    CACTUS_TASK_SUSPENDED, /* off every queue until cactus_task_resume (core/suspend.c) */
    CACTUS_TASK_EXITED,  /* terminated: returned or called cactus_task_exit */
    CACTUS_TASK_KILLED,  /* terminated by cactus_task_kill */
    CACTUS_TASK_FAULTED, /* terminated by its fault policy */
};

/* An interrupt handler; `source` is the PLIC source it serves (CACTUS_IRQ_SOFTWARE for the
 * machine software interrupt). */
typedef void (*cactus_isr)(uint32_t source);
#define CACTUS_IRQ_SOFTWARE 0u

/* A task's creation parameters. The kernel keeps a pointer to it (for restarts and names):
 * it must stay valid while the task lives (use static const tables). */
typedef struct cactus_task_desc {
    const char *name;
    void (*entry)(void *arg);
    void *arg;
    uint32_t stack_size; /* bytes, rounded up to 16; includes the strategy's guard */
    uint8_t prio;        /* 0 .. CACTUS_PRIO_LEVELS-1, higher runs first */
    uint8_t on_fault;    /* enum cactus_fault_policy */
    /* CACTUS_START_SUSPENDED (any non-zero value): created suspended, it first runs after a
     * cactus_task_resume (the flag is honoured by core/suspend.c, linked into every firmware
     * that calls cactus_task_resume or cactus_task_suspend); CACTUS_START_READY (0, the
     * default): created ready. */
    uint8_t start;
} cactus_task_desc;

#define CACTUS_START_READY 0u
#define CACTUS_START_SUSPENDED 1u

/* A fault report given to the fault and halt hooks. */
typedef struct cactus_fault {
    uint8_t reason; /* enum cactus_fault_reason */
    uint8_t action; /* enum cactus_fault_policy applied */
    uint16_t task;  /* task id */
    uint32_t cause; /* mcause for exceptions, else 0 */
    uint32_t pc;    /* faulting pc (exceptions) */
    uint32_t tval;  /* mtval (exceptions) */
    uint32_t sp;    /* task sp when detected */
    uint32_t limit; /* lowest valid sp of the task's stack */
    uint32_t requested; /* bytes asked for (CACTUS_FAULT_STACK_REQUEST) */
} cactus_fault;

typedef struct cactus_config {
    uint32_t tick_hz;     /* tick rate; 0 = 1000 */
    uint32_t slice_ticks; /* round-robin time slice in ticks; 0 = 1 */
    const cactus_task_desc *tasks; /* created in order before the first task runs */
    uint32_t ntasks;
    /* Called (kernel context, interrupts masked, must not block) on every fault. */
    void (*fault_hook)(const cactus_fault *f);
    /* Called when the system halts (fault policy or kernel panic); if it returns, the system
     * exits through the finisher with code CACTUS_EXIT_HALT. */
    void (*halt_hook)(const cactus_fault *f);
} cactus_config;

/* Exit codes the kernel itself uses with the finisher. */
#define CACTUS_EXIT_PANIC 2 /* kernel bug or misuse */
#define CACTUS_EXIT_HALT 3  /* a fault policy halted the system */
#define CACTUS_EXIT_IDLE 3  /* no task can ever run again (deadlock, or all dead): like a halt */

typedef struct cactus_stats {
    uint32_t tick_irqs;     /* periodic tick interrupts taken */
    uint32_t idle_wakeups;  /* tickless-idle wake-ups */
    uint32_t switches;      /* task switches */
} cactus_stats;

typedef struct cactus_stack_info {
    uint32_t base, size; /* the task's whole stack region (guard included) */
    uint32_t limit;      /* lowest valid sp */
    uint32_t used;       /* high-water mark in bytes, from the painted watermark */
} cactus_stack_info;

/* Private: intrusive list node and wait-object header. */
typedef struct cactus_node {
    struct cactus_node *next, *prev;
} cactus_node;

typedef struct cactus_wait {
    cactus_node *head; /* waiting tasks, highest priority first, FIFO among equals */
    uint8_t kind;
} cactus_wait;

typedef struct cactus_sem {
    cactus_wait w;
    uint32_t count, max;
} cactus_sem;

typedef struct cactus_mutex {
    cactus_wait w;
    void *owner; /* struct k_tcb * */
    struct cactus_mutex *next_held;
} cactus_mutex;

typedef struct cactus_queue {
    cactus_wait w; /* receivers while empty, senders while full */
    uint8_t *buf;
    uint16_t item_size, capacity, head, count;
} cactus_queue;

typedef struct cactus_event {
    cactus_wait w;
    uint32_t bits;
} cactus_event;

/* Direct-to-task notification actions (cactus_notify). */
enum cactus_notify_action {
    CACTUS_NOTIFY_SET_BITS = 0,  /* value |= v */
    CACTUS_NOTIFY_INCREMENT = 1, /* value += 1 (v ignored) */
    CACTUS_NOTIFY_OVERWRITE = 2, /* value = v */
    CACTUS_NOTIFY_SET_IF_NONE = 3, /* value = v unless a notification is pending (CACTUS_EFULL) */
    CACTUS_NOTIFY_SIGNAL = 4,    /* value unchanged: only marks a notification pending */
};

/* A software timer (core/swtimer.c): initialised by cactus_timer_init, its callback runs in
 * the timer task (cactus_timer_task). Fields are private. */
typedef struct cactus_timer {
    struct cactus_timer *next; /* active timers, by deadline */
    uint32_t deadline;         /* tick of the next expiry while active */
    uint32_t period;           /* ticks, >= 1 */
    void (*callback)(struct cactus_timer *t);
    void *arg;
    const char *name;
    uint8_t periodic, active;
} cactus_timer;

/* The timer task's argument: the timers it starts when it first runs (the autostart ones). */
typedef struct cactus_timer_table {
    cactus_timer *const *timers;
    uint32_t n;
} cactus_timer_table;
/* A fixed-block pool: `count` blocks of `block` bytes carved from a caller's buffer. Freed
 * blocks form a LIFO list linked through their first word; blocks never handed out yet are
 * taken from `fresh` upwards, so `fresh - base` is the most blocks ever in use at once (a
 * fresh block is taken only when every block handed out before is in use). */
typedef struct cactus_pool {
    cactus_wait w;  /* tasks waiting for a block */
    void *free;     /* freed blocks, LIFO, linked through their first word */
    uint8_t *fresh; /* the next block never handed out (== end: none left) */
    uint8_t *base;  /* the first block */
    uint8_t *end;   /* base + block * count */
    uint32_t block; /* bytes per block, a multiple of 4 */
    /* free's O(1) block test (core/pool.c): the inverse of block's odd part modulo 2^32, the
     * low bits below block's lowest set bit, and count times that bit */
    uint32_t inv, mask, lim;
} cactus_pool;

#define CACTUS_EVENT_ALL 1u   /* wait for every bit of the mask (default: any) */
#define CACTUS_EVENT_CLEAR 2u /* clear the matched bits on wake-up */

#endif /* CACTUS_TYPES_H */
