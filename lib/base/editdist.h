/* SPDX-License-Identifier: GPL-2.0 */
/*
 * editdist: the edit distance (Levenshtein: insertions, deletions, substitutions) between two
 * short strings, for the "did you mean" of unknown commands and event names.
 */
#ifndef FLARE_BASE_EDITDIST_H
#define FLARE_BASE_EDITDIST_H
#include <stddef.h>

#define EDIT_DISTANCE_MAX_LEN 62 /* longer strings are not compared */

/* The distance from a to b; SIZE_MAX when either is longer than EDIT_DISTANCE_MAX_LEN. */
size_t edit_distance(const char *a, const char *b);

#endif
