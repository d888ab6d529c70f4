/* The firmware of deadlock.toml: two tasks take two mutexes in opposite orders. The sleep
 * between the two locks lets the other task take its first mutex, so the deadlock is certain. */
#include "cactus_firmware.h"

static cactus_mutex a, b;

void deadlock_init(void)
{
    cactus_mutex_init(&a);
    cactus_mutex_init(&b);
}

static void lock_both(cactus_mutex *first, cactus_mutex *second, const char *name)
{
    cactus_mutex_lock(first, CACTUS_FOREVER);
    cactus_sleep(2);
    kprintf("%s: holds its first mutex, takes the second\n", name);
    cactus_mutex_lock(second, CACTUS_FOREVER);
    kprintf("%s: not reached\n", name);
    cactus_fw_finish(1);
}

void left_main(void *arg)
{
    (void)arg;
    lock_both(&a, &b, "left");
}

void right_main(void *arg)
{
    (void)arg;
    lock_both(&b, &a, "right");
}
