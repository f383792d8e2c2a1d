/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cache: perf record's default of keeping what a recording hit in the build-id cache
 * ($PERF_BUILDID_DIR, else ~/.debug): the kernel's kallsyms, the vdso image and each object
 * file, by the build-ids of the finished file's BUILD_ID feature.
 */
#ifndef FLARE_RECORD_CACHE_H
#define FLARE_RECORD_CACHE_H

/* Caches the build-ids recorded in the perf.data file at path. 0 or -errno (the file still
 * stands either way). */
int record_cache_buildids(const char *path);

#endif
