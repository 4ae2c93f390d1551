/*
 * cpuidle governor oracle: #includes the kernel's drivers/cpuidle/governors/
 * {menu,teo}.c unmodified (choose with -DGOV_MENU or -DGOV_TEO and -iquote the
 * governors directory) and replays an idle trace through select()/reflect().
 *
 * usage: gov_oracle STATES.csv TRACE.csv
 *   STATES.csv: name,exit_latency_us,target_residency_us,flags   (flags: P = polling, - = none, D = disabled)
 *   TRACE.csv : sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns
 *     sleep_length_ns : what tick_nohz_get_sleep_length() returns (time to the
 *                       next timer assuming the tick is stopped)
 *     next_tick_ns    : time to the next scheduler tick; delta_tick handed to
 *                       the governor is min(sleep_length_ns, next_tick_ns)
 *     wake_ns         : time of a non-timer wakeup after idle entry, -1 = none
 *     tick_stopped    : value of tick_nohz_tick_stopped() during selection
 *     latency_req_ns  : cpuidle_governor_latency_req(); -1 = no constraint
 *                       (PM QoS default 2000 s = 2e12 ns)
 *     [nr_iowait]     : optional 6th column, nr_iowait_cpu() (old menu only)
 * Idle-period model (harness-defined):
 *   tick kept running (stop_tick == false && !tick_stopped):
 *       end = min(wake, sleep_length, next_tick); got_tick = next_tick <= min(wake, sleep_length)
 *   otherwise: end = min(wake, sleep_length); got_tick = false
 *   polling state: end = min(end, cpuidle_poll_time()); poll_time_limit = hit
 *   last_residency_ns = end; local_clock() advances by end between select and reflect.
 */
#include "kshim.h"

#define CPUIDLE_STATE_MAX 10
#define CPUIDLE_NAME_LEN 16
#define CPUIDLE_FLAG_POLLING BIT(0)

struct cpuidle_state {
	char name[CPUIDLE_NAME_LEN];
	s64 exit_latency_ns;
	s64 target_residency_ns;
	unsigned int flags;
	unsigned int exit_latency;      /* us */
	unsigned int target_residency;  /* us */
	bool disabled;
};
struct cpuidle_state_usage { unsigned long long disable; };
struct cpuidle_driver { struct cpuidle_state states[CPUIDLE_STATE_MAX]; int state_count; };
struct cpuidle_device {
	unsigned int cpu;
	int last_state_idx;
	u64 last_residency_ns;
	u64 poll_limit_ns;
	bool poll_time_limit;
	struct cpuidle_state_usage states_usage[CPUIDLE_STATE_MAX];
};
struct cpuidle_governor {
	const char *name;
	unsigned int rating;
	int (*enable)(struct cpuidle_driver *, struct cpuidle_device *);
	int (*select)(struct cpuidle_driver *, struct cpuidle_device *, bool *);
	void (*reflect)(struct cpuidle_device *, int);
};

/* ---- environment seen by the governor ---- */
static struct cpuidle_governor *g_gov;
static s64 g_sleep_length, g_delta_tick, g_latency_req;
static bool g_tick_stopped, g_got_tick;
static u64 g_clock = 1000000000ULL;
static unsigned long g_nr_iowait;

static int cpuidle_register_governor(struct cpuidle_governor *gov) { g_gov = gov; return 0; }
#define postcore_initcall(fn) static void __attribute__((constructor)) __ctor_##fn(void) { fn(); }
static s64 cpuidle_governor_latency_req(unsigned int cpu) { (void)cpu; return g_latency_req; }
static ktime_t tick_nohz_get_sleep_length(ktime_t *delta_next) { *delta_next = g_delta_tick; return g_sleep_length; }
static bool tick_nohz_tick_stopped(void) { return g_tick_stopped; }
static bool tick_nohz_idle_got_tick(void) { return g_got_tick; }
static u64 local_clock(void) { return g_clock; }
static unsigned long nr_iowait_cpu(int cpu) { (void)cpu; return g_nr_iowait; }
/* teo (6.3..6.x util-awareness versions) */
static unsigned long sched_cpu_util(int cpu) { (void)cpu; return 0; }
/* ... whose threshold is a share of the CPU capacity (never reached: util is 0) */
static unsigned long arch_scale_cpu_capacity(int cpu) { (void)cpu; return 1024; }

#include "gen/cpuidle_poll.c"

#if defined(GOV_MENU)
#include "menu.c"
#elif defined(GOV_TEO)
#include "teo.c"
#else
#error "define GOV_MENU or GOV_TEO"
#endif

static struct cpuidle_driver drv;
static struct cpuidle_device dev;

static int load_states(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	if (!f) { perror(path); return -1; }
	while (fgets(line, sizeof(line), f)) {
		char name[64], flags[16] = "-";
		unsigned int lat, res;
		if (line[0] == '#' || line[0] == '\n' || !strncmp(line, "name", 4))
			continue;
		if (sscanf(line, "%63[^,],%u,%u,%15s", name, &lat, &res, flags) < 3)
			continue;
		struct cpuidle_state *s = &drv.states[drv.state_count];
		snprintf(s->name, sizeof(s->name), "%s", name);
		s->exit_latency = lat;
		s->target_residency = res;
		s->exit_latency_ns = (s64)lat * NSEC_PER_USEC;
		s->target_residency_ns = (s64)res * NSEC_PER_USEC;
		s->flags = strchr(flags, 'P') ? CPUIDLE_FLAG_POLLING : 0;
		if (strchr(flags, 'D'))
			dev.states_usage[drv.state_count].disable = 1;
		drv.state_count++;
	}
	fclose(f);
	return 0;
}

static void dump_state(void)
{
#if defined(GOV_MENU)
	struct menu_device *d = &menu_devices;
	printf(",%u,%llu", d->bucket, (unsigned long long)d->next_timer_ns);
	for (int i = 0; i < BUCKETS; i++)
		printf(",%u", d->correction_factor[i]);
	for (int i = 0; i < (int)INTERVALS; i++)
		printf(",%u", d->intervals[i]);
#elif defined(GOV_TEO)
	struct teo_cpu *c = &teo_cpus;
	printf(",%lld,%u", (long long)c->sleep_length_ns, c->total);
	for (int i = 0; i < drv.state_count; i++)
		printf(",%u,%u", c->state_bins[i].hits, c->state_bins[i].intercepts);
#ifdef TEO_HAS_recent
	for (int i = 0; i < drv.state_count; i++)
		printf(",%u", c->state_bins[i].recent);
#endif
#ifdef TEO_HAS_tick_hits
	printf(",%u", c->tick_hits);
#endif
#ifdef TEO_HAS_tick_intercepts
	printf(",%u", c->tick_intercepts);
#endif
#ifdef TEO_HAS_total_tick
	printf(",%u", c->total_tick);
#endif
#ifdef TEO_HAS_short_idles
	printf(",%u", c->short_idles);
#endif
#ifdef TEO_HAS_utilized
	printf(",%d", (int)c->utilized);
#endif
#endif
}

static void dump_header(void)
{
	printf("step,sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns,nr_iowait,idx,stop_tick,residency_ns,got_tick,poll_time_limit");
#if defined(GOV_MENU)
	printf(",bucket,next_timer_ns");
	for (int i = 0; i < BUCKETS; i++) printf(",cf%d", i);
	for (int i = 0; i < (int)INTERVALS; i++) printf(",iv%d", i);
#elif defined(GOV_TEO)
	printf(",teo_sleep_length_ns,total");
	for (int i = 0; i < drv.state_count; i++) printf(",hits%d,intercepts%d", i, i);
#ifdef TEO_HAS_recent
	for (int i = 0; i < drv.state_count; i++) printf(",recent%d", i);
#endif
#ifdef TEO_HAS_tick_hits
	printf(",tick_hits");
#endif
#ifdef TEO_HAS_tick_intercepts
	printf(",tick_intercepts");
#endif
#ifdef TEO_HAS_total_tick
	printf(",total_tick");
#endif
#ifdef TEO_HAS_short_idles
	printf(",short_idles");
#endif
#ifdef TEO_HAS_utilized
	printf(",utilized");
#endif
#endif
	printf("\n");
}

int main(int argc, char **argv)
{
	char line[256];
	FILE *f;
	int step = 0;

	if (argc < 3) { fprintf(stderr, "usage: %s STATES.csv TRACE.csv\n", argv[0]); return 2; }
	if (load_states(argv[1]))
		return 1;
	dev.last_state_idx = -1;
	g_gov->enable(&drv, &dev);
	f = fopen(argv[2], "r");
	if (!f) { perror(argv[2]); return 1; }
	dump_header();
	while (fgets(line, sizeof(line), f)) {
		long long sl, nt, wk, lr;
		unsigned long iow = 0;
		int ts;
		bool stop_tick = true;
		if (line[0] == '#' || line[0] == '\n' || line[0] == 's')
			continue;
		if (sscanf(line, "%lld,%lld,%lld,%d,%lld,%lu", &sl, &nt, &wk, &ts, &lr, &iow) < 5) {
			fprintf(stderr, "bad line %s", line);
			return 1;
		}
		if (nt > 0)	/* next tick lies in (0, TICK_NSEC] */
			nt = (nt - 1) % TICK_NSEC + 1;
		g_sleep_length = sl;
		g_delta_tick = sl < nt ? sl : nt;
		g_tick_stopped = ts;
		g_nr_iowait = iow;   /* only read by pre-6.12 menu (nr_iowait_cpu) */
		g_latency_req = lr < 0 ? 2000LL * NSEC_PER_SEC : lr;

		int idx = g_gov->select(&drv, &dev, &stop_tick);

		/* tick_nohz_idle_stop_tick() / retain_tick(), then the idle period */
		bool tick_runs = !stop_tick && !g_tick_stopped;
		u64 wake = wk < 0 ? U64_MAX : (u64)wk;
		u64 end = wake < (u64)sl ? wake : (u64)sl;
		bool got_tick = false;
		if (tick_runs && (u64)nt <= end) {
			end = nt;
			got_tick = true;
		}
		bool plim = false;
		dev.poll_time_limit = false;
		if (drv.states[idx].flags & CPUIDLE_FLAG_POLLING) {
			u64 lim = cpuidle_poll_time(&drv, &dev);
			if (end > lim) {      /* poll_idle() breaks out after the limit */
				end = lim;
				plim = true;
				got_tick = false;
			}
			dev.poll_time_limit = plim;
		}
		g_clock += end;
		dev.last_residency_ns = end;
		g_got_tick = got_tick;
		g_gov->reflect(&dev, idx);

		printf("%d,%lld,%lld,%lld,%d,%lld,%lu,%d,%d,%llu,%d,%d", step, sl, nt, wk, ts,
		       (long long)g_latency_req, iow, idx, stop_tick, (unsigned long long)end, got_tick, plim);
		dump_state();
		printf("\n");
		g_clock += 50000; /* 50 us of activity between idle periods */
		step++;
	}
	fclose(f);
	return 0;
}
