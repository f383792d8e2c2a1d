// SPDX-License-Identifier: GPL-2.0
/* probe_target's second compilation unit: a static helper() of the same name as the first's. */
extern volatile long sink;

static int helper(int v)
{
	sink -= v;
	return v + 2;
}

int cu2_entry(int i);
int cu2_entry(int i)
{
	return helper(i);
}
