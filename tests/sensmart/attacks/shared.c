/* Shared by the victim and the attackers (tests/sensmart/attacks/attacks.toml): where the
 * victim's stack pattern lies, published by the victim before any attacker runs. */
#include <stdint.h>

volatile uint32_t *attack_victim_stack;
