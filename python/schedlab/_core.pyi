"""Type stubs of the native module ``schedlab._core`` (hand-written).

Functions here take float64 numpy arrays; the public wrappers in
``schedlab.stats`` (and the other submodules) convert array-likes first.
"""

from collections.abc import Callable, Iterator, Mapping, Sequence
from os import PathLike
from typing import Any, final, overload

import numpy as np
import numpy.typing as npt
from typing_extensions import Self, disjoint_base

__version__: str

_F64 = npt.NDArray[np.float64]
_U64 = npt.NDArray[np.uint64]

# --- stats (src/python/stats.rs) -------------------------------------------
TEST_NAMES: list[str]
def amean(x: _F64) -> float: ...
def hmean(x: _F64) -> float: ...
def gmean(x: _F64) -> float: ...
def median(x: _F64) -> float: ...
def min(x: _F64) -> float: ...
def max(x: _F64) -> float: ...
def coeff_var(x: _F64) -> float: ...
def percentiles(x: _F64, qs: _F64) -> _F64: ...
def stddev(x: _F64, ddof: int) -> float: ...
def bamean(x: _F64, pct: float, higher_is_better: bool) -> float: ...
def ci_mean(x: _F64, level: float) -> tuple[float, float, float, float]: ...
def pct_change(base: float, new: float, higher_is_better: bool) -> float: ...
def ratio(base: float, new: float) -> float: ...
def gmean_ratio(bases: _F64, news: _F64, higher_is_better: bool) -> float: ...
def welch_ttest(a: _F64, b: _F64) -> tuple[float, float, float]: ...
def mann_whitney_u(a: _F64, b: _F64, method: str) -> tuple[float, float, str]: ...
def bootstrap_ci(
    base: _F64,
    new: _F64,
    statistic: str,
    level: float,
    n_resamples: int,
    seed: int,
    threads: int | None,
) -> tuple[float, float, float, float, int, int]: ...
def fdr_bh(p: _F64) -> _F64: ...
def summarize_many(values: _F64, lengths: _U64, threads: int | None) -> dict[str, object]: ...
def compare_many(
    base_values: _F64,
    base_lengths: _U64,
    new_values: _F64,
    new_lengths: _U64,
    higher_is_better: bool,
    method: str,
    threads: int | None,
) -> dict[str, object]: ...
def parse_samples(data: bytes, path: str | None = None) -> _F64: ...
def read_samples(path: str | PathLike[str]) -> _F64: ...

# --- comparison (src/python/comparison.rs) ---------------------------------
SCHEMA_VERSION: int
TABLE_FORMATS: list[str]
DIRECTIONS: list[str]
VERDICT_COLOURS: dict[str, tuple[str, str]]
HTML_TABLE_STYLE: str
HTML_CELL_STYLE: str
HTML_HEAD_STYLE: str

@final
class Cell:
    def __new__(
        cls,
        *,
        value: float | None = None,
        spread: float | None = None,
        change: float | None = None,
        significant: bool | None = None,
        p: float | None = None,
        q: float | None = None,
        test: str | None = None,
        verdict: str | None = None,
        n: int | None = None,
        samples: list[float] | None = None,
    ) -> Cell: ...
    @property
    def value(self) -> float | None: ...
    @property
    def spread(self) -> float | None: ...
    @property
    def change(self) -> float | None: ...
    @property
    def significant(self) -> bool | None: ...
    @property
    def p(self) -> float | None: ...
    @property
    def q(self) -> float | None: ...
    @property
    def test(self) -> str | None: ...
    @property
    def verdict(self) -> str | None: ...
    @property
    def n(self) -> int | None: ...
    @property
    def samples(self) -> list[float] | None: ...
    def __eq__(self, other: object, /) -> bool: ...

@final
class Row:
    def __new__(
        cls,
        name: str,
        cells: Sequence[Cell],
        *,
        group: str = ...,
        direction: str = "unknown",
        change_kind: str = "percent",
        unit: str | None = None,
    ) -> Row: ...
    @property
    def name(self) -> str: ...
    @property
    def group(self) -> str: ...
    @property
    def direction(self) -> str: ...
    @property
    def change_kind(self) -> str: ...
    @property
    def unit(self) -> str | None: ...
    @property
    def cells(self) -> list[Cell]: ...
    def __eq__(self, other: object, /) -> bool: ...

@disjoint_base
class Comparison:
    @overload
    def __new__(
        cls,
        tool: str,
        kernels: Sequence[str],
        rows: Sequence[Row] | None = None,
        *,
        benchmark: str = ...,
        meta: Mapping[str, Any] | None = None,
        schema: int = ...,
    ) -> Self: ...
    @overload
    def __new__(cls, tool: Comparison) -> Self: ...
    @classmethod
    def from_json(cls, text: str) -> Self: ...
    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self: ...
    def to_json(self, indent: int | None = None) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_markdown(self) -> str: ...
    def to_benchstat(self) -> str: ...
    def to_csv(self) -> str: ...
    def to_text(self) -> str: ...
    def to_amd(self, normalise: bool = False, spread_is_stddev: bool = True) -> str: ...
    def to_pandas(self) -> Any: ...  # a pandas.DataFrame (pandas has no type stubs)
    def cell_texts(self) -> list[list[str]]: ...
    def _repr_html_(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...
    @property
    def tool(self) -> str: ...
    @property
    def benchmark(self) -> str: ...
    @property
    def schema(self) -> int: ...
    @property
    def kernels(self) -> list[str]: ...
    @property
    def meta(self) -> dict[str, Any]: ...
    @property
    def rows(self) -> list[Row]: ...

# --- table (src/python/table.rs) --------------------------------------------
def parse_tables(text: str, source: str = "<text>") -> list[Comparison]: ...
def parse_amd(text: str) -> list[Comparison]: ...
def verdict_defaults() -> tuple[float, float, float]: ...
def verdict_rule_text(test: str, alpha: float, margin: float, power: float) -> str: ...
def direction(name: str) -> str: ...
def assess(
    base_values: _F64,
    base_lengths: _U64,
    new_values: _F64,
    new_lengths: _U64,
    directions: list[str],
    *,
    test: str = "welch",
    alpha: float | None = None,
    margin: float | None = None,
    power: float | None = None,
    min_change: float = 0.0,
    threads: int | None = None,
) -> dict[str, object]: ...
def compare_sample_groups(
    groups: list[str],
    names: list[str],
    values: _F64,
    lengths: _U64,
    *,
    units: list[str | None],
    directions: list[str],
    test: str = "welch",
    alpha: float | None = None,
    margin: float | None = None,
    power: float | None = None,
    threads: int | None = None,
) -> Comparison: ...

# --- lkp (src/python/lkp.rs) -----------------------------------------------
@disjoint_base
class ResultRoot:
    def __new__(cls, path: str | PathLike[str]) -> Self: ...
    @property
    def path(self) -> str: ...
    @property
    def commit(self) -> str: ...
    @property
    def axes(self) -> dict[str, str]: ...
    @property
    def runs(self) -> int: ...
    @property
    def keys(self) -> list[str]: ...
    @property
    def matrix(self) -> dict[str, list[float]]: ...
    @property
    def integer(self) -> dict[str, list[bool]]: ...
    @property
    def stats_source(self) -> list[str] | None: ...
    def values(self, metric: str) -> list[float]: ...
    def __len__(self) -> int: ...
    def __contains__(self, metric: str, /) -> bool: ...

_Root = str | PathLike[str] | ResultRoot

def lkp_compare_text(roots: Sequence[_Root], *, all_keys: bool = False, more: bool = False, kpi: bool = False,
                     perf_profile_threshold: float | None = None) -> str: ...
def lkp_find_root(dir: str | PathLike[str], prefix: str) -> str: ...
def lkp_compare_query_text(dir: str | PathLike[str], queries: list[tuple[bool, str]], compare_keys: list[str], *,
                           all_keys: bool = False, more: bool = False, kpi: bool = False,
                           perf_profile_threshold: float | None = None) -> str: ...
def lkp_compare(roots: Sequence[_Root], *, all_keys: bool = False, more: bool = False, test: str = "welch",
                alpha: float = 0.05, kpi: bool = False, perf_profile_threshold: float | None = None) -> Comparison: ...
def lkp_metric_samples(path: str | PathLike[str], metric: str) -> list[float]: ...
def lkp_run_stats(run_dir: str | PathLike[str]) -> dict[str, float]: ...
def lkp_run_stats_json(run_dir: str | PathLike[str]) -> str: ...
def lkp_unite(runs: list[tuple[str, str]]) -> tuple[str, str, str]: ...
def lkp_run_dirs(root: str | PathLike[str]) -> list[str]: ...
def lkp_parse_report(text: str) -> dict[str, Any]: ...
def lkp_parse_report_comparison(text: str) -> Comparison: ...
def lkp_text_plot(title: str, bad: list[float], good: list[float], *, script: bool = False) -> str: ...
# --- mmtests (src/python/mmtests.rs) -----------------------------------------
MMTESTS_ERAS: list[str]
def mmtests_compare(
    directory: str | PathLike[str],
    benchmark: str,
    names: list[str],
    *,
    compat: str | None = None,
    print_ratio: bool = False,
    subheading: str = ...,
    test: str = ...,
    alpha: float = 0.05,
    threads: int | None = None,
) -> tuple[Comparison, str, str, list[str]]: ...
def mmtests_parse_compare(text: str, source: str = ...) -> Comparison: ...
def mmtests_gmean_ratio(comparison: Comparison) -> list[float]: ...
def mmtests_overview_label(ratio: float | None) -> str: ...
def mmtests_apply_test(comparison: Comparison, test: str, alpha: float) -> Comparison: ...
MMTESTS_MONITORS: list[str]
def mmtests_monitor(
    directory: str | PathLike[str],
    benchmark: str,
    names: list[str],
    monitor: str,
    *,
    compat: str | None = None,
    subheading: str = ...,
) -> tuple[Comparison, str, str, list[str]]: ...
def mmtests_bootstrap_gmean(
    comparison: Comparison, k: int, *, level: float = 0.95, n_resamples: int = 2000, seed: int = 0, threads: int | None = None
) -> tuple[float, float, float]: ...

# --- pelt (src/python/pelt.rs) ---------------------------------------------
_I64 = npt.NDArray[np.int64]
_U8 = npt.NDArray[np.uint8]

def pelt_simulate_arrays(
    dur_ns: _I64,
    state: _U8,
    cpu_cap: _I64,
    freq_cap: _I64,
    init: str,
    util_est: bool,
    rule: str | None,
    execl_fix: bool | None,
    tick_ns: int,
    start_ns: int,
    columns: list[str] | None = None,
    events: list[str] | None = None,
    kernel: str | None = None,
    given: tuple[int, int | None, int | None, tuple[int, int] | None] | None = None,
) -> dict[str, np.ndarray]: ...
def pelt_simulate_file(
    path: str | PathLike[str],
    init: str,
    util_est: bool,
    rule: str | None,
    execl_fix: bool | None,
    tick_ns: int,
    start_ns: int,
    columns: list[str] | None = None,
    events: list[str] | None = None,
    kernel: str | None = None,
    given: tuple[int, int | None, int | None, tuple[int, int] | None] | None = None,
) -> dict[str, np.ndarray]: ...
def pelt_simulate_csv(
    data: bytes | None,
    path: str,
    out: str | PathLike[str] | None,
    init: str,
    util_est: bool,
    rule: str | None,
    execl_fix: bool | None,
    tick_ns: int,
    start_ns: int,
    write: Callable[[bytes], object] | None = None,
    kernel: str | None = None,
    given: tuple[int, int | None, int | None, tuple[int, int] | None] | None = None,
) -> bytes | None: ...
def pelt_parse_trace(data: bytes, path: str | None = None) -> dict[str, np.ndarray]: ...
def pelt_read_trace(path: str | PathLike[str]) -> dict[str, np.ndarray]: ...
def pelt_ftrace(
    data: bytes | None,
    path: str | PathLike[str] | None,
    pid: int,
    cpu_cap: int | None = None,
    freq_cap: int | None = None,
    strict: bool = False,
    sort: bool = False,
    cpu_capacity: str | None = None,
    max_freq: str | None = None,
    plat_info: str | PathLike[str] | None = None,
    sysfs: str | PathLike[str] | None = None,
    traced_start: bool = False,
) -> tuple[dict[str, np.ndarray], int, int, list[str], dict[str, Any] | None]: ...
def pelt_decay_load(val: _U64, n: _U64) -> _U64: ...
def pelt_accumulate(
    delta_ns: _U64, load: _U64, runnable: _U64, running: _U64, start_ns: int, weight: int
) -> dict[str, _U64]: ...
def pelt_util_est_update(
    rule: str,
    ewma: _U64,
    unchanged: _U64,
    enqueued: _U64,
    util_avg: _U64,
    runnable_avg: _U64,
    cpu_cap: _U64,
    task_sleep: _U64,
) -> dict[str, _U64]: ...
def pelt_rules() -> list[str]: ...
def pelt_kernels() -> list[str]: ...
def pelt_util_columns() -> list[str]: ...
PELT_COLUMNS: list[str]
PELT_INITS: list[str]
PELT_EVENTS: list[str]
PELT_STATES: list[str]
def pelt_cpu_util(
    util_avg: int,
    runnable_avg: int,
    util_est: int,
    capacity: int,
    util_est_enabled: bool,
    task: tuple[int, int, int, bool, bool, bool] | None,
    dst: str,
    boost: bool,
    execl_fix: bool,
) -> int: ...
def pelt_tick_ns_for_hz(hz: int) -> int: ...
def pelt_map_util_perf(util: int) -> int: ...
def pelt_schedutil(
    util: int,
    capacity: int,
    ref_freq: int,
    opps: list[int],
    policy_min: int,
    policy_max: int,
    min_perf: int,
    legacy: bool,
) -> tuple[int, int]: ...
# --- idle (src/python/idle.rs) ----------------------------------------------
_States = tuple[list[str], list[int], list[int], list[bool], list[bool], list[float | None]]
_Trace7 = tuple[_I64, _I64, _I64, _I64, _I64, _I64, _I64]

def idle_simulate(
    governor: str,
    kernel: str,
    hz: int,
    states: _States,
    sleep_length_ns: _I64,
    next_tick_ns: _I64,
    wake_ns: _I64,
    tick_stopped: _I64,
    latency_req_ns: _I64,
    nr_iowait: _I64,
    cpu_load: _I64,
    record_state: bool = True,
) -> dict[str, object]: ...
def idle_simulate_many(
    governor: str,
    kernel: str,
    hz: int,
    states: _States,
    traces: list[_Trace7],
    record_state: bool = True,
    threads: int | None = None,
) -> list[dict[str, object]]: ...
def idle_simulate_csv(
    *,
    governor: str,
    kernel: str,
    hz: int,
    states: str | PathLike[str],
    trace: str | PathLike[str],
    write: Callable[[bytes], object] | None = None,
) -> bytes | None: ...
def idle_compare_summary_file(
    *,
    governors: list[str | tuple[str, str]],
    kernel: str,
    hz: int,
    states: _States,
    trace: str | PathLike[str],
    power_mw: list[float] | None = None,
) -> list[tuple[str, dict[str, list[object]]]]: ...
def idle_load_states(path: str | PathLike[str]) -> dict[str, list[object]]: ...
def idle_parse_states(data: bytes, path: str | None = None) -> dict[str, list[object]]: ...
def idle_parse_sysfs(data: bytes, path: str | None = None) -> dict[str, list[object]]: ...
def idle_preset(name: str) -> dict[str, list[object]]: ...
def idle_presets() -> list[tuple[str, str]]: ...
def idle_check_states(states: Any) -> dict[str, list[object]]: ...
def idle_state_columns(d: Any) -> _States: ...
def idle_parse_trace(data: bytes, path: str | None = None) -> dict[str, _I64]: ...
def idle_read_trace(path: str | PathLike[str]) -> dict[str, _I64]: ...
def idle_parse_ftrace(
    data: bytes, hz: int, path: str | None = None, strict: bool = False, sort: bool = False
) -> tuple[list[dict[str, object]], list[str]]: ...
def idle_read_ftrace(
    path: str | PathLike[str], hz: int, strict: bool = False, sort: bool = False
) -> tuple[list[dict[str, object]], list[str]]: ...
def idle_synth(
    pattern: str, n: int, hz: int, seed: int, a: int, b: int = 0, c: int = 0, p: float = 0.0, jitter: float = 0.0
) -> dict[str, _I64]: ...
def idle_summarize(
    states: _States, idx: npt.NDArray[np.uint8], residency_ns: _I64, power_mw: list[float] | None = None
) -> dict[str, list[object]]: ...
def idle_compare(
    governors: list[str | tuple[str, str]],
    kernel: str,
    hz: int,
    states: _States,
    sleep_length_ns: _I64,
    next_tick_ns: _I64,
    wake_ns: _I64,
    tick_stopped: _I64,
    latency_req_ns: _I64,
    nr_iowait: _I64,
    cpu_load: _I64,
) -> list[tuple[str, dict[str, npt.NDArray[Any]]]]: ...
def idle_compare_summary(
    governors: list[str | tuple[str, str]],
    kernel: str,
    hz: int,
    states: _States,
    sleep_length_ns: _I64,
    next_tick_ns: _I64,
    wake_ns: _I64,
    tick_stopped: _I64,
    latency_req_ns: _I64,
    nr_iowait: _I64,
    cpu_load: _I64,
    power_mw: list[float] | None = None,
) -> list[tuple[str, dict[str, list[object]]]]: ...
def idle_governors() -> list[tuple[str, str]]: ...

IDLE_TRACE_COLUMNS: list[str]
IDLE_GOVERNORS: list[str]
IDLE_KERNELS: list[str]
IDLE_HZ: list[int]
IDLE_DEFAULT_HZ: int
IDLE_DEFAULT_KERNEL: str
IDLE_MAX_NR_IOWAIT: int

# --- live (src/python/live.rs) ---------------------------------------------
def live_record(
    out: str | PathLike[str],
    python: str | PathLike[str],
    command: list[str] | None,
    pid: int | None,
    seconds: float,
    busy_ms: float,
    sleep_ms: float,
    cpu: int | None,
    governor: str | None,
    buffer_kb: int,
    sample_us: float,
) -> tuple[dict[str, Any], list[str]]: ...
def live_probe_idle_tracing(seconds: float) -> dict[int, tuple[int, int]]: ...
def live_default_cpu(probe: Mapping[int, tuple[int, int]]) -> int: ...

LIVE_EVENTS: list[str]

@final
class LiveCheck:
    def __new__(cls, source: LiveCheck | Mapping[str, Any], **sections: Any) -> Self: ...
    def __getitem__(self, key: str, /) -> Any: ...
    def __len__(self) -> int: ...
    def __contains__(self, key: object, /) -> bool: ...
    def __iter__(self) -> Iterator[str]: ...
    def keys(self) -> list[str]: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_text(self) -> str: ...
    def _repr_html_(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...

def live_record_sets(
    out: str | PathLike[str],
    python: str | PathLike[str],
    groups: list[str | tuple[str, list[tuple[str, str]]]],
    *,
    runs: int,
    command: list[str] | None,
    seconds: float,
    busy_ms: float,
    sleep_ms: float,
    buffer_kb: int,
) -> tuple[dict[str, Any], list[str]]: ...

LIVE_SETTINGS: list[str]
LIVE_SET_EVENTS: list[str]

def live_check(
    directory: str | PathLike[str], *, pid: int | None = None, rule: str = "6.12", kernel: str = "6.12",
    strict: bool = False,
) -> LiveCheck: ...

# --- report (src/python/report.rs) --------------------------------------------
def report_inputs(paths: list[str]) -> dict[str, Any]: ...
def report_html(page: Mapping[str, Any]) -> str: ...
def report_text(page: Mapping[str, Any]) -> str: ...
def report_comparison_html(comparison: Comparison) -> str: ...

# --- batch (src/python/batch.rs) --------------------------------------------
_Bounds = tuple[int | None, int | None, int | None]
BATCH_FORMATS: list[str]
BATCH_SCHEMA_NAME: str
BATCH_SCHEMA_VERSION: int
BATCH_FAIL_ON: list[str]
BATCH_PROGRESS: list[str]

@final
class BatchResult:
    """The result of a batch run: every compared metric with its verdict, the counts
    and the exit code ``schedlab batch`` returns (docs/batch.md)."""

    def __new__(cls, data: dict[str, Any]) -> BatchResult: ...
    @classmethod
    def from_json(cls, text: str) -> BatchResult: ...
    @classmethod
    def from_jsonl(cls, text: str) -> BatchResult: ...
    @property
    def data(self) -> dict[str, Any]: ...
    @property
    def exit_code(self) -> int: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def inputs(self) -> list[dict[str, Any]]: ...
    @property
    def rows(self) -> list[dict[str, Any]]: ...
    @property
    def regressions(self) -> list[dict[str, Any]]: ...
    @property
    def summary(self) -> dict[str, int]: ...
    @property
    def unmatched(self) -> list[dict[str, Any]]: ...
    @property
    def warnings(self) -> list[str]: ...
    @property
    def notes(self) -> list[str]: ...
    @property
    def errors(self) -> list[dict[str, str]]: ...
    @property
    def missing(self) -> list[dict[str, str]]: ...
    @property
    def timings(self) -> dict[str, Any]: ...
    def to_json(self, indent: int | None = None) -> str: ...
    def render(self, format: str, max_bytes: int | None = None) -> str: ...
    def to_jsonl(self) -> str: ...
    def to_github(self) -> str: ...
    def to_junit(self) -> str: ...
    def to_markdown(self, max_bytes: int | None = None) -> str: ...
    def to_text(self) -> str: ...
    def _repr_html_(self) -> str: ...
    def to_pandas(self) -> Any: ...  # a pandas.DataFrame (pandas has no type stubs)
    def __eq__(self, other: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...

def batch_run(
    paths: list[str | PathLike[str]],
    baseline: str,
    test: str = "welch",
    alpha: float = 0.05,
    min_change: float = 0.0,
    fail_on: str = "regression",
    jobs: int | None = None,
    keep_going: bool = False,
    progress: str = "off",
    allow_missing: bool = False,
    margin: float | None = None,
    power: float | None = None,
    bounds: _Bounds = ...,
) -> BatchResult: ...
def batch_scan(path: str | PathLike[str], threads: int | None = None, bounds: _Bounds = ...) -> str: ...
def batch_scan_bytes(
    data: bytes, input: str, threads: int | None = None, bounds: _Bounds = ...
) -> str: ...
def batch_reduce(
    items: list[tuple[str, str | None, str | None]],
    baseline: str,
    test: str = "welch",
    alpha: float = 0.05,
    min_change: float = 0.0,
    fail_on: str = "regression",
    jobs: int | None = None,
    allow_missing: bool = False,
    margin: float | None = None,
    power: float | None = None,
) -> BatchResult: ...

# --- series (src/python/series.rs) -------------------------------------------
def change_points(
    values: _F64,
    commits: int,
    directions: list[str],
    *,
    window: int | None = None,
    max_p: float | None = None,
    min_magnitude: float | None = None,
    permutations: int | None = None,
    seed: int = 0,
    threads: int | None = None,
) -> dict[str, _U64 | _F64 | list[str]]: ...
def series_defaults() -> tuple[int, float, float]: ...
def series_trees(paths: list[str], order: list[str] | None = None) -> dict[str, list[str] | str | _F64]: ...

# --- readers (src/python/readers.rs) -----------------------------------------
RESULT_FORMATS: list[str]

def read_results(path: str | PathLike[str], format: str | None = None) -> dict[str, list[str] | _F64]: ...

# the command line's shared messages (src/cli/messages.rs)
def cli_era_note(era: str, reason: str, compat_given: bool) -> str | None: ...
def cli_missing_data(warnings: list[str], allowed: bool) -> tuple[list[str], int]: ...
def cli_interrupted(command: str) -> str: ...
CLI_INTERRUPTED: int
