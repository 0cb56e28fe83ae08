/* path.h - the byte-at-a-time path normalization that pct_normalize_path and
 * pct_normalize_path_v2 must match exactly, for the tests to hold the fast
 * path to it. */
#ifndef PCT_PATH_H
#define PCT_PATH_H

#include "pct.h"

/* pct_normalize_path_v2 on checked arguments (policy valid, not NULL), one
 * token at a time: the reference of output, status, offset and report. */
pct_result pct_path_normalize_reference(const char *src, size_t len, char *dst,
                                        const pct_path_policy_v2 *policy, pct_path_report *report);

/* The v2 policy that a valid v1 policy means. */
void pct_path_policy_from_v1(pct_path_policy_v2 *p, const pct_path_policy *v1);

#endif /* PCT_PATH_H */
