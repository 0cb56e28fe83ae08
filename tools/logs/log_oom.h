/* log_oom.h - out of memory as a run's error, not an exit. A buffer grows
 * in the decoding loops (buf_reserve, room for a line) where there is no
 * error path; instead, the code that processes a chunk, writes one or reads
 * an input sets a recovery point, and an allocation that fails jumps back
 * to the innermost one of its thread (xrealloc), which stops the run. The
 * current point is per-thread state (_Thread_local), not process state:
 * sessions on other threads are not touched, and each of a run's threads
 * has its own points. Between a point and a jump, no lock is held and what
 * is allocated is owned by a buffer (realloc's failure leaves it as it
 * was), so nothing is left locked or leaked. */
#ifndef PCT_TOOLS_LOG_OOM_H
#define PCT_TOOLS_LOG_OOM_H

#include <setjmp.h>

struct log_oom_point {
    jmp_buf jump;
    struct log_oom_point *outer;
    volatile int why; /* after a jump: LOG_FAULT_OOM or LOG_FAULT_INTERNAL */
};

extern _Thread_local struct log_oom_point *log_oom_current;

/* Use:
 *   struct log_oom_point pt;
 *   log_oom_enter(&pt);
 *   if (setjmp(pt.jump) != 0) { pt.why says what happened; pt is already left }
 *   ...
 *   log_oom_leave(&pt);
 * An allocation with no point set on its thread exits ("pct logs: out of
 * memory"). */
static inline void log_oom_enter(struct log_oom_point *pt)
{
    pt->outer = log_oom_current;
    log_oom_current = pt;
}

static inline void log_oom_leave(struct log_oom_point *pt)
{
    log_oom_current = pt->outer;
}

/* Why a jump was made (pt.why). */
#define LOG_FAULT_OOM 1
#define LOG_FAULT_INTERNAL 2 /* a decoding error that cannot happen */

/* Jumps to the current point (leaving it) with why, or exits if there is
 * none. */
#if defined(__GNUC__)
__attribute__((cold))
#endif
_Noreturn void
log_oom_jump(int why);

/* For tests only: the n-th xrealloc from now (any thread) fails, as if out
 * of memory; 0: none (the default). */
void log_oom_fail_at(long n);

#endif
