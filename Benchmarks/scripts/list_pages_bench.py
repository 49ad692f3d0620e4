#!/usr/bin/env python3
"""Times the researcher website's list pages for a large study.

usage: Benchmarks/scripts/list_pages_bench.py --binary .build/release/momentary [--participants 100000]
                                   [--beeps-each 100] [--answered 0.1] [--runs 7] [--keep DIR]

Starts `momentary serve --demo` on a throw-away data folder to create the schema and the demo
study, stops it, and fills the embedded SQLite file directly: `--participants` participants of the
demo study (each with an invitation code), `--beeps-each` beeps apiece over the past days (so
10,000,000 beeps by default), and a response for `--answered` of them. Participants are planned
through today, as in a running study, so the server does not start by planning 100,000 days. The
database's triggers count the rows as they are written; the server folds those counts when it starts. Then it starts the server
again, signs in as the demo researcher, and asks for each list page `--runs` times after one
warm-up: the study overview, participants (first page, a late page, a label search, the
"no answer in 3 days" filter), responses (first page and a late page) and invitees (first page and
a status filter). Prints each page's median and slowest time beside the 200 ms goal, and
`name=value` lines.
"""
import argparse
import http.cookiejar
import os
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

GOAL_MS = 200
DAY = 86400


def start_server(binary, data, log_path):
    log = open(log_path, "w")
    server = subprocess.Popen([binary, "serve", "--demo", "--port", "0", "--data", data], stdout=log, stderr=subprocess.STDOUT)
    for _ in range(600):
        time.sleep(0.1)
        text = open(log_path).read()
        match = re.search(r"listening on (http://[\d.]+:\d+)", text)
        if match:
            return server, match.group(1), text
        if server.poll() is not None:
            break
    server.kill()
    sys.exit("the server did not start; see " + log_path)


def stop(server):
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=60)


def seed(path, participants, beeps_each, answered):
    """Participants, invitation codes, beeps and responses, written by SQLite itself (recursive
    CTEs) in one transaction; ids are UUID-shaped and ascending, so each table grows at its end."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA cache_size = -1000000")
    study, = db.execute("SELECT id FROM studies WHERE slug = 'demo'").fetchone()
    survey, = db.execute("SELECT id FROM surveys WHERE study_id = ? AND kind = 'esm'", (study,)).fetchone()
    now = time.time()
    days = max(1, beeps_each // 5)
    start = now - days * DAY
    started = time.monotonic()
    with db:
        db.execute(f"""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {participants})
            INSERT INTO invitees (id, study_id, code, status, created_at, updated_at)
            SELECT printf('%08X-0000-4000-8000-000000000001', i), ?, printf('B%07d', i), 'participating', ?, ?
            FROM n""", (study, start, start))
        db.execute(f"""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {participants})
            INSERT INTO participants (id, study_id, invitee_id, secret_hash, status, active, timezone, beeps_per_day,
                signal_start_minutes, signal_end_minutes, push_channel, registered_at, registered_local_date,
                last_seen_at, updated_at, label, planned_through, next_plan_at)
            SELECT printf('%08X-0000-4000-8000-000000000002', i), ?, printf('%08X-0000-4000-8000-000000000001', i),
                'x', CASE WHEN i % 20 = 0 THEN 'withdrawn' ELSE 'participating' END, 1, 'Europe/London', 5, 540, 1260,
                'webpush', ?, date(?, 'unixepoch'), ? - (i % 7) * {DAY}, ?, printf('B%07d', i),
                date(?, 'unixepoch'), ? + {DAY} + (i % 3600)
            FROM n""", (study, start, start, now, start, now, now))
        # Beeps: five a day; the first `answered` share answered, the rest sent, ignored or missed.
        db.execute(f"""
            WITH RECURSIVE p(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM p WHERE i < {participants}),
                 b(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM b WHERE k < {beeps_each - 1})
            INSERT INTO beeps (id, participant_id, study_id, survey_id, origin, local_date, sequence, scheduled_at,
                status, sent_at, delivery_outcome, answered_at, created_at)
            SELECT printf('%08X-%04X-4000-8000-000000000003', i, k), printf('%08X-0000-4000-8000-000000000002', i), ?, ?,
                'random', date(? + (k / 5) * {DAY}, 'unixepoch'), k % 5, ? + (k / 5) * {DAY} + (k % 5) * 7200 + (i % 3600),
                CASE WHEN (k * 7 + i) % 100 < {int(answered * 100)} THEN 'answered'
                     WHEN (k * 7 + i) % 100 < 70 THEN 'ignored' WHEN (k * 7 + i) % 100 < 90 THEN 'sent' ELSE 'missed' END,
                ? + (k / 5) * {DAY} + (k % 5) * 7200 + (i % 3600), 'accepted',
                CASE WHEN (k * 7 + i) % 100 < {int(answered * 100)} THEN ? + (k / 5) * {DAY} + (k % 5) * 7200 + (i % 3600) + 120 END,
                ?
            FROM p, b""", (study, survey, start, start, start, start, start))
        db.execute("""
            INSERT INTO responses (id, participant_id, study_id, survey_id, survey_version, beep_id, kind, volunteered,
                idempotency_key, started_at, submitted_at, received_at, delay_seconds)
            SELECT substr(id, 1, 24) || '000000000004', participant_id, study_id, survey_id, 1, id, 'esm', 0,
                id, answered_at - 60, answered_at, answered_at, 120
            FROM beeps WHERE status = 'answered'""")
    counts = {table: db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
              for table in ("participants", "invitees", "beeps", "responses")}
    db.execute("ANALYZE")
    db.close()
    return counts, time.monotonic() - started


class Website:
    def __init__(self, base_url):
        self.base_url = base_url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path):
        with self.opener.open(self.base_url + path, timeout=120) as response:
            return response.read()

    def sign_in(self, email, password):
        page = self.get("/signin").decode()
        token = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
        form = urllib.parse.urlencode({"_csrf": token, "email": email, "password": password}).encode()
        with self.opener.open(self.base_url + "/signin", data=form, timeout=60) as response:
            response.read()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--participants", type=int, default=100_000)
    parser.add_argument("--beeps-each", type=int, default=100)
    parser.add_argument("--answered", type=float, default=0.1)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--keep", help="a folder to keep the seeded data in, and to reuse it from when it is there")
    arguments = parser.parse_args()

    work = arguments.keep or tempfile.mkdtemp(prefix="list-pages-")
    os.makedirs(work, exist_ok=True)
    data = os.path.join(work, "data")
    seeded = os.path.join(work, "seeded.txt")
    if os.path.exists(seeded):
        email, password, participants = open(seeded).read().split()
        counts = {"participants": int(participants)}
        print("reusing the data seeded in " + work, flush=True)
    else:
        server, _, log = start_server(arguments.binary, data, os.path.join(work, "first.log"))
        stop(server)
        email = re.search(r"Researcher account: (\S+)", log).group(1)
        password = re.search(r"password: (\S+)", log).group(1)
        counts, seconds = seed(os.path.join(data, "momentary.sqlite"), arguments.participants, arguments.beeps_each, arguments.answered)
        print("seeded %s in %.0f s" % (", ".join("%s %s" % (f"{n:,}", t) for t, n in counts.items()), seconds), flush=True)
        if arguments.keep:
            open(seeded, "w").write("%s %s %d" % (email, password, counts["participants"]))

    server, base_url, _ = start_server(arguments.binary, data, os.path.join(work, "second.log"))
    try:
        site = Website(base_url)
        # Work the server starts with (the public statistics refresh) may hold the database for a
        # while: sign-in is retried, and how long it could not be answered is reported.
        began = time.monotonic()
        while True:
            try:
                site.sign_in(email, password)
                break
            except urllib.error.HTTPError:
                if time.monotonic() - began > 600:
                    raise
                time.sleep(2)
        print("signed in %.0f s after the server started listening" % (time.monotonic() - began), flush=True)
        # The seeding's counts wait as changes for the server to fold; pages are timed after that,
        # as in a running study, where the fold keeps up every few seconds.
        waiting = sqlite3.connect("file:%s?mode=ro" % os.path.join(data, "momentary.sqlite"), uri=True)
        while waiting.execute("SELECT COUNT(*) FROM study_tally_changes").fetchone()[0] > 1000:
            time.sleep(1)
        waiting.close()
        print("counts folded %.0f s after the server started listening" % (time.monotonic() - began), flush=True)
        late = max(1, counts["participants"] // 50 - 1)
        pages = [
            ("overview", "/studies/demo"),
            ("participants", "/studies/demo/participants"),
            ("participants, page %d" % late, "/studies/demo/participants?page=%d" % late),
            ("participants, label search", "/studies/demo/participants?q=B0054321"),
            ("participants, no answer in 3 days", "/studies/demo/participants?quiet=3"),
            ("responses", "/studies/demo/responses"),
            ("responses, page 1000", "/studies/demo/responses?page=1000"),
            ("invitees", "/studies/demo/invitees"),
            ("invitees, withdrawn", "/studies/demo/invitees?status=withdrawn"),
        ]
        print("%-36s %10s %10s %10s %s" % ("page", "median", "slowest", "size", "goal"))
        results = []
        for name, path in pages:
            times, failures, size = [], [], 0
            # The first request warms the file cache; a page slower than 5 s is timed only once more.
            for run in range(arguments.runs + 1):
                began = time.perf_counter()
                try:
                    size = len(site.get(path))
                except urllib.error.HTTPError as error:
                    failures.append("%d after %.0f s" % (error.code, time.perf_counter() - began))
                    break
                if run > 0:
                    times.append((time.perf_counter() - began) * 1000)
                if (time.perf_counter() - began) > 5 and run > 0:
                    break
            if not times:
                print("%-36s failed: %s" % (name, "; ".join(failures)))
                continue
            median, slowest = statistics.median(times), max(times)
            results.append((name, median, slowest))
            print("%-36s %8.0f ms %8.0f ms %7.0f KB %s" % (name, median, slowest, size / 1024,
                                                          "ok" if median < GOAL_MS else "OVER %d ms" % GOAL_MS))
        for name, median, slowest in results:
            key = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
            print("%s_median_ms=%.0f" % (key, median))
    except Exception:
        stop(server)
        print("---- server log ----\n" + open(os.path.join(work, "second.log")).read()[-4000:], file=sys.stderr)
        print("data kept in " + work, file=sys.stderr)
        raise
    stop(server)
    if not arguments.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
