/* SPDX-License-Identifier: GPL-2.0 */
/* buildid: what the buildid-list command shares between its files. */
#ifndef FLARE_CLI_BUILDID_H
#define FLARE_CLI_BUILDID_H

/* buildid-list -m: the running kernel's and its modules' maps with their build-ids, as perf
 * prints them; returns the exit status. */
int buildid_print_kernel_maps(void);

#endif
