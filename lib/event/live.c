// SPDX-License-Identifier: GPL-2.0
/*
 * live: the loop of the live commands (see live.h).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "lib/event/live.h"

#define DEFAULT_MAX_WAIT_MS 100

uint64_t live_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void live_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGCHLD);
}

int live_signals_block(struct live_signals *s)
{
	sigset_t set;
	int err;

	s->signo = 0;
	s->child = false;
	live_set(&set);
	if (sigprocmask(SIG_BLOCK, &set, &s->old))
		return -errno;
	s->fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (s->fd < 0) {
		err = -errno;
		sigprocmask(SIG_SETMASK, &s->old, NULL);
		return err;
	}
	return 0;
}

bool live_signals_poll(struct live_signals *s)
{
	struct signalfd_siginfo si;

	while (s->fd >= 0 && read(s->fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			s->child = true;
		else if (!s->signo)
			s->signo = (int)si.ssi_signo;
	}
	return s->signo != 0;
}

void live_signals_release(struct live_signals *s)
{
	if (s->fd < 0)
		return;
	live_signals_poll(s);
	close(s->fd);
	s->fd = -1;
	sigprocmask(SIG_SETMASK, &s->old, NULL);
}

/* Whether the workload has exited (left unreaped for workload_wait()). */
static bool workload_gone(const struct workload *w)
{
	siginfo_t si;

	if (w->pid <= 0)
		return true;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)w->pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return errno == ECHILD;
	return si.si_pid == w->pid;
}

int64_t live_drain(struct ring *rings, size_t nr_rings, const struct live_sink *s, void *ctx)
{
	const struct ring_ops ops = { s->record, s->bytes };
	int64_t total = 0;
	size_t i;

	for (i = 0; i < nr_rings; i++) {
		int64_t n = ring_drain(&rings[i], &ops, ctx);

		if (n < 0)
			return n;
		total += n;
	}
	if (total && s->round) {
		int err = s->round(ctx);

		if (err < 0)
			return err;
	}
	return total;
}

struct loop {
	const struct live_opts *o;
	const struct live_sink *s;
	void *ctx;
	struct live_result *res;
	struct pollfd *pfds;			/* the rings, then the signalfd */
	uint64_t enable_at, next_tick, stop_at; /* 0: none */
};

/* True when every ring's events are gone (their tasks exited): nothing more can come. */
static bool all_hung_up(const struct loop *l)
{
	size_t i;

	for (i = 0; i < l->o->nr_rings; i++)
		if (!(l->pfds[i].revents & (POLLHUP | POLLERR)))
			return false;
	return l->o->nr_rings > 0;
}

static uint64_t earliest(uint64_t a, uint64_t b)
{
	return !a ? b : !b ? a : a < b ? a : b;
}

/* Sleeps until something happens or the next deadline. ppoll's count, or -errno. */
static int wait_once(struct loop *l, uint64_t now)
{
	const struct live_opts *o = l->o;
	uint64_t max = (uint64_t)(o->max_wait_ms > 0 ? o->max_wait_ms : DEFAULT_MAX_WAIT_MS) *
		       1000000ULL;
	uint64_t until = earliest(earliest(l->enable_at, l->next_tick), l->stop_at), ns = max;
	struct timespec ts;
	size_t i, n = o->nr_rings;
	int r;

	if (until && until - now < max)
		ns = until > now ? until - now : 0;
	ts.tv_sec = (time_t)(ns / 1000000000ULL);
	ts.tv_nsec = (long)(ns % 1000000000ULL);
	l->pfds[n].fd = o->sig->fd;
	l->pfds[n].events = POLLIN;
	l->pfds[n].revents = 0;
	r = ppoll(l->pfds, n + 1, &ts, NULL);
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	for (i = 0; i < n; i++)
		if (l->pfds[i].revents) {
			l->res->wakeups++;
			break;
		}
	return r;
}

/* The timed conditions: the delay, the ticks, the timeout. 0, > 0 to end, or < 0. */
static int timed(struct loop *l, uint64_t now)
{
	int r;

	if (l->enable_at && now >= l->enable_at) {
		l->enable_at = 0;
		r = l->s->enable ? l->s->enable(l->ctx) : 0;
		if (r < 0)
			return r;
	}
	if (l->stop_at && now >= l->stop_at) {
		l->res->end = LIVE_END_TIMEOUT;
		return 1;
	}
	while (l->next_tick && now >= l->next_tick) {
		l->next_tick += (uint64_t)l->o->interval_ms * 1000000ULL;
		r = l->s->tick ? l->s->tick(l->ctx, now, l->res->t0_ns) : 0;
		if (r) {
			l->res->end = LIVE_END_SINK;
			return r;
		}
	}
	return 0;
}

/* Whether the run is over; sets res->end. */
static bool over(struct loop *l, int polled)
{
	const struct live_opts *o = l->o;

	if (live_signals_poll(o->sig)) {
		l->res->end = LIVE_END_SIGNAL;
		return true;
	}
	if (o->sig->child && o->workload) {
		o->sig->child = false;
		if (workload_gone(o->workload) && !(o->delay_holds && l->enable_at)) {
			l->res->end = LIVE_END_WORKLOAD;
			return true;
		}
		/* another child (a --pre command), or the delay holds: look again later */
		o->sig->child = workload_gone(o->workload);
	}
	if (polled > 0 && all_hung_up(l)) {
		l->res->end = LIVE_END_HUNGUP;
		return true;
	}
	if (l->s->over && l->s->over(l->ctx)) {
		l->res->end = LIVE_END_SINK;
		return true;
	}
	return false;
}

static int loop(struct loop *l)
{
	int64_t n;
	int r, polled = 0;

	for (;;) {
		r = timed(l, live_now_ns());
		if (r)
			return r < 0 ? r : 0;
		if (over(l, polled))
			return 0;
		polled = wait_once(l, live_now_ns());
		if (polled < 0)
			return polled;
		n = live_drain(l->o->rings, l->o->nr_rings, l->s, l->ctx);
		if (n < 0)
			return (int)n;
	}
}

int live_run(const struct live_opts *o, const struct live_sink *s, void *ctx,
	     struct live_result *res)
{
	struct loop l = { o, s, ctx, res, NULL, 0, 0, 0 };
	int err;

	memset(res, 0, sizeof(*res));
	l.pfds = calloc(o->nr_rings + 1, sizeof(*l.pfds));
	if (!l.pfds)
		return -ENOMEM;
	for (size_t i = 0; i < o->nr_rings; i++) {
		l.pfds[i].fd = o->rings[i].fd;
		l.pfds[i].events = POLLIN;
	}
	res->t0_ns = live_now_ns();
	if (o->delay_ms > 0)
		l.enable_at = res->t0_ns + (uint64_t)o->delay_ms * 1000000ULL;
	if (o->interval_ms > 0)
		l.next_tick = res->t0_ns + (uint64_t)o->interval_ms * 1000000ULL;
	if (o->timeout_ms > 0)
		l.stop_at = res->t0_ns + (uint64_t)o->timeout_ms * 1000000ULL;
	if (o->workload) {
		err = workload_start(o->workload);
		res->workload_err = err;
		if (err == -ECANCELED) {
			res->end = LIVE_END_WORKLOAD;
			err = 0;
			goto out;
		}
		if (err)
			goto out;
		/* it may have exited before SIGCHLD was looked for */
		o->sig->child = true;
	}
	err = loop(&l);
out:
	free(l.pfds);
	return err;
}
