/* Corpus source for the assembly round-trip test: kernel-like code (CSRs, atomics,
 * linked lists, function pointers, switch tables). */
#include <stdint.h>
#include <stddef.h>

struct task {
    struct task *next;
    uint32_t prio;
    uint32_t *sp;
    void (*entry)(void *);
    void *arg;
    char name[12];
};

static struct task *ready;
volatile uint32_t ticks;
static uint32_t counter;
static _Atomic uint32_t atom;
__thread int tls_errno;

static inline uint32_t read_mcycle(void) {
    uint32_t v;
    __asm__ volatile("csrr %0, mcycle" : "=r"(v));
    return v;
}

static inline void enable_irq(void) {
    __asm__ volatile("csrsi mstatus, 8");
}

uint64_t read_cycles64(void) {
    uint32_t hi, lo, hi2;
    do {
        __asm__ volatile("rdcycleh %0" : "=r"(hi));
        __asm__ volatile("rdcycle %0" : "=r"(lo));
        __asm__ volatile("rdcycleh %0" : "=r"(hi2));
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

void insert(struct task *t) {
    struct task **pp = &ready;
    while (*pp && (*pp)->prio >= t->prio)
        pp = &(*pp)->next;
    t->next = *pp;
    *pp = t;
}

struct task *pick(void) {
    struct task *t = ready;
    if (t)
        ready = t->next;
    return t;
}

uint32_t bump(void) {
    enable_irq();
    counter += read_mcycle();
    return __atomic_fetch_add(&atom, 1, __ATOMIC_SEQ_CST);
}

int cas(uint32_t *p, uint32_t old, uint32_t new_) {
    return __atomic_compare_exchange_n(p, &old, new_, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

uint32_t swap_rel(uint32_t *p, uint32_t v) {
    return __atomic_exchange_n(p, v, __ATOMIC_RELEASE);
}

uint32_t and_or(uint32_t *p, uint32_t v) {
    __atomic_fetch_and(p, v, __ATOMIC_ACQ_REL);
    __atomic_fetch_xor(p, v, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
}

int classify(int c) {
    switch (c) {
    case 0: return 11;
    case 1: return 22;
    case 2: return 35;
    case 3: return 47;
    case 4: return 51;
    case 5: return 69;
    case 6: return 71;
    case 7: return 83;
    default: return -1;
    }
}

void run(struct task *t) {
    t->entry(t->arg);
    tls_errno = 0;
}

uint32_t constants(uint32_t x) {
    return (x * 0x12345678u) ^ 0xdeadbeefu ^ (x >> 7) ^ ((int32_t)x >> 3) ^ (x << 13) ^ 0x800u
        ^ (uint32_t)-2048 ^ 0xfffff800u;
}

int compare(int a, int b, unsigned c, unsigned d) {
    int r = 0;
    if (a > b) r |= 1;
    if (a <= b) r |= 2;
    if (c > d) r |= 4;
    if (c <= d) r |= 8;
    if (a == 0) r |= 16;
    if (b != 0) r |= 32;
    if (a < 0) r |= 64;
    if (b > 0) r |= 128;
    r += (a < b) + (c < d) + (a == b) + (a != 0) + (a > 0) + (b < 0);
    return r;
}

void wait_for_irq(void) {
    __asm__ volatile("wfi");
    __asm__ volatile("fence.i");
    __asm__ volatile("fence");
    __asm__ volatile("fence rw,rw");
    __asm__ volatile("ecall");
    __asm__ volatile("ebreak");
}

void trap_return(void) {
    __asm__ volatile("csrw mepc, %0\n\tcsrw mscratch, %1\n\tcsrc mie, %1\n\tcsrs mip, %0\n\tcsrwi mstatus, 3\n\tcsrci mstatus, 8\n\tmret"
                     :: "r"(ticks), "r"(counter));
}

int64_t wide(int64_t a, int64_t b) { return a * b + a / b - (a % 7); }

unsigned divs(unsigned a, unsigned b, int c, int d) {
    return a / b + a % b + (unsigned)(c / d) + (unsigned)(c % d);
}

int32_t mulh(int32_t a, int32_t b) { return (int32_t)(((int64_t)a * b) >> 32); }
uint32_t mulhu(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
