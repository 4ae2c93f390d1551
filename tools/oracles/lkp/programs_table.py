#!/usr/bin/env python3
"""Write the table of lkp-tests' stats programs into docs/lkp.md (§4.1).

One row per lkp-tests program with a `parse` script (the ones whose output becomes
stats): whether it is a test or a monitor, how many spec fixtures lkp-tests has for it
and schedlab carries (tests/data/lkp/spec, tests/data/lkp/captured), and whether schedlab
parses it (the PROGRAMS list of src/lkp/stats/program.rs). The table goes between the
`<!-- programs-table -->` markers.

usage: LKP_SRC=/path/to/lkp-tests tools/oracles/lkp/programs_table.py
"""
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "../../.."))
MARK = "<!-- programs-table -->"


def schedlab_programs():
    src = open(os.path.join(REPO, "src/lkp/stats/program.rs")).read()
    body = re.search(r"pub const PROGRAMS: &\[&str\] = &\[(.*?)\];", src, re.S).group(1)
    return set(re.findall(r'"([^"]+)"', body))


def cases(kind, program):
    d = os.path.join(REPO, "tests/data/lkp", kind, program)
    if not os.path.isdir(d):
        return 0
    return sum(1 for f in os.listdir(d) if f.endswith(".yaml"))


def main():
    lkp = os.environ["LKP_SRC"]
    rev = subprocess.run(["git", "-C", lkp, "rev-parse", "--short=9", "HEAD"], capture_output=True,
                         text=True).stdout.strip() or "bbbc29c49"
    progs = os.path.join(lkp, "programs")
    ours = schedlab_programs()
    rows = []
    parsed = 0
    names = sorted(os.listdir(progs))
    with_parse = [n for n in names if os.path.isfile(os.path.join(progs, n, "parse"))]
    for n in with_parse:
        files = set(os.listdir(os.path.join(progs, n)))
        kind = "monitor" if files & {"monitor", "one-shot-monitor", "no-stdout-monitor", "daemon"} \
            and "run" not in files else "test"
        spec_dir = os.path.join(lkp, "spec/fixtures/stats", n)
        lkp_cases = sum(1 for f in os.listdir(spec_dir) if f.endswith(".yaml")) if os.path.isdir(spec_dir) else 0
        yes = n in ours
        parsed += yes
        ours_spec, ours_cap = cases("spec", n), cases("captured", n)
        fixtures = f"{lkp_cases}" if lkp_cases else "–"
        carried = []
        if ours_spec:
            carried.append(f"{ours_spec} lkp")
        if ours_cap:
            carried.append(f"{ours_cap} captured")
        rows.append(f"| {n} | {kind} | {fixtures} | {'yes' if yes else 'no'} | {', '.join(carried) or '–'} |")
    missing = sorted(ours - set(with_parse))
    out = [
        MARK,
        f"lkp-tests {rev} has {len(names)} programs; {len(with_parse)} have a `parse` script "
        f"(their output becomes stats). schedlab parses {parsed} of them"
        + (f" (and {', '.join(missing)}, whose parsing lkp does in the monitor or sbin/)" if missing else "")
        + ". *fixtures*: lkp's own spec fixtures (`spec/fixtures/stats/<program>`); *tested*: the cases "
        "tests/it/lkp_spec.rs checks (lkp's fixtures copied, or real output captured here with the expected "
        "text from lkp's own parser). Written by tools/oracles/lkp/programs_table.py.",
        "",
        "| program | kind | fixtures | schedlab | tested |",
        "|---|---|---|---|---|",
        *rows,
        MARK,
    ]
    doc = os.path.join(REPO, "docs/lkp.md")
    text = open(doc).read()
    a = text.index(MARK)
    b = text.index(MARK, a + 1) + len(MARK)
    open(doc, "w").write(text[:a] + "\n".join(out) + text[b:])


main()
