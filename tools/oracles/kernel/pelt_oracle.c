/*
 * PELT + util_est oracle: compiles the kernel's own kernel/sched/pelt.c,
 * kernel/sched/pelt.h, kernel/sched/sched-pelt.h and verbatim extracts of
 * kernel/sched/fair.c (see extract.py) in userspace, and drives them with a
 * tiny single-CPU / single-task "mini scheduler" that calls them in the same
 * order as the kernel does on wakeup, tick, preemption and sleep.  KV is
 * VERSION*100+PATCHLEVEL of the tree (run_golden.sh passes -DKV=...): 6.6 keeps
 * struct util_est {enqueued, ewma} and updates it after the dequeue; 6.8+ keep one
 * word and update it before; 6.18 counts h_nr_runnable and reads rq->donor.
 * 4.19 (KV < 500) has no PELT clock: pelt.c scales each contribution by
 * arch_scale_freq_capacity()/arch_scale_cpu_capacity() and the updates run on
 * rq_clock_task(); its sched_avg has runnable_load_{sum,avg} (the enqueued entities'
 * load), util_est_dequeue() does the util_est update, and post_init_entity_util_avg()
 * attaches the new task itself (attach_entity_cfs_rq()).
 *
 * Modes:
 *   pelt_oracle trace FILE.csv [-i kernel|zero] [-t0 NS]
 *       FILE.csv lines: dur_ns,state[,cpu_cap[,freq_cap[,cpu]]]
 *       state: R = task running, W = task runnable but CPU busy with a
 *       non-CFS activity (e.g. RT), S = task sleeping, CPU idle.
 *       The first segment must be R (task is forked at t0 and runs).
 *       cpu (0 or 1, default 0): a wakeup onto the other CPU migrates the task
 *       (migrate_task_rq_fair()'s PELT part, then the enqueue attaches it there).
 *   pelt_oracle decay      -> golden for decay_load()
 *   pelt_oracle accumulate -> golden for ___update_load_sum()/___update_load_avg()
 *   pelt_oracle utilest    -> golden for util_est_update() in isolation
 */
#include "kshim.h"

#define CONFIG_SMP 1
#if KV < 500
#define CONFIG_64BIT 1     /* 4.19 update_cfs_rq_load_avg(): no last_update_time copy */
#endif
/* CONFIG_SCHED_HW_PRESSURE, CONFIG_HAVE_SCHED_AVG_IRQ, CONFIG_CFS_BANDWIDTH,
 * CONFIG_FAIR_GROUP_SCHED: all off */

struct load_weight { unsigned long weight; u32 inv_weight; };
#include "gen/sched_avg.h"

struct cfs_rq;
struct sched_entity {
	struct load_weight load;
	int on_rq;
	unsigned char sched_delayed;
	unsigned long runnable_weight;      /* 4.19 */
	struct sched_avg avg;
	struct cfs_rq *cfs_rq;
};
struct sched_class { const char *name; };
static const struct sched_class fair_sched_class = { "fair" };
static const struct sched_class rt_sched_class = { "rt" };
static const struct sched_class dl_sched_class = { "dl" };
static const struct sched_class idle_sched_class = { "idle" };

#define TASK_ON_RQ_QUEUED 1
struct task_struct {
	struct sched_entity se;
	const struct sched_class *sched_class;
	int on_rq;
	int cpu;
	int is_idle;
};
struct cfs_rq {
	struct load_weight load;
	unsigned int nr_running, h_nr_running, h_nr_queued, h_nr_delayed, h_nr_runnable;
	unsigned long runnable_weight;      /* 4.19 */
	struct sched_entity *curr;
	struct sched_avg avg;
	u64 last_update_time_copy;
	struct { int nr; unsigned long util_avg, load_avg, runnable_avg, runnable_sum; int lock; } removed;
	struct rq *rq;
};
struct rq {
	int cpu;
	u64 clock, clock_task, clock_pelt, lost_idle_time, clock_idle, clock_pelt_idle;
	struct task_struct *curr, *donor;
	unsigned long cpu_capacity_orig;
	struct cfs_rq cfs;
	struct sched_avg avg_rt, avg_dl, avg_hw, avg_irq;
};

/* ---- harness state / hooks used by the kernel code ---- */
/* two CPUs: the task's runqueue is *g_rq; a wakeup may move it to the other */
static struct rq RQS[2];
static struct rq *g_rq = &RQS[0];
#define RQ (*g_rq)
static struct task_struct P, IDLE, OTHER;
#define current (g_rq->curr)
static unsigned long g_cpu_cap = 1024, g_freq_cap = 1024;
static unsigned long g_cpufreq_calls;
static int feat_UTIL_EST = 1;
static int feat_UTIL_EST_FASTUP = 1;
#define sched_feat(x) (feat_##x)

static inline int cpu_of(struct rq *rq) { return rq->cpu; }
static inline struct rq *rq_of(struct cfs_rq *cfs_rq) { return cfs_rq->rq; }
static inline struct cfs_rq *cfs_rq_of(struct sched_entity *se) { return se->cfs_rq; }
static inline struct rq *cpu_rq(int cpu) { return &RQS[cpu & 1]; }
static inline int task_cpu(const struct task_struct *p) { return p->cpu; }
static inline int task_on_rq_queued(struct task_struct *p) { return p->on_rq == TASK_ON_RQ_QUEUED; }
static inline bool is_idle_task(const struct task_struct *p) { return p->is_idle; }
#define entity_is_task(se) 1
static inline u64 rq_clock(struct rq *rq) { return rq->clock; }
static inline u64 rq_clock_task(struct rq *rq) { return rq->clock_task; }
#if KV < 500
static int feat_ATTACH_AGE_LOAD = 1;
static inline unsigned long arch_scale_cpu_capacity(void *sd, int cpu) { (void)sd; (void)cpu; return g_cpu_cap; }
static inline struct task_struct *task_of(struct sched_entity *se)
{
	return (struct task_struct *)((char *)se - __builtin_offsetof(struct task_struct, se));
}
#define SCHED_CPUFREQ_MIGRATION (1U << 1)     /* include/linux/sched/cpufreq.h */
/* 4.19 sched_avg: the runnable load of enqueued entities in place of runnable_avg */
#define RUNNABLE_AVG(sa) ((sa).runnable_load_avg)
#else
static inline unsigned long arch_scale_cpu_capacity(int cpu) { (void)cpu; return g_cpu_cap; }
#define RUNNABLE_AVG(sa) ((sa).runnable_avg)
#endif
static inline unsigned long arch_scale_freq_capacity(int cpu) { (void)cpu; return g_freq_cap; }
static inline unsigned long arch_scale_hw_pressure(int cpu) { (void)cpu; return 0; }
#define u64_u32_store(var, val) do { (var) = (val); } while (0)
#define u64_u32_store_copy(var, copy, val) do { (var) = (val); (copy) = (val); } while (0)
#define SET_CURR(t) do { RQ.curr = RQ.donor = (t); } while (0)
#define u64_u32_load_copy(var, copy) (var)
#define raw_spin_lock_irqsave(l, f) ((void)(f))
#define raw_spin_unlock_irqrestore(l, f) ((void)(f))
static inline void cpufreq_update_util(struct rq *rq, unsigned int flags) { (void)rq; (void)flags; g_cpufreq_calls++; }

#define trace_pelt_se_tp(x) ((void)(x))
#define trace_pelt_cfs_tp(x) ((void)(x))
#define trace_pelt_rt_tp(x) ((void)(x))
#define trace_pelt_dl_tp(x) ((void)(x))
#define trace_pelt_hw_tp(x) ((void)(x))
#define trace_pelt_irq_tp(x) ((void)(x))
#define trace_sched_util_est_cfs_tp(x) ((void)(x))
#define trace_sched_util_est_se_tp(x) ((void)(x))

/* util_est storage: struct util_est {enqueued, ewma} before 6.8, one word after */
#if KV < 608
#define P_UE_EWMA    (P.se.avg.util_est.ewma)
#define P_UE_UNCH    (!!(P.se.avg.util_est.enqueued & UTIL_AVG_UNCHANGED))
#define CFS_UE       (RQ.cfs.avg.util_est.enqueued)
#else
#define P_UE_EWMA    (P.se.avg.util_est & ~UTIL_AVG_UNCHANGED)
#define P_UE_UNCH    (!!(P.se.avg.util_est & UTIL_AVG_UNCHANGED))
#define CFS_UE       (RQ.cfs.avg.util_est)
#endif
#define SET_CAPS(c, f) do { g_cpu_cap = (c); g_freq_cap = (f); RQ.cpu_capacity_orig = (c); } while (0)

#include "gen/sched_helpers.h"
/* the kernel's own PELT implementation, unmodified (4.19's pelt.h has no include
 * guard: pelt.c includes it) */
#if KV >= 500
#include "pelt.h"
#endif
#include "pelt.c"

/* !CONFIG_FAIR_GROUP_SCHED stubs (identical to fair.c's) */
#if KV < 500
static inline void update_tg_load_avg(struct cfs_rq *cfs_rq, int force) { (void)cfs_rq; (void)force; }
static void propagate_entity_cfs_rq(struct sched_entity *se) { (void)se; }
static void attach_entity_cfs_rq(struct sched_entity *se);   /* as fair.c declares it */
#else
static inline void update_tg_load_avg(struct cfs_rq *cfs_rq) { (void)cfs_rq; }
#endif
static inline int propagate_entity_load_avg(struct sched_entity *se) { (void)se; return 0; }
static inline void add_tg_cfs_propagate(struct cfs_rq *cfs_rq, long runnable_sum) { (void)cfs_rq; (void)runnable_sum; }

#include "gen/fair_extract.c"
#include "gen/cpufreq_helpers.h"

/* ------------------------------------------------------------------ */
/* mini scheduler: mirrors the 6.12 call order (harness-written glue) */

#define NICE_0_WEIGHT scale_load(1024UL)

static void update_rq_clock_to(u64 now)
{
	/* update_rq_clock() + update_rq_clock_task() without irq/steal time */
	s64 delta = (s64)(now - RQ.clock);
	if (delta <= 0)
		return;
	RQ.clock += delta;
	RQ.clock_task += delta;
#if KV >= 500
	update_rq_clock_pelt(&RQ, delta);
#else
	RQ.clock_pelt = RQ.clock_task;   /* 4.19 has no PELT clock: the column shows the
	                                    clock its updates run on, rq_clock_task() */
#endif
}

/* enqueue_entity()'s PELT part: update_load_avg(DO_ATTACH), 4.19's runnable load,
 * account_entity_enqueue() and the counts of enqueue_task_fair() */
static void enqueue_p(void)
{
	update_load_avg(&RQ.cfs, &P.se, UPDATE_TG | DO_ATTACH);
#if KV < 500
	enqueue_runnable_load_avg(&RQ.cfs, &P.se);
#endif
	RQ.cfs.load.weight += P.se.load.weight;          /* account_entity_enqueue */
	RQ.cfs.nr_running++;
	P.se.on_rq = 1;
	RQ.cfs.h_nr_queued++;
	RQ.cfs.h_nr_running++;
	RQ.cfs.h_nr_runnable++;                            /* enqueue_task_fair */
	P.on_rq = TASK_ON_RQ_QUEUED;
}

static void setup(u64 t0, int init_kernel)
{
	memset(RQS, 0, sizeof(RQS));
	memset(&P, 0, sizeof(P));
	memset(&IDLE, 0, sizeof(IDLE));
	memset(&OTHER, 0, sizeof(OTHER));
	for (int i = 1; i >= 0; i--) {               /* CPU 1 idle since t0, then CPU 0 */
		g_rq = &RQS[i];
		RQ.cpu = i;
		RQ.cfs.rq = &RQ;
		RQ.clock = RQ.clock_task = RQ.clock_pelt = t0;
		SET_CURR(&IDLE);
	}
	SET_CAPS(1024, 1024);
	IDLE.is_idle = 1;
	IDLE.sched_class = &idle_sched_class;
	OTHER.sched_class = &rt_sched_class;
	P.sched_class = &fair_sched_class;
	P.se.cfs_rq = &RQ.cfs;
	P.se.load.weight = NICE_0_WEIGHT;
	/* boot: clocks start at t0 */
	/* sched_fork(): __sched_fork() -> init_entity_runnable_average() */
	init_entity_runnable_average(&P.se);
	/* wake_up_new_task(): update_rq_clock(); post_init_entity_util_avg();
	 * activate_task(ENQUEUE_INITIAL) */
	update_rq_clock_to(t0);
#if KV < 500
	/* 4.19: post_init_entity_util_avg(se) sets util_avg and attaches the task */
	if (init_kernel)
		post_init_entity_util_avg(&P.se);
	else
		attach_entity_cfs_rq(&P.se);                 /* what it does after util_avg */
#else
	if (init_kernel)
		post_init_entity_util_avg(&P);
#endif
	util_est_enqueue(&RQ.cfs, &P);
	enqueue_p();
}

/* P becomes current (from IDLE or OTHER): pick_next_task_fair -> set_next_entity */
static void run_p(u64 now)
{
	update_rq_clock_to(now);
	update_load_avg(&RQ.cfs, &P.se, UPDATE_TG);      /* set_next_entity, se->on_rq */
	RQ.cfs.curr = &P.se;
	SET_CURR(&P);
}

/* P is preempted by a non-CFS activity: put_prev_entity(), rq->curr = OTHER */
static void preempt_p(u64 now)
{
	update_rq_clock_to(now);
	update_load_avg(&RQ.cfs, &P.se, 0);
	RQ.cfs.curr = NULL;
	SET_CURR(&OTHER);
}

/* P blocks: dequeue_task_fair(DEQUEUE_SLEEP) then switch to idle */
static void sleep_p(u64 now)
{
	update_rq_clock_to(now);
#if KV >= 500
	util_est_dequeue(&RQ.cfs, &P);
#endif
#if KV >= 608
	util_est_update(&RQ.cfs, &P, true);              /* before dequeue_entities() */
#endif
	/* dequeue_entity() */
	update_load_avg(&RQ.cfs, &P.se, UPDATE_TG);
#if KV < 500
	dequeue_runnable_load_avg(&RQ.cfs, &P.se);
#endif
	P.se.on_rq = 0;
	RQ.cfs.load.weight -= P.se.load.weight;          /* account_entity_dequeue */
	RQ.cfs.nr_running--;
	RQ.cfs.h_nr_queued--;                            /* dequeue_entities */
	RQ.cfs.h_nr_running--;
	RQ.cfs.h_nr_runnable--;
	P.on_rq = 0;
#if KV < 500
	util_est_dequeue(&RQ.cfs, &P, true);             /* the sum and the update, after the loop */
#elif KV < 608
	util_est_update(&RQ.cfs, &P, true);              /* after the dequeue loop */
#endif
	/* put_prev_entity(): prev->on_rq == 0 -> no PELT update */
	RQ.cfs.curr = NULL;
	/* pick_next_task -> set_next_task_idle() */
#if KV >= 500
	update_idle_rq_clock_pelt(&RQ);
#endif
	SET_CURR(&IDLE);
}

/* P wakes up on this CPU: ttwu -> update_rq_clock -> enqueue_task_fair */
static void wake_p(u64 now)
{
	update_rq_clock_to(now);
	util_est_enqueue(&RQ.cfs, &P);
	enqueue_p();
}

/* P, asleep, wakes up on the other CPU: select_task_rq() -> set_task_cpu() ->
 * migrate_task_rq_fair() (not TASK_ON_RQ_MIGRATING: remove_entity_load_avg(), which
 * syncs P to its cfs_rq's last update and queues its averages for removal; 6.0+'s
 * migrate_se_pelt_lag() is empty without CONFIG_NO_HZ_COMMON; last_update_time = 0),
 * then the wakeup on the new CPU attaches it (wake_p: enqueue with DO_ATTACH). */
static void migrate_p(int cpu)
{
	remove_entity_load_avg(&P.se);
	P.se.avg.last_update_time = 0;
	g_rq = &RQS[cpu & 1];
	P.cpu = cpu & 1;
	P.se.cfs_rq = &RQ.cfs;
	RQ.cpu_capacity_orig = g_cpu_cap;   /* the capacities in effect (SET_CAPS) */
}

/* scheduler tick while P is current: entity_tick() */
static void tick_p(u64 now)
{
	update_rq_clock_to(now);
	update_load_avg(&RQ.cfs, &P.se, UPDATE_TG);
}

static void header(void)
{
	printf("t_ns,event,seg,state,cpu_cap,freq_cap,clock_task,clock_pelt,lost_idle_time,"
	       "p_util_avg,p_util_sum,p_period_contrib,p_runnable_avg,p_load_avg,p_last_update_time,"
	       "p_util_est,p_ue_unchanged,"
	       "cfs_util_avg,cfs_util_sum,cfs_runnable_avg,cfs_load_avg,cfs_util_est,"
	       "cpu_util_cfs,cpu_util_cfs_boost,cpu_util_without_p,task_util_est_p,sugov_perf,cpufreq_calls%s\n",
	       KV < 608 ? ",p_ue_enqueued" : "");
}

#if KV < 500
/* 4.19 has cpu_util(cpu) (cpu_util_cfs() of 6.x without p) and no runnable boost
 * (v6.5); map_util_perf() (v6.1) is the 25 % headroom schedutil put on the
 * frequency then: the sugov_perf column is that headroom, harness arithmetic. */
#define cpu_util_cfs(cpu) cpu_util(cpu)
#define cpu_util_cfs_boost(cpu) cpu_util(cpu)
#define map_util_perf(u) ((u) + ((u) >> 2))
#endif

static void row(u64 t, const char *ev, int seg, char st)
{
	unsigned long boost = cpu_util_cfs_boost(RQ.cpu);
	unsigned long perf = map_util_perf(boost);
	if (perf > g_cpu_cap)      /* sugov_effective_cpu_perf(): min(actual, max) */
		perf = g_cpu_cap;
	printf("%llu,%s,%d,%c,%lu,%lu,%llu,%llu,%llu,"
	       "%lu,%u,%u,%lu,%lu,%llu,"
	       "%u,%u,"
	       "%lu,%u,%lu,%lu,%u,"
	       "%lu,%lu,%lu,%lu,%lu,%lu",
	       (unsigned long long)t, ev, seg, st, g_cpu_cap, g_freq_cap,
	       (unsigned long long)RQ.clock_task, (unsigned long long)RQ.clock_pelt,
	       (unsigned long long)RQ.lost_idle_time,
	       P.se.avg.util_avg, P.se.avg.util_sum, P.se.avg.period_contrib,
	       RUNNABLE_AVG(P.se.avg), P.se.avg.load_avg,
	       (unsigned long long)P.se.avg.last_update_time,
	       P_UE_EWMA, P_UE_UNCH,
	       RQ.cfs.avg.util_avg, RQ.cfs.avg.util_sum, RUNNABLE_AVG(RQ.cfs.avg),
	       RQ.cfs.avg.load_avg, CFS_UE,
	       cpu_util_cfs(RQ.cpu), boost, cpu_util_without(RQ.cpu, &P), task_util_est(&P), perf,
	       g_cpufreq_calls);
#if KV < 608
	printf(",%u", P.se.avg.util_est.enqueued);
#endif
	printf("\n");
}

static int run_trace(const char *path, int init_kernel, u64 t0)
{
	FILE *f = fopen(path, "r");
	char line[256];
	u64 t = t0;
	char prev = 0;
	int seg = 0;

	if (!f) { perror(path); return 1; }
	header();
	while (fgets(line, sizeof(line), f)) {
		unsigned long long dur;
		char st;
		unsigned long cap = 1024, fcap = 1024;
		int n, cpu = 0;

		if (line[0] == '#' || line[0] == '\n' || line[0] == 'd')
			continue;
		n = sscanf(line, "%llu,%c,%lu,%lu,%d", &dur, &st, &cap, &fcap, &cpu);
		if (n < 2) { fprintf(stderr, "bad line: %s", line); return 1; }

		/* transition at time t into state st (uses caps of the elapsed segment) */
		if (!prev) {
			if (st != 'R' || cpu != 0) { fprintf(stderr, "first segment must be R on cpu 0\n"); return 1; }
			setup(t0, init_kernel);
			row(t, "fork", seg, 'S');
			run_p(t);
			row(t, "run", seg, st);
		} else if (cpu != P.cpu && !(prev == 'S' && st != 'S')) {
			fprintf(stderr, "a migration (cpu %d -> %d) is only replayed at a wakeup\n", P.cpu, cpu);
			return 1;
		} else if (prev != st) {
			if (prev == 'S') row(t, "wake_pre", seg, 'S'); /* select_task_rq() view: before clock update + enqueue */
			if (prev == 'S' && cpu != P.cpu) migrate_p(cpu);
			if (prev == 'S' && st == 'R') { wake_p(t); row(t, "wake", seg, st); run_p(t); row(t, "run", seg, st); }
			else if (prev == 'S' && st == 'W') { wake_p(t); SET_CURR(&OTHER); row(t, "wake", seg, st); }
			else if (prev == 'R' && st == 'S') { sleep_p(t); row(t, "sleep", seg, st); }
			else if (prev == 'R' && st == 'W') { preempt_p(t); row(t, "preempt", seg, st); }
			else if (prev == 'W' && st == 'R') { run_p(t); row(t, "run", seg, st); }
			else { fprintf(stderr, "unsupported transition %c->%c\n", prev, st); return 1; }
		}
		SET_CAPS(cap, fcap);

		/* ticks strictly inside the segment while P is current */
		if (st == 'R') {
			u64 end = t + dur;
			u64 k = t / TICK_NSEC + 1;
			for (; k * TICK_NSEC < end; k++) {
				tick_p(k * TICK_NSEC);
				row(k * TICK_NSEC, "tick", seg, st);
			}
		}
		t += dur;
		prev = st;
		seg++;
	}
	/* final observation: bring the clock to the end and update as a tick would */
	if (prev == 'R') { tick_p(t); row(t, "end", seg, prev); }
	else { update_rq_clock_to(t); row(t, "end", seg, prev); }
	fclose(f);
	return 0;
}

/* ---- unit-level goldens ---- */
static u64 lcg_state = 0x243F6A8885A308D3ULL;
static u64 lcg(void) { lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL; return lcg_state; }

static void golden_decay(void)
{
	static const u64 vals[] = { 0, 1, 2, 1023, 1024, 47742, 47742ULL << 10, 0xffffffffULL,
				    (u64)LOAD_AVG_MAX * 1024 * 88761, 0x7fffffffffffffffULL };
	printf("val,n,decay_load\n");
	for (unsigned i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		for (u64 n = 0; n <= 2100; n += (n < 70 ? 1 : 31))
			printf("%llu,%llu,%llu\n", (unsigned long long)vals[i], (unsigned long long)n,
			       (unsigned long long)decay_load(vals[i], n));
	for (int i = 0; i < 2000; i++) {
		u64 v = lcg() >> (lcg() % 64);
		u64 n = lcg() % 2200;
		printf("%llu,%llu,%llu\n", (unsigned long long)v, (unsigned long long)n,
		       (unsigned long long)decay_load(v, n));
	}
}

static void golden_accumulate(void)
{
	/* random walk of one sched_avg through ___update_load_sum/avg */
	struct sched_avg sa;
	u64 now = 1048576000ULL;
	memset(&sa, 0, sizeof(sa));
	sa.last_update_time = now;
#if KV < 500
	/* 4.19 scales each contribution by the capacities at the update: random ones */
	printf("step,delta_ns,load,runnable,running,cpu_cap,freq_cap,ret_sum,ret_avg,last_update_time,load_sum,runnable_load_sum,util_sum,period_contrib,load_avg,runnable_load_avg,util_avg\n");
#else
	printf("step,delta_ns,load,runnable,running,ret_sum,ret_avg,last_update_time,load_sum,runnable_sum,util_sum,period_contrib,load_avg,runnable_avg,util_avg\n");
#endif
	for (int i = 0; i < 20000; i++) {
		u64 r = lcg();
		u64 delta;
		switch (r % 5) {
		case 0: delta = lcg() % 1024; break;             /* sub-unit */
		case 1: delta = lcg() % (1024 * 1024); break;    /* < 1 period */
		case 2: delta = lcg() % (8 * 1024 * 1024); break;
		case 3: delta = lcg() % (100ULL * 1024 * 1024); break;
		default: delta = lcg() % (3000ULL * 1024 * 1024); break; /* > 63 half-lives */
		}
		unsigned long load = (r >> 8) % 3 ? 1 : 0;       /* entity-style 0/1 */
		unsigned long runnable = load ? ((r >> 12) % 4 ? 1 : 0) : 0;
		int running = runnable ? (int)((r >> 16) % 2) : 0;
		now += delta;
#if KV < 500
		static const unsigned long caps[] = { 1024, 446, 160, 1, 512, 1023 };
		u64 c = lcg();
		SET_CAPS(caps[c % 6], c % 3 ? (c >> 8) % 1024 + 1 : 1024);
		int ret = ___update_load_sum(now, 0, &sa, load, runnable, running);
		int reta = 0;
		if (ret) { ___update_load_avg(&sa, 1024, 1024); reta = 1; }
		printf("%d,%llu,%lu,%lu,%d,%lu,%lu,%d,%d,%llu,%llu,%llu,%u,%u,%lu,%lu,%lu\n", i,
		       (unsigned long long)delta, load, runnable, running, g_cpu_cap, g_freq_cap, ret, reta,
		       (unsigned long long)sa.last_update_time, (unsigned long long)sa.load_sum,
		       (unsigned long long)sa.runnable_load_sum, sa.util_sum, sa.period_contrib,
		       sa.load_avg, sa.runnable_load_avg, sa.util_avg);
#else
		int ret = ___update_load_sum(now, &sa, load, runnable, running);
		int reta = 0;
		if (ret) { ___update_load_avg(&sa, 1024); reta = 1; }
		printf("%d,%llu,%lu,%lu,%d,%d,%d,%llu,%llu,%llu,%u,%u,%lu,%lu,%lu\n", i,
		       (unsigned long long)delta, load, runnable, running, ret, reta,
		       (unsigned long long)sa.last_update_time, (unsigned long long)sa.load_sum,
		       (unsigned long long)sa.runnable_sum, sa.util_sum, sa.period_contrib,
		       sa.load_avg, sa.runnable_avg, sa.util_avg);
#endif
	}
}

static void golden_utilest(void)
{
	/* util_est_update() on a task with synthetic util/runnable values */
	memset(RQS, 0, sizeof(RQS));
	RQ.cfs.rq = &RQ;
	P.se.cfs_rq = &RQ.cfs;
#if KV < 608
	printf("step,cpu_cap,ewma_in,flag_in,enqueued_in,util_avg,runnable_avg,task_sleep,ewma_out,flag_out,enqueued_out\n");
#else
	printf("step,cpu_cap,ewma_in,flag_in,util_avg,runnable_avg,task_sleep,ewma_out,flag_out\n");
#endif
	for (int i = 0; i < 20000; i++) {
		u64 r = lcg();
		unsigned int ewma = (unsigned int)(lcg() % 1100);
		unsigned int flag = (r % 7 == 0);
		SET_CAPS((r >> 4) % 3 == 0 ? 446 : 1024, 1024);
#if KV < 608
		unsigned int enq = (r >> 20) % 2 ? ewma + (unsigned int)(lcg() % 30) - 15 : (unsigned int)(lcg() % 1100);
		P.se.avg.util_est.ewma = ewma;
		P.se.avg.util_est.enqueued = enq | (flag ? UTIL_AVG_UNCHANGED : 0);
#else
		P.se.avg.util_est = ewma | (flag ? UTIL_AVG_UNCHANGED : 0);
#endif
		P.se.avg.util_avg = lcg() % 1100;
		RUNNABLE_AVG(P.se.avg) = (r >> 8) % 2 ? P.se.avg.util_avg + lcg() % 60 : lcg() % 1100;
		int sleep = (r >> 12) % 10 != 0;
#if KV < 500
		util_est_dequeue(&RQ.cfs, &P, sleep);        /* RQ.cfs's sum stays 0 */
#else
		util_est_update(&RQ.cfs, &P, sleep);
#endif
#if KV < 608
		printf("%d,%lu,%u,%u,%u,%lu,%lu,%d,%u,%u,%u\n", i, g_cpu_cap, ewma, flag, enq,
		       P.se.avg.util_avg, RUNNABLE_AVG(P.se.avg), sleep, P.se.avg.util_est.ewma,
		       !!(P.se.avg.util_est.enqueued & UTIL_AVG_UNCHANGED),
		       P.se.avg.util_est.enqueued & ~UTIL_AVG_UNCHANGED);
#else
		printf("%d,%lu,%u,%u,%lu,%lu,%d,%u,%u\n", i, g_cpu_cap, ewma, flag,
		       P.se.avg.util_avg, P.se.avg.runnable_avg, sleep,
		       P_UE_EWMA, P_UE_UNCH);
#endif
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s trace FILE [-i kernel|zero] [-t0 NS] | decay | accumulate | utilest\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "decay")) { golden_decay(); return 0; }
	if (!strcmp(argv[1], "accumulate")) { golden_accumulate(); return 0; }
	if (!strcmp(argv[1], "utilest")) { golden_utilest(); return 0; }
	if (!strcmp(argv[1], "trace") && argc >= 3) {
		int init_kernel = 1;
		u64 t0 = 1048576000ULL; /* 1000 PELT periods: period-aligned, non-zero */
		for (int i = 3; i < argc; i++) {
			if (!strcmp(argv[i], "-i") && i + 1 < argc) init_kernel = strcmp(argv[++i], "zero") != 0;
			else if (!strcmp(argv[i], "-t0") && i + 1 < argc) t0 = strtoull(argv[++i], NULL, 10);
			else if (!strcmp(argv[i], "--no-util-est")) feat_UTIL_EST = 0;
			else if (!strcmp(argv[i], "--no-fastup")) feat_UTIL_EST_FASTUP = 0;
		}
		return run_trace(argv[2], init_kernel, t0);
	}
	fprintf(stderr, "bad args\n");
	return 2;
}
