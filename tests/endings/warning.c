/* The firmware of warning.toml: `unused` draws -Wunused-variable on purpose. */
#include "cactus_firmware.h"

void main_task(void *arg)
{
    int unused;
    (void)arg;
    kprintf("warning: built and ran\n");
    cactus_fw_finish(0);
}
