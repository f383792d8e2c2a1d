// SPDX-License-Identifier: GPL-2.0
/* editdist: Levenshtein distance in one row of EDIT_DISTANCE_MAX_LEN + 1 cells. */
#include <stdint.h>
#include <string.h>
#include "lib/base/editdist.h"

size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, prev, tmp;
	size_t row[EDIT_DISTANCE_MAX_LEN + 1];

	if (la > EDIT_DISTANCE_MAX_LEN || lb > EDIT_DISTANCE_MAX_LEN)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			tmp = row[j];
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}
