/* Interrupt storm: see storm.toml. */
#include "cactus_firmware.h"

#define UART_BASE 0x10000000u
#define UART_RBR (*(volatile uint8_t *)(UART_BASE + 0))
#define UART_IER (*(volatile uint8_t *)(UART_BASE + 1))
#define UART_LSR (*(volatile uint8_t *)(UART_BASE + 5))
#define QUIET_MS 20
#define WORKERS 6

static cactus_sem bytes;
static volatile uint32_t isr_bytes, isr_bad, counted;
static volatile uint32_t rounds[WORKERS], bad_rounds[WORKERS];

void storm_init(void)
{
    cactus_sem_init(&bytes, 0, 0xFFFFFFFFu);
    UART_IER = 0x01; /* receive data available */
}

void storm_uart_isr(uint32_t source)
{
    (void)source;
    while (UART_LSR & 0x01) {
        uint8_t b = UART_RBR;
        if (b != isr_bytes % 251)
            isr_bad++;
        isr_bytes++;
        cactus_sem_give(&bytes);
    }
}

/* storm-direct.toml: the UART handler only checks and counts the bytes and raises the
 * software interrupt, whose direct handler (docs/interrupts.md, "Direct handlers") gives the
 * semaphore once for every byte counted since its last run. The software interrupt is taken
 * when the UART handler returns, so the direct handler interrupts the tasks wherever they are. */
static volatile uint32_t kicked;

void storm_uart_kick_isr(uint32_t source)
{
    (void)source;
    while (UART_LSR & 0x01) {
        uint8_t b = UART_RBR;
        if (b != isr_bytes % 251)
            isr_bad++;
        isr_bytes++;
    }
    cactus_irq_raise_software();
}

CACTUS_DIRECT_ISR_SOFTWARE(storm_kick_isr)
{
    while (kicked != isr_bytes) {
        kicked++;
        cactus_sem_give(&bytes);
    }
}

/* A recursive mix whose frames differ by depth, so that the stack strategies that move frames
 * (mtss, segmented) have work to do while interrupts arrive. */
static __attribute__((noinline)) uint32_t mix(uint32_t x, uint32_t depth)
{
    volatile uint32_t pad[8];
    for (uint32_t i = 0; i < 8; i++)
        pad[i] = x * (i + 1) + depth;
    if (depth == 0)
        return x ^ pad[7];
    uint32_t r = mix(x * 2654435761u + pad[depth % 8], depth - 1);
    return r + pad[(r >> 3) % 8];
}

void storm_worker(void *arg)
{
    uint32_t id = (uint32_t)(uintptr_t)arg;
    uint32_t depth = 4 + 3 * id;
    uint32_t want = mix(id + 1, depth);
    for (;;) {
        for (int i = 0; i < 16; i++)
            if (mix(id + 1, depth) != want)
                bad_rounds[id]++;
        rounds[id]++;
        cactus_sleep(1 + id % 3);
    }
}

void storm_counter(void *arg)
{
    (void)arg;
    while (cactus_sem_take(&bytes, FW_MS(QUIET_MS)) == CACTUS_OK)
        counted++;
    uint32_t ok = isr_bytes > 0 && counted == isr_bytes && isr_bad == 0;
    kprintf("storm: %u bytes, counted %u, out of order %u\n", isr_bytes, counted, isr_bad);
    uint32_t total = 0;
    for (int w = 0; w < WORKERS; w++) {
        kprintf("storm: worker %d: %u rounds, %u wrong\n", w, rounds[w], bad_rounds[w]);
        ok = ok && bad_rounds[w] == 0;
        total += rounds[w];
    }
    /* The lowest worker may starve under a slow strategy (chunks): progress is judged overall. */
    ok = ok && total >= WORKERS;
    cactus_fw_finish(ok ? 0 : 1);
}
