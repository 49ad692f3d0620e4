#!/usr/bin/env python3
"""Measures the participant web app in headless Chromium on this machine.

usage: Benchmarks/scripts/webapp_bench.py [--binary .build/debug/momentary] [--test-push .build/debug/momentary-test-push]
                               [--runs 7]

Starts the local Web Push service and `momentary serve --demo` on a throw-away data folder (the
same harness as the browser tests, Tests/Browser/harness.py), then reports:

a. the transfer size of a first visit to /join/demo: every file the page loads plus every file
   the service worker precaches (its __APP_FILES__ list), as the server sends them to a browser
   that accepts gzip and brotli, and — for comparison, or when the server does not compress —
   their raw size and their size under gzip -9. Goal: under 60 KB.
b. the time from a notification tap to the first question being visible: with the app installed
   and cached (joined, service worker active), each run sends a real beep (`momentary beep now`)
   and opens its notification target /app/beep/<id>?via=notification, as notificationclick
   does; the time is from the navigation's start (performance.timeOrigin) to the first animation
   frame after a question's container is in the page and shown. One warm-up run is left out;
   median, minimum and maximum of the rest. Goal: under 300 ms.

Prints `name=value` lines (machine-readable) after a short human summary of each part.
"""
import argparse
import gzip
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
import urllib.parse
import urllib.request

# This file is Benchmarks/scripts/webapp_bench.py: the repository is three folders up.
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPOSITORY, "Tests", "Browser"))
sys.dont_write_bytecode = True

import harness  # noqa: E402
from participant import DEMO_REGISTRATION, App  # noqa: E402

SIZE_GOAL_BYTES = 60 * 1024
TAP_GOAL_MS = 300

# Records, in every document, when the first question is shown: the first animation frame after
# a [data-question-id] element is in the page with a size (a frame is when it can be seen).
FIRST_QUESTION_PROBE = r"""
(() => {
  const shown = () => {
    const element = document.querySelector("[data-question-id]");
    if (!element) return false;
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const record = () => requestAnimationFrame(() => { window.__firstQuestionAt = performance.now(); });
  const observer = new MutationObserver(() => {
    if (window.__firstQuestionAt === undefined && shown()) { observer.disconnect(); window.__firstQuestionAt = null; record(); }
  });
  observer.observe(document, {childList: true, subtree: true, attributes: true});
})();
"""


def fetch(url, encodings):
    request = urllib.request.Request(url, headers={"Accept-Encoding": encodings})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.read(), answer.headers.get("Content-Encoding")


def raw_body(url):
    body, encoding = fetch(url, "identity")
    if encoding == "gzip":
        body = gzip.decompress(body)
    return body


def first_visit(server, work_dir):
    """Loads /join/demo in a new profile; returns the list of same-origin URLs loaded (page + precache)."""
    chromium = harness.Chromium(server.origin, profile_dir=os.path.join(work_dir, "first-visit-profile"),
                                performance_log=True)
    try:
        app = App(chromium, server)
        app.open("/join/demo")
        app.step("consent")
        chromium.service_worker_registration()  # installed: its precache is complete
        wire = {}
        urls = {}
        for entry in chromium.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            params = message.get("params", {})
            if message.get("method") == "Network.requestWillBeSent" and params["request"]["method"] == "GET":
                urls[params["requestId"]] = params["request"]["url"]
            elif message.get("method") == "Network.loadingFinished":
                wire[params["requestId"]] = params.get("encodedDataLength", 0)
        page_urls = [url for request, url in urls.items() if url.startswith(server.origin)]
        page_wire = sum(size for request, size in wire.items() if urls.get(request, "").startswith(server.origin))
    finally:
        chromium.quit()
    worker = raw_body(server.origin + "/sw.js").decode("utf-8", "replace")
    precache = []
    found = re.search(r"\[\s*\"/app[^\]]*\]", worker)
    if found:
        precache = [server.origin + path for path in json.loads(found.group(0))]
    everything = []
    for url in page_urls + [server.origin + "/sw.js"] + precache:
        clean = url.split("#")[0]
        if clean not in everything:
            everything.append(clean)
    return everything, page_wire


def measure_size(server, work_dir):
    urls, page_wire = first_visit(server, work_dir)
    served = raw = gzipped = 0
    encodings = set()
    rows = []
    for url in urls:
        body, encoding = fetch(url, "gzip, br")
        plain = raw_body(url)
        packed = len(gzip.compress(plain, compresslevel=9))
        encodings.add(encoding or "identity")
        served += len(body)
        raw += len(plain)
        gzipped += packed
        rows.append((urllib.parse.urlsplit(url).path, len(plain), len(body), packed))
    compresses = any(encoding != "identity" for encoding in encodings)
    print("First visit to /join/demo: %d files (page and service-worker precache)" % len(urls))
    print("  %-44s %9s %9s %9s" % ("path", "raw", "served", "gzip -9"))
    for path, plain, body, packed in sorted(rows, key=lambda row: -row[1]):
        print("  %-44s %9d %9d %9d" % (path[:44], plain, body, packed))
    print("  server compresses: %s (Content-Encoding seen: %s)" % ("yes" if compresses else "no", ", ".join(sorted(encodings))))
    measured = served if compresses else gzipped
    print("  compressed total: %.1f KB (goal < %d KB) — %s" % (
        measured / 1024, SIZE_GOAL_BYTES // 1024, "met" if measured < SIZE_GOAL_BYTES else "NOT met"))
    return {
        "webapp_first_visit_files": len(urls),
        "webapp_first_visit_raw_bytes": raw,
        "webapp_first_visit_served_bytes": served,
        "webapp_first_visit_gzip9_bytes": gzipped,
        "webapp_first_visit_page_wire_bytes": page_wire,
        "webapp_server_compresses": "yes" if compresses else "no",
        "webapp_first_visit_compressed_bytes": measured,
        "webapp_first_visit_goal_met": "yes" if measured < SIZE_GOAL_BYTES else "no",
    }


def measure_tap(server, push_service, work_dir, runs):
    chromium = harness.Chromium(server.origin, profile_dir=os.path.join(work_dir, "tap-profile"))
    try:
        app = App(chromium, server)
        chromium.install_push_seam(push_service.subscribe(server.web_push_key()))
        participant_id = app.join("demo", registration=DEMO_REGISTRATION, notifications=True)
        chromium.service_worker_registration()
        chromium.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FIRST_QUESTION_PROBE})
        timings, breakdown = [], []
        for run in range(runs + 1):
            beep_id = server.beep_now(participant_id)
            app.open("/app")  # the app is open at home when the notification is tapped
            app.wait_visible("#home")
            app.open("/app/beep/%s?via=notification" % beep_id)
            elapsed = harness.wait_until(
                lambda: chromium.driver.execute_script("return window.__firstQuestionAt || null"), 20,
                "the first question of beep %s" % beep_id)
            # Where the time went: the document, the modules run, the beep's survey fetched.
            parts = chromium.driver.execute_script("""
                const navigation = performance.getEntriesByType("navigation")[0];
                const survey = performance.getEntriesByType("resource").filter((e) => /\\/survey$/.test(e.name)).pop();
                return [navigation.responseEnd, navigation.domContentLoadedEventEnd, survey ? survey.responseEnd : null];
            """)
            if run > 0:  # the first run warms the server and the browser's code caches
                timings.append(elapsed)
                breakdown.append(parts)
    finally:
        chromium.quit()
    median = statistics.median(timings)
    def middle(index):
        values = [parts[index] for parts in breakdown if parts[index] is not None]
        return round(statistics.median(values), 1) if values else None
    print("  medians from the tap: document received %s ms, modules run (DOMContentLoaded) %s ms, "
          "beep survey received %s ms" % (middle(0), middle(1), middle(2)))
    print("Notification tap to first question (%d runs after a warm-up): median %.0f ms, min %.0f, max %.0f "
          "(goal < %d ms) — %s" % (len(timings), median, min(timings), max(timings), TAP_GOAL_MS,
                                   "met" if median < TAP_GOAL_MS else "NOT met"))
    return {
        "webapp_tap_to_question_runs": len(timings),
        "webapp_tap_to_question_ms_median": round(median, 1),
        "webapp_tap_to_question_ms_min": round(min(timings), 1),
        "webapp_tap_to_question_ms_max": round(max(timings), 1),
        "webapp_tap_to_question_goal_met": "yes" if median < TAP_GOAL_MS else "no",
        "webapp_tap_document_ms_median": middle(0),
        "webapp_tap_dom_content_loaded_ms_median": middle(1),
        "webapp_tap_survey_received_ms_median": middle(2),
    }


def main():
    parser = argparse.ArgumentParser(description="Transfer size and tap-to-question time of the participant web app.")
    parser.add_argument("--binary", default=harness.executable("MOMENTARY_BINARY", ".build/debug/momentary"))
    parser.add_argument("--test-push", default=harness.executable("MOMENTARY_TEST_PUSH", ".build/debug/momentary-test-push"))
    parser.add_argument("--runs", type=int, default=7, help="timed notification taps (after one warm-up)")
    arguments = parser.parse_args()

    work_dir = tempfile.mkdtemp(prefix="momentary-webapp-bench-")
    push_service = server = None
    results = {}
    try:
        push_service = harness.PushService(os.path.abspath(arguments.test_push), work_dir)
        server = harness.MomentaryServer(os.path.abspath(arguments.binary), work_dir, ca_file=push_service.ca_file)
        started = time.monotonic()
        results.update(measure_size(server, work_dir))
        results.update(measure_tap(server, push_service, work_dir, arguments.runs))
        print("(measured in %.0f s; binary %s)" % (time.monotonic() - started, arguments.binary))
    except Exception:
        if server is not None:
            print("---- server log ----\n%s" % server.log()[-4000:], file=sys.stderr)
        print("the run's files are kept in %s" % work_dir, file=sys.stderr)
        raise
    finally:
        if server is not None:
            server.stop()
        if push_service is not None:
            push_service.stop()
    shutil.rmtree(work_dir, ignore_errors=True)  # kept only when something failed
    for name, value in results.items():
        print("%s=%s" % (name, value))
    return 0


if __name__ == "__main__":
    sys.exit(main())
