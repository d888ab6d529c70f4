/* Nesting by priority: the software interrupt's handler (the lowest level) enables the UART's
 * transmit-empty interrupt (PLIC source 10), whose handler preempts it at once and runs to its
 * end first; the UART handler in turn raises the software interrupt, which must wait until the
 * outermost handler has returned (a lower level never nests). Each handler wakes a task; the
 * tasks run only after the outermost exit, highest first. */
#include "ktest.h"

const char ktest_name[] = "irq_nested";

#define UART_IER (*(volatile uint8_t *)0x10000001)
#define UART_IIR (*(volatile uint8_t *)0x10000002)
#define UART_SOURCE 10

static cactus_sem s_uart, s_soft;
static volatile uint32_t depth, max_depth, soft_runs, uart_runs;

/* Logs from a task: masked, so that a handler's own log entries are never lost. */
static void tlog(int c)
{
    uint32_t s = cactus_irq_save();
    klog(c);
    cactus_irq_restore(s);
}

static void enter(void)
{
    if (++depth > max_depth)
        max_depth = depth;
}

static void uart_isr(uint32_t source)
{
    enter();
    CHECK_EQ(source, UART_SOURCE);
    CHECK_EQ(UART_IIR & 0x0f, 0x02); /* transmitter empty; reading IIR acknowledges it */
    UART_IER = 0;
    klog('U');
    uart_runs++;
    cactus_irq_raise_software(); /* lower level: waits for the outermost exit */
    for (int i = 0; i < 200; i++)
        __asm__ volatile("nop");
    CHECK_EQ(soft_runs, 1);
    CHECK_EQ(cactus_sem_give(&s_uart), CACTUS_OK);
    klog('u');
    depth--;
}

static void soft_isr(uint32_t source)
{
    enter();
    CHECK_EQ(source, CACTUS_IRQ_SOFTWARE);
    soft_runs++;
    klog('S');
    if (soft_runs == 1) {
        UART_IER = 0x02; /* THR is empty: the UART interrupt preempts this handler */
        for (int i = 0; i < 1000 && !uart_runs; i++)
            __asm__ volatile("nop");
        CHECK_EQ(uart_runs, 1);
    }
    CHECK_EQ(cactus_sem_give(&s_soft), CACTUS_OK);
    klog('s');
    depth--;
}

static void uart_task(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_sem_take(&s_uart, CACTUS_FOREVER), CACTUS_OK);
    while (soft_runs < 2) /* the raise from uart_isr is taken once this task runs */
        ;
    tlog('A');
}

static void soft_task(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(cactus_sem_take(&s_soft, CACTUS_FOREVER), CACTUS_OK);
        tlog('B');
    }
}

static void low(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_irq_attach(CACTUS_IRQ_SOFTWARE, soft_isr, 0, "soft_isr"), CACTUS_OK);
    CHECK_EQ(cactus_irq_attach(UART_SOURCE, uart_isr, 3, "uart_isr"), CACTUS_OK);
    tlog('L');
    cactus_irq_raise_software();
    while (soft_runs < 2)
        ;
    tlog('l');
    CHECK_EQ(max_depth, 2);
    /* soft (outer) -> uart (nested, raises soft again) -> uart ends -> soft ends -> the second
     * soft run, then the tasks: uart_task (prio 6) before soft_task (prio 4). */
    KLOG_EXPECT("LSUusSsABBl");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "uart_task", .entry = uart_task, .stack_size = 1024, .prio = 6,
      .on_fault = CACTUS_ON_FAULT_HALT },
    { .name = "soft_task", .entry = soft_task, .stack_size = 1024, .prio = 4 },
    { .name = "low", .entry = low, .stack_size = 1024, .prio = 1 },
};

int main(void)
{
    cactus_sem_init(&s_uart, 0, 1);
    cactus_sem_init(&s_soft, 0, 2);
    ktest_start(tasks, 3);
}
