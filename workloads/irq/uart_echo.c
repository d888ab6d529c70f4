/* UART echo by receive interrupt: see uart-echo.toml. The handler drains the receiver into a
 * queue with non-blocking sends (its only kernel call); the echo task blocks on the queue, so
 * the firmware idles between bytes. Flow control: when the queue is full the handler turns the
 * receive interrupt off and leaves the byte in the UART (which then holds back the sender);
 * the echo task turns it on again once it has drained half the queue. */
#include "cactus_firmware.h"

#define UART_BASE 0x10000000u
#define UART_RBR (*(volatile uint8_t *)(UART_BASE + 0)) /* receive buffer (read) */
#define UART_THR (*(volatile uint8_t *)(UART_BASE + 0)) /* transmit holding (write) */
#define UART_IER (*(volatile uint8_t *)(UART_BASE + 1))
#define UART_LSR (*(volatile uint8_t *)(UART_BASE + 5))
#define LSR_DATA_READY 0x01u
#define LSR_THR_EMPTY 0x20u
#define IER_RX_DATA 0x01u

#define QUEUE_BYTES 64
#define QUIET_MS 500

static cactus_queue rx;
static uint8_t rx_buf[QUEUE_BYTES];
static volatile uint32_t dropped;
static volatile uint32_t paused;

void echo_init(void)
{
    cactus_queue_init(&rx, rx_buf, 1, QUEUE_BYTES);
    /* The generated main has already routed the UART's PLIC source to uart_rx_isr (it runs
     * once the first task runs). The FIFO stays as reset (off): enabling it would flush what
     * has already arrived. */
    UART_IER = IER_RX_DATA;
}

void uart_rx_isr(uint32_t source)
{
    (void)source;
    while (UART_LSR & LSR_DATA_READY) {
        if (cactus_queue_count(&rx) == QUEUE_BYTES) {
            UART_IER = 0;
            paused = 1;
            return;
        }
        uint8_t byte = UART_RBR;
        if (cactus_queue_send(&rx, &byte, CACTUS_NO_WAIT) != CACTUS_OK)
            dropped++; /* cannot happen: the queue had room */
    }
}

static void put(uint8_t byte)
{
    while (!(UART_LSR & LSR_THR_EMPTY))
        ;
    UART_THR = byte;
}

void echo_main(void *arg)
{
    (void)arg;
    uint8_t byte;
    while (cactus_queue_recv(&rx, &byte, FW_MS(QUIET_MS)) == CACTUS_OK) {
        put(byte);
        if (paused && cactus_queue_count(&rx) <= QUEUE_BYTES / 2) {
            paused = 0;
            UART_IER = IER_RX_DATA;
        }
    }
    cactus_fw_finish(dropped ? 1 : 0);
}
