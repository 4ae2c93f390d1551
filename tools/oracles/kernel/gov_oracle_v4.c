/*
 * cpuidle governor oracle for the microsecond-era governors: #includes, unmodified,
 * Linux v4.18 / v4.19.1 / v4.20 drivers/cpuidle/governors/menu.c or v5.1 teo.c
 * (-DGOV_MENU or -DGOV_TEO, -DKV=418|419|420|501, -DHZ=, the governor's directory
 * passed with -iquote) and replays an idle trace through select()/reflect().
 *
 * usage: gov_oracle_v4 STATES.csv TRACE.csv
 *   STATES.csv and TRACE.csv are the files of gov_oracle.c (same columns); TRACE.csv
 *   may carry a 7th column, cpu_load (rq->load.weight, read by v4.18/v4.19 menu
 *   through get_iowait_load(); default 0, its value on a CPU that goes idle).
 *
 * The idle-period model is gov_oracle.c's, with the inputs typed as these kernels
 * typed them (docs/idle-governors.md §2.3):
 *   - cpuidle_governor_latency_req() returns an int in us: governor.c's
 *     min(global PM QoS request, device resume latency), the global request being
 *     PM_QOS_CPU_DMA_LAT_DEFAULT_VALUE (2000 s) for latency_req_ns = -1, else
 *     latency_req_ns / 1000; the device request is S32_MAX (no constraint);
 *   - dev->last_residency is cpuidle_enter_state()'s int us: min(end / 1000, INT_MAX);
 *   - the polling state stops after poll_idle()'s limit of that version:
 *       v4.18, v4.19: TICK_NSEC / 16
 *       v4.20       : states[1].target_residency us (even when state 1 is disabled)
 *       v5.1        : target_residency us of the first enabled state >= 1, else TICK_NSEC
 *     and, from v4.20, poll_idle() clears dev->poll_time_limit on entry and sets it
 *     when the limit ends the period;
 *   - tick_nohz_idle_got_tick() returns whether the tick ended this period, and
 *     clears it (tick-sched.c's inidle > 1 test).
 * run_golden_v4.sh checks by grep that the kernel files of each version still say
 * what this file mirrors (poll_state.c, cpuidle.c, governor.c).
 *
 * Output: the 12 columns of gov_oracle.c, then latency_req_us and last_residency_us,
 * then the governor's per-CPU state after reflect():
 *   menu (v4.18, v4.19): bucket,next_timer_us,predicted_us,cf0..11,iv0..7,interval_ptr
 *   menu (v4.20)       : the same without predicted_us (a local variable there)
 *   teo  (v5.1)        : teo_sleep_length_ns,time_span_ns,
 *                        {early_hits,hits,misses}<i> per state,iv0..7,interval_idx
 * v5.1 teo.c stores every ninth idle duration at intervals[8], one past the array
 * (its "interval_idx > INTERVALS" test); the per-CPU shim below keeps 64 spare bytes
 * after the governor's per-CPU data so that the store lands there, as it lands on the
 * next per-CPU variable in the kernel, and the value is never read back.
 */
#include "kshim.h"

#ifndef KV
#error "define KV (418, 419, 420 or 501)"
#endif

/* DEFINE_PER_CPU with spare room behind the variable (see the teo note above); the
 * governor's per-CPU variable is then named through a macro defined before the
 * #include below. */
#undef DEFINE_PER_CPU
#define DEFINE_PER_CPU(type, name) struct name##_pcpu { type v; unsigned char spare[64]; } name##_pcpu
#define menu_devices menu_devices_pcpu.v
#define teo_cpus teo_cpus_pcpu.v

/* include/linux/sched/loadavg.h */
#define FSHIFT 11
#define FIXED_1 (1 << FSHIFT)
/* include/linux/pm_qos.h (ns -> us: 2000 * USEC_PER_SEC) */
#define PM_QOS_CPU_DMA_LAT_DEFAULT_VALUE (2000 * 1000000)
#define PM_QOS_RESUME_LATENCY_NO_CONSTRAINT S32_MAX
#define S32_MAX INT32_MAX

/* include/linux/cpuidle.h of these versions: only the fields the governors read */
#define CPUIDLE_STATE_MAX 10
#define CPUIDLE_NAME_LEN 16
#define CPUIDLE_FLAG_POLLING BIT(0)

struct cpuidle_state {
	char name[CPUIDLE_NAME_LEN];
	unsigned int flags;
	unsigned int exit_latency;      /* us */
	unsigned int target_residency;  /* us */
	bool disabled;
};
struct cpuidle_state_usage { unsigned long long disable; };
struct cpuidle_driver { struct cpuidle_state states[CPUIDLE_STATE_MAX]; int state_count; };
struct cpuidle_device {
	unsigned int cpu;
	int last_residency;             /* us */
#if KV >= 420
	bool poll_time_limit;
#endif
	struct cpuidle_state_usage states_usage[CPUIDLE_STATE_MAX];
};
struct cpuidle_governor {
	const char *name;
	unsigned int rating;
	int (*enable)(struct cpuidle_driver *, struct cpuidle_device *);
	int (*select)(struct cpuidle_driver *, struct cpuidle_device *, bool *);
	void (*reflect)(struct cpuidle_device *, int);
};
static inline int cpuidle_get_last_residency(struct cpuidle_device *dev) { return dev->last_residency; }

/* ---- environment seen by the governor ---- */
static struct cpuidle_governor *g_gov;
static s64 g_sleep_length, g_delta_tick;
static int g_latency_req_us;
static bool g_tick_stopped, g_got_tick;
static u64 g_clock = 1000000000ULL;
static unsigned long g_nr_iowait, g_cpu_load;

static int cpuidle_register_governor(struct cpuidle_governor *gov) { g_gov = gov; return 0; }
#define postcore_initcall(fn) static void __attribute__((constructor)) __ctor_##fn(void) { fn(); }
static int cpuidle_governor_latency_req(unsigned int cpu) { (void)cpu; return g_latency_req_us; }
static ktime_t tick_nohz_get_sleep_length(ktime_t *delta_next) { *delta_next = g_delta_tick; return g_sleep_length; }
static bool tick_nohz_tick_stopped(void) { return g_tick_stopped; }
static bool tick_nohz_idle_got_tick(void) { bool t = g_got_tick; g_got_tick = false; return t; }
static u64 local_clock(void) { return g_clock; }
/* kernel/sched/core.c: v4.18/v4.19 menu reads both through get_iowait_load(), v4.20 menu
 * nr_iowait_cpu() */
static void get_iowait_load(unsigned long *nr_waiters, unsigned long *load) { *nr_waiters = g_nr_iowait; *load = g_cpu_load; }
static unsigned long nr_iowait_cpu(int cpu) { (void)cpu; return g_nr_iowait; }

#if defined(GOV_MENU)
#include "menu.c"
#elif defined(GOV_TEO)
#include "teo.c"
#else
#error "define GOV_MENU or GOV_TEO"
#endif

static struct cpuidle_driver drv;
static struct cpuidle_device dev;

/* drivers/cpuidle/poll_state.c: poll_idle() leaves once local_clock() - start exceeds this */
static u64 poll_limit_ns(void)
{
#if KV < 420
	return TICK_NSEC / 16;
#elif KV < 501
	return (u64)drv.states[1].target_residency * NSEC_PER_USEC;
#else
	for (int i = 1; i < drv.state_count; i++) {
		if (drv.states[i].disabled || dev.states_usage[i].disable)
			continue;
		return (u64)drv.states[i].target_residency * NSEC_PER_USEC;
	}
	return TICK_NSEC;
#endif
}

/* drivers/cpuidle/governor.c: cpuidle_governor_latency_req(), with the global request in ns */
static int latency_req_us(long long latency_req_ns)
{
	long long global_req = latency_req_ns < 0 ? PM_QOS_CPU_DMA_LAT_DEFAULT_VALUE : latency_req_ns / 1000;
	long long device_req = PM_QOS_RESUME_LATENCY_NO_CONSTRAINT;
	return (int)(device_req < global_req ? device_req : global_req);
}

static int load_states(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	int lineno = 0;
	if (!f) { perror(path); return -1; }
	while (fgets(line, sizeof(line), f)) {
		char name[64], flags[16] = "-";
		unsigned int lat, res;
		lineno++;
		if (line[0] == '#' || line[0] == '\n' || !strncmp(line, "name", 4))
			continue;
		if (sscanf(line, "%63[^,],%u,%u,%15s", name, &lat, &res, flags) < 3) {
			fprintf(stderr, "%s:%d: expected name,exit_latency_us,target_residency_us[,flags]\n", path, lineno);
			fclose(f);
			return -1;
		}
		if (drv.state_count == CPUIDLE_STATE_MAX) {
			fprintf(stderr, "%s:%d: more than %d states\n", path, lineno, CPUIDLE_STATE_MAX);
			fclose(f);
			return -1;
		}
		struct cpuidle_state *s = &drv.states[drv.state_count];
		snprintf(s->name, sizeof(s->name), "%s", name);
		s->exit_latency = lat;
		s->target_residency = res;
		s->flags = strchr(flags, 'P') ? CPUIDLE_FLAG_POLLING : 0;
		if (strchr(flags, 'D'))
			dev.states_usage[drv.state_count].disable = 1;
		drv.state_count++;
	}
	fclose(f);
	return 0;
}

static void dump_header(void)
{
	printf("step,sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns,nr_iowait,idx,stop_tick,residency_ns,got_tick,poll_time_limit");
	printf(",latency_req_us,last_residency_us");
#if defined(GOV_MENU)
	printf(",bucket,next_timer_us");
#if KV < 420
	printf(",predicted_us");
#endif
	for (int i = 0; i < BUCKETS; i++) printf(",cf%d", i);
	for (int i = 0; i < (int)INTERVALS; i++) printf(",iv%d", i);
	printf(",interval_ptr");
#elif defined(GOV_TEO)
	printf(",teo_sleep_length_ns,time_span_ns");
	for (int i = 0; i < drv.state_count; i++) printf(",early_hits%d,hits%d,misses%d", i, i, i);
	for (int i = 0; i < INTERVALS; i++) printf(",iv%d", i);
	printf(",interval_idx");
#endif
	printf("\n");
}

static void dump_state(void)
{
#if defined(GOV_MENU)
	struct menu_device *d = &menu_devices;
	printf(",%u,%u", d->bucket, d->next_timer_us);
#if KV < 420
	printf(",%u", d->predicted_us);
#endif
	for (int i = 0; i < BUCKETS; i++)
		printf(",%u", d->correction_factor[i]);
	for (int i = 0; i < (int)INTERVALS; i++)
		printf(",%u", d->intervals[i]);
	printf(",%d", d->interval_ptr);
#elif defined(GOV_TEO)
	struct teo_cpu *c = &teo_cpus;
	printf(",%llu,%llu", (unsigned long long)c->sleep_length_ns, (unsigned long long)c->time_span_ns);
	for (int i = 0; i < drv.state_count; i++)
		printf(",%u,%u,%u", c->states[i].early_hits, c->states[i].hits, c->states[i].misses);
	for (int i = 0; i < INTERVALS; i++)
		printf(",%u", c->intervals[i]);
	printf(",%d", c->interval_idx);
#endif
}

int main(int argc, char **argv)
{
	char line[256];
	FILE *f;
	int step = 0, lineno = 0;

	if (argc < 3) { fprintf(stderr, "usage: %s STATES.csv TRACE.csv\n", argv[0]); return 2; }
	if (load_states(argv[1]))
		return 1;
	if (drv.state_count == 0) { fprintf(stderr, "%s: no idle states\n", argv[1]); return 1; }
	g_gov->enable(&drv, &dev);
	f = fopen(argv[2], "r");
	if (!f) { perror(argv[2]); return 1; }
	dump_header();
	while (fgets(line, sizeof(line), f)) {
		long long sl, nt, wk, lr;
		unsigned long iow = 0, load = 0;
		int ts;
		bool stop_tick = true;
		lineno++;
		if (line[0] == '#' || line[0] == '\n' || line[0] == 's')
			continue;
		if (sscanf(line, "%lld,%lld,%lld,%d,%lld,%lu,%lu", &sl, &nt, &wk, &ts, &lr, &iow, &load) < 5) {
			fprintf(stderr, "%s:%d: expected sleep_length_ns,next_tick_ns,wake_ns,tick_stopped,latency_req_ns[,nr_iowait[,cpu_load]]\n",
				argv[2], lineno);
			return 1;
		}
		if (nt > 0)	/* next tick lies in (0, TICK_NSEC] */
			nt = (nt - 1) % TICK_NSEC + 1;
		g_sleep_length = sl;
		g_delta_tick = sl < nt ? sl : nt;
		g_tick_stopped = ts;
		g_nr_iowait = iow;
		g_cpu_load = load;
		g_latency_req_us = latency_req_us(lr);
		long long latency_req_ns = lr < 0 ? 2000LL * NSEC_PER_SEC : lr;

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
		if (drv.states[idx].flags & CPUIDLE_FLAG_POLLING) {
			u64 lim = poll_limit_ns();
			if (end > lim) {      /* poll_idle() breaks out after the limit */
				end = lim;
				plim = true;
				got_tick = false;
			}
#if KV >= 420
			dev.poll_time_limit = plim;
#endif
		}
		g_clock += end;
		dev.last_residency = end / NSEC_PER_USEC > INT_MAX ? INT_MAX : (int)(end / NSEC_PER_USEC);
		g_got_tick = got_tick;
		g_gov->reflect(&dev, idx);

		printf("%d,%lld,%lld,%lld,%d,%lld,%lu,%d,%d,%llu,%d,%d,%d,%d", step, sl, nt, wk, ts,
		       latency_req_ns, iow, idx, stop_tick, (unsigned long long)end, got_tick, plim,
		       g_latency_req_us, dev.last_residency);
		dump_state();
		printf("\n");
		g_clock += 50000; /* 50 us of activity between idle periods */
		step++;
	}
	fclose(f);
	return 0;
}
