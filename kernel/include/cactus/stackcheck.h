/* The data structures of the stack-check contract (docs/stack-checks.md), shared by the kernel
 * and the bare-metal runtimes (tests/common, workloads/common/baremetal). Self-contained: it
 * needs only <stdint.h>, so assembly-free runtimes outside the kernel can include it.
 *
 * Guarantees: the layouts below are the contract's, checked with _Static_assert; the KIND and
 * field decoders are the only place a C runtime decodes word 3 of a table entry. */
#ifndef CACTUS_STACKCHECK_H
#define CACTUS_STACKCHECK_H

#include <stdint.h>

/* What `tp` points at while code runs: its first word is the check limit, the lowest address
 * sp may reach. Owners may append fields after it; checks read only `limit`. */
struct cactus_stack_desc {
    uint32_t limit;
};

/* One entry of the `cactus_checks` section (16 bytes), emitted by `cactus cc` per check. */
struct cactus_check_site {
    uint32_t site;   /* address of the ecall (mepc when the check failed) */
    uint32_t resume; /* where to resume when room was made */
    uint32_t need;   /* E: bytes needed below the entry sp (KIND 1: below the current sp) */
    uint32_t info;   /* F1 | ARGS << 16 | KIND << 30 */
};

_Static_assert(sizeof(struct cactus_stack_desc) == 4, "cactus_stack_desc: limit only");
_Static_assert(sizeof(struct cactus_check_site) == 16, "cactus_check_site is 16 bytes");

enum cactus_check_kind {
    CACTUS_CHECK_ENTRY = 0,     /* entry check after the first sp decrement */
    CACTUS_CHECK_DYNAMIC = 1,   /* check after a dynamic allocation (alloca, VLA) */
    CACTUS_CHECK_ENTRY_FIXED = 2, /* entry check of a frame that must not be moved */
};

/* Bytes sp is already below the entry sp at the check. */
static inline uint32_t cactus_check_f1(const struct cactus_check_site *s)
{
    return s->info & 0xffffu;
}
/* Bytes of the caller's outgoing-argument area the function reads. */
static inline uint32_t cactus_check_args(const struct cactus_check_site *s)
{
    return (s->info >> 16) & 0x3fffu;
}
static inline uint32_t cactus_check_kind(const struct cactus_check_site *s)
{
    return s->info >> 30;
}
/* A hardware-bound site (`cactus cc --stack-bound`, docs/segmented.md): it names the `sp`
 * decrement the hardware stack bound refuses, as the trapping pc and as the continuation. Once
 * past it a function writes nothing below its sp, so it adds nothing to what a lender keeps. */
static inline int cactus_check_bound(const struct cactus_check_site *s)
{
    return s->site == s->resume;
}

/* Bytes needed below the sp the check compared (sp at the ecall): E - F1 for entry checks,
 * E for dynamic ones. A malformed entry with F1 > E asks for 0 bytes. */
static inline uint32_t cactus_check_need(const struct cactus_check_site *s)
{
    if (cactus_check_kind(s) == CACTUS_CHECK_DYNAMIC)
        return s->need;
    uint32_t f1 = cactus_check_f1(s);
    return s->need > f1 ? s->need - f1 : 0;
}

/* The table, bounded by the linker's __start_/__stop_ symbols. Weak: firmware without any
 * instrumented code has no such section, and then both are 0 (an empty table). */
extern const struct cactus_check_site __start_cactus_checks[] __attribute__((weak));
extern const struct cactus_check_site __stop_cactus_checks[] __attribute__((weak));

/* The table entry whose ecall is at `pc`, or 0 when pc is no check site (a linear scan: it
 * runs only when a check failed or an ecall trapped). */
static inline const struct cactus_check_site *cactus_check_site_at(uint32_t pc)
{
    const struct cactus_check_site *s = __start_cactus_checks;
    const struct cactus_check_site *end = __stop_cactus_checks; /* both 0: empty */
    for (; s < end; s++)
        if (s->site == pc)
            return s;
    return 0;
}

/* The lending margins per resume point (`cactus cc --checks mtss`, whole program; docs/mtss.md,
 * "A margin per resume point"): from `pc` up to the next entry's pc, a task resumed there
 * writes at most `margin` bytes below its sp before it runs another check; CACTUS_NO_MARGIN
 * means not known (use the firmware-wide margin). The linker orders the entries like the code
 * they describe (each function's entries are linked to its text section). */
struct cactus_margin {
    uint32_t pc;
    uint32_t margin;
};
#define CACTUS_NO_MARGIN 0xFFFFFFFFu
extern const struct cactus_margin __start_cactus_margins[] __attribute__((weak));
extern const struct cactus_margin __stop_cactus_margins[] __attribute__((weak));

#endif /* CACTUS_STACKCHECK_H */
