#!/usr/bin/env python3
"""Compares a fresh `momentary-bench` run with the committed baseline, by ratio to an anchor.

usage: Benchmarks/compare.py [--binary .build/release/momentary-bench] [--only schedule,export]
                             [--results FILE ...] [--tolerance 0.25] [--strict]
                             [--baseline Benchmarks/baseline.json] [--write-baseline FILE]
       Benchmarks/compare.py --self-test

Each measure in the baseline names a figure in a benchmark's JSON lines and, where the benchmark
has one, an anchor measured in the same run (`sqlite3 -csv` beside the export, the disk's own
durable commits beside ingest, ...). The figure divided by its anchor is the ratio compared:
machine speed and load move both, so the ratio is what stays comparable across days and machines.

Without --results the benchmarks the baseline marks "compared" are run with the arguments it names
(the ones that need nothing but momentary-bench, sqlite3 and gzip; 10-15 minutes on two cores). A measure regresses when its ratio is worse than the baseline's by more than
the tolerance (0.25: a quarter lower where higher is better, a quarter higher where lower is
better); the script then exits 1. Measures without an anchor are shown but, being absolute
figures that a slower machine moves, fail only with --strict.

--write-baseline FILE writes the run's figures as a new baseline (the measures' definitions are
kept from --baseline), with the date, the build (git commit) and the machine's speed.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(HERE)


def parse_lines(text):
    """The JSON objects among a run's output lines (anything else, e.g. log lines, is skipped)."""
    results = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                results.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return results


def find(results, select):
    """The last result whose fields include every key and value of `select`, or None."""
    found = None
    for result in results:
        if all(result.get(key) == value for key, value in select.items()):
            found = result
    return found


def measure_values(measure, results):
    """(figure, anchor, ratio) of a measure in a run; anchor is None where there is none, and
    all three are None when the run lacks the figure."""
    line = find(results, measure["select"])
    if line is None or line.get(measure["field"]) is None:
        return None, None, None
    figure = float(line[measure["field"]])
    anchor_field = measure.get("anchor_field")
    if anchor_field is None:
        return figure, None, figure
    anchor_line = find(results, measure["anchor_select"]) if "anchor_select" in measure else line
    if anchor_line is None or not anchor_line.get(anchor_field):
        return figure, None, None
    anchor = float(anchor_line[anchor_field])
    return figure, anchor, figure / anchor


def judge(ratio, baseline, better, tolerance):
    """How a ratio stands against the baseline's: its change as a factor where above 1 is better
    (whichever way the measure improves), and whether that is a regression beyond `tolerance`."""
    change = ratio / baseline if better == "higher" else baseline / ratio
    return change, change < 1 - tolerance


def compare(baseline, results, tolerance=None, strict=False, only=None, ran=()):
    """One row a measure of the compared set (of `only`'s benchmarks, when given), and whether any
    counted regression was found. A figure missing from a benchmark in `ran` counts as one too."""
    rows, failed = [], False
    for measure in baseline["measures"]:
        name = measure["benchmark"]
        if not baseline["benchmarks"].get(name, {}).get("compared") or (only and name not in only):
            continue
        figure, anchor, ratio = measure_values(measure, results)
        row = {"name": measure["name"], "figure": figure, "anchor": anchor, "ratio": ratio,
               "baseline": measure.get("ratio"), "absolute": "anchor_field" not in measure}
        if ratio is None:
            row["verdict"] = "MISSING" if name in ran else "not measured"
            failed = failed or name in ran
        elif not row["baseline"]:
            row["verdict"] = "no baseline"
        else:
            limit = tolerance if tolerance is not None else measure.get("tolerance", baseline.get("tolerance", 0.25))
            change, regressed = judge(ratio, row["baseline"], measure["better"], limit)
            row["change"] = change
            counted = regressed and (strict or not row["absolute"])
            row["verdict"] = ("REGRESSED" if counted else "worse (absolute, not counted)") if regressed else "ok"
            failed = failed or counted
        rows.append(row)
    return rows, failed


def number(value):
    if value is None:
        return "-"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def print_table(rows):
    header = ["measure", "figure", "anchor", "ratio", "baseline", "change", "verdict"]
    table = [header] + [[row["name"], number(row["figure"]), number(row["anchor"]),
                         number(row["ratio"]), number(row["baseline"]),
                         f"{row['change']:.2f}x" if "change" in row else "-", row["verdict"]] for row in rows]
    widths = [max(len(line[column]) for line in table) for column in range(len(header))]
    for line in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


def machine_speed():
    """Seconds a Python loop of 10^7 additions takes: the journal's yardstick of this machine's
    speed at the time (about 0.6 s when idle)."""
    started = time.perf_counter()
    total = 0
    for index in range(10_000_000):
        total += index
    return round(time.perf_counter() - started, 2)


def run_benchmarks(baseline, binary, only):
    """The JSON results of every compared benchmark (of `only`'s, when given), run in turn."""
    results = []
    for name, benchmark in baseline["benchmarks"].items():
        if not benchmark.get("compared") or (only and name not in only):
            continue
        print(f"running momentary-bench {' '.join(benchmark['arguments'])}", file=sys.stderr, flush=True)
        started = time.monotonic()
        done = subprocess.run([binary] + benchmark["arguments"], stdout=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.exit(f"momentary-bench {name} exited {done.returncode}")
        lines = parse_lines(done.stdout)
        print(f"  {time.monotonic() - started:.0f} s, {len(lines)} results", file=sys.stderr)
        for line in lines:
            print(json.dumps(line), file=sys.stderr)
        results += lines
    return results


def write_baseline(baseline, results, path):
    git = subprocess.run(["git", "-C", REPOSITORY, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE, text=True)
    fresh = dict(baseline)
    fresh["source"] = "a momentary-bench run (Benchmarks/compare.py --write-baseline)"
    fresh["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    fresh["build"] = f"release, {git.stdout.strip() or 'unknown commit'}"
    fresh["machine"] = {"cores": os.cpu_count(), "system": platform.platform(),
                        "python_loop_of_1e7_additions_seconds": machine_speed()}
    fresh["measures"] = []
    for measure in baseline["measures"]:
        updated = dict(measure)
        if baseline["benchmarks"].get(measure["benchmark"], {}).get("compared"):
            figure, anchor, ratio = measure_values(measure, results)
            if ratio is not None:
                updated.update(figure=figure, anchor=anchor, ratio=round(ratio, 4))
                updated.pop("sizes", None)  # a note on where an older figure came from
        fresh["measures"].append(updated)
    with open(path, "w") as file:
        json.dump(fresh, file, indent=2, ensure_ascii=False)
        file.write("\n")


def self_test():
    """The comparison's rules on made-up runs; needs no build."""
    import unittest

    export = {"name": "export", "benchmark": "export", "select": {"benchmark": "export-long"},
              "field": "rows_per_second", "anchor_field": "sqlite3_rows_per_second", "better": "higher", "ratio": 1.5}
    backup = {"name": "backup", "benchmark": "backup", "select": {"benchmark": "backup"},
              "field": "backup_seconds", "anchor_field": "floor_seconds", "better": "lower", "ratio": 2.0}
    schedule = {"name": "schedule", "benchmark": "schedule", "select": {"benchmark": "schedule"}, "field": "per_second",
                "anchor_select": {"benchmark": "schedule-random-only"}, "anchor_field": "per_second",
                "better": "higher", "ratio": 0.04}
    latency = {"name": "latency", "benchmark": "signalling", "select": {"benchmark": "signalling"},
               "field": "p99_ms", "better": "lower", "ratio": 70}
    baseline = {"tolerance": 0.25, "measures": [export, backup, schedule, latency],
                "benchmarks": {name: {"compared": True} for name in ["export", "backup", "schedule", "signalling"]}}

    def run(lines):
        return compare(baseline, parse_lines("\n".join(json.dumps(line) for line in lines)))

    class Comparison(unittest.TestCase):
        def test_machine_speed_cancels(self):
            # Half as fast, anchor and figure alike: the same ratio, no regression.
            rows, failed = run([{"benchmark": "export-long", "rows_per_second": 300, "sqlite3_rows_per_second": 200}])
            self.assertEqual(rows[0]["ratio"], 1.5)
            self.assertFalse(failed)

        def test_higher_is_better_regression(self):
            rows, failed = run([{"benchmark": "export-long", "rows_per_second": 100, "sqlite3_rows_per_second": 100}])
            self.assertEqual(rows[0]["verdict"], "REGRESSED")
            self.assertTrue(failed)

        def test_lower_is_better(self):
            rows, failed = run([{"benchmark": "backup", "backup_seconds": 2.4, "floor_seconds": 1.0}])
            self.assertEqual(rows[1]["verdict"], "ok")  # 1.2 times the baseline's ratio: inside 0.25
            rows, failed = run([{"benchmark": "backup", "backup_seconds": 3.0, "floor_seconds": 1.0}])
            self.assertEqual(rows[1]["verdict"], "REGRESSED")
            self.assertTrue(failed)
            rows, failed = run([{"benchmark": "backup", "backup_seconds": 1.0, "floor_seconds": 1.0}])
            self.assertEqual(rows[1]["verdict"], "ok")  # faster is never a regression

        def test_anchor_on_another_line(self):
            rows, _ = run([{"benchmark": "schedule", "per_second": 40}, {"benchmark": "schedule-random-only", "per_second": 1000}])
            self.assertAlmostEqual(rows[2]["ratio"], 0.04)

        def test_absolute_figures_count_only_when_strict(self):
            lines = [{"benchmark": "signalling", "p99_ms": 200}]
            rows, failed = run(lines)
            self.assertEqual(rows[3]["verdict"], "worse (absolute, not counted)")
            self.assertFalse(failed)
            _, failed = compare(baseline, lines, strict=True)
            self.assertTrue(failed)

        def test_missing_figure_fails_only_for_a_benchmark_that_ran(self):
            rows, failed = run([{"benchmark": "other"}])
            self.assertEqual({row["verdict"] for row in rows}, {"not measured"})
            self.assertFalse(failed)
            rows, failed = compare(baseline, [], ran={"backup"})
            self.assertEqual(rows[1]["verdict"], "MISSING")
            self.assertTrue(failed)

        def test_only_limits_the_rows(self):
            rows, _ = compare(baseline, [], only={"export"})
            self.assertEqual([row["name"] for row in rows], ["export"])

        def test_last_matching_line_wins_and_other_lines_are_skipped(self):
            text = 'log line\n{"benchmark":"export-long","rows_per_second":1,"sqlite3_rows_per_second":1}\n' \
                   '{"benchmark":"export-long","rows_per_second":3,"sqlite3_rows_per_second":2}\n{broken'
            self.assertEqual(measure_values(export, parse_lines(text)), (3.0, 2.0, 1.5))

        def test_tolerance_option_overrides(self):
            lines = [{"benchmark": "export-long", "rows_per_second": 120, "sqlite3_rows_per_second": 100}]
            self.assertFalse(compare(baseline, lines)[1])
            self.assertTrue(compare(baseline, lines, tolerance=0.1)[1])

    suite = unittest.defaultTestLoader.loadTestsFromTestCase(Comparison)
    return 0 if unittest.TextTestRunner(verbosity=1).run(suite).wasSuccessful() else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=os.path.join(HERE, "baseline.json"))
    parser.add_argument("--binary", default=os.path.join(REPOSITORY, ".build", "release", "momentary-bench"))
    parser.add_argument("--results", nargs="+", help="files of momentary-bench output to read instead of running it")
    parser.add_argument("--only", help="comma-separated benchmarks of the compared set to run")
    parser.add_argument("--tolerance", type=float, help="allowed worsening of a ratio, as a fraction (default: the baseline's)")
    parser.add_argument("--strict", action="store_true", help="count absolute figures (no anchor) as regressions too")
    parser.add_argument("--write-baseline", metavar="FILE")
    parser.add_argument("--self-test", action="store_true")
    arguments = parser.parse_args()
    if arguments.self_test:
        return self_test()
    with open(arguments.baseline) as file:
        baseline = json.load(file)
    only = set(arguments.only.split(",")) if arguments.only else None
    if arguments.results:
        results = []
        for path in arguments.results:
            with open(path) as file:
                results += parse_lines(file.read())
        ran = ()
    else:
        results = run_benchmarks(baseline, arguments.binary, only)
        ran = {name for name, benchmark in baseline["benchmarks"].items() if benchmark.get("compared") and (not only or name in only)}
    if arguments.write_baseline:
        write_baseline(baseline, results, arguments.write_baseline)
        print(f"wrote {arguments.write_baseline}")
    rows, failed = compare(baseline, results, arguments.tolerance, arguments.strict, only, ran)
    machine = baseline.get("machine") or {}
    print(f"baseline: {baseline.get('source')}, {baseline.get('date')}, {baseline.get('build')}, "
          f"Python loop {machine.get('python_loop_of_1e7_additions_seconds', '?')} s; here now {machine_speed()} s")
    print_table(rows)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
