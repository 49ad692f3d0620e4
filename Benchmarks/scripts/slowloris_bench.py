#!/usr/bin/env python3
"""Measures /healthz while a slowloris attack runs against `momentary serve`.

usage: Benchmarks/scripts/slowloris_bench.py --binary .build/release/momentary [--connections 500]
                                  [--seconds 30] [--header-timeout 10]

Starts `momentary serve --demo` on a throw-away data folder. An attacker on 127.0.0.1 keeps
`--connections` connections open, each sending an unfinished request one header line a second
(never idle, never done) and opening a new connection whenever the server cuts one (after the
Retry-After second when the server refused it over its connection limit). Meanwhile a
monitor on another loopback address (127.0.0.2, so the per-address connection limit does not count
it with the attacker) asks for /healthz five times a second, each on a fresh connection, as a load
balancer's probe would.

Reports the monitor's latency (median, 99th percentile, maximum) and failures, how many attack
connections the server cut and after how long, and how many it refused. Prints `name=value` lines.
"""
import argparse
import asyncio
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


async def attacker(host, port, stop_at, report):
    while time.monotonic() < stop_at:
        opened = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=("127.0.0.1", 0))
        except OSError:
            report["connect_errors"] += 1
            await asyncio.sleep(0.5)
            continue
        try:
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: bench\r\n")
            await writer.drain()
            while time.monotonic() < stop_at:
                try:
                    data = await asyncio.wait_for(reader.read(4096), timeout=1.0)
                except asyncio.TimeoutError:
                    writer.write(b"X-Slow: y\r\n")
                    await writer.drain()
                    continue
                if data.startswith(b"HTTP/1.1 503"):
                    # Refused over the connection limit: come back after the Retry-After second
                    # (a client that never waits is a connection flood, for a firewall to stop).
                    report["refused"] += 1
                    writer.close()
                    await asyncio.sleep(1.0)
                elif data.startswith(b"HTTP/1.1 408") or not data:
                    report["cut_after"].append(time.monotonic() - opened)
                break
            else:
                report["held_to_end"] += 1
        except (ConnectionError, OSError):
            report["cut_after"].append(time.monotonic() - opened)
        finally:
            writer.close()
        await asyncio.sleep(0.05)


async def monitor(host, port, stop_at, report):
    while time.monotonic() < stop_at:
        started = time.monotonic()
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port, local_addr=("127.0.0.2", 0)), timeout=5)
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
            await writer.drain()
            answer = await asyncio.wait_for(reader.read(), timeout=5)
            writer.close()
            if answer.startswith(b"HTTP/1.1 200"):
                report["latencies"].append(time.monotonic() - started)
            else:
                report["failures"] += 1
        except (OSError, asyncio.TimeoutError):
            report["failures"] += 1
        await asyncio.sleep(max(0.0, 0.2 - (time.monotonic() - started)))


async def attack(host, port, connections, seconds):
    stop_at = time.monotonic() + seconds
    report = {"latencies": [], "failures": 0, "cut_after": [], "refused": 0, "held_to_end": 0, "connect_errors": 0}
    tasks = [asyncio.create_task(attacker(host, port, stop_at, report)) for _ in range(connections)]
    tasks.append(asyncio.create_task(monitor(host, port, stop_at, report)))
    await asyncio.gather(*tasks)
    return report


def start_server(binary, work, header_timeout):
    log = open(os.path.join(work, "server.log"), "w")
    environment = dict(os.environ, MOMENTARY_HEADER_TIMEOUT_SECONDS=str(header_timeout))
    server = subprocess.Popen([binary, "serve", "--demo", "--port", "0", "--data", os.path.join(work, "data")],
                              stdout=log, stderr=subprocess.STDOUT, env=environment)
    for _ in range(300):
        time.sleep(0.1)
        match = re.search(r"listening on http://([\d.]+):(\d+)", open(log.name).read())
        if match:
            return server, match.group(1), int(match.group(2))
    server.kill()
    sys.exit("the server did not start; see " + log.name)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--connections", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--header-timeout", type=int, default=10)
    arguments = parser.parse_args()

    work = tempfile.mkdtemp(prefix="slowloris-")
    server, host, port = start_server(arguments.binary, work, arguments.header_timeout)
    try:
        time.sleep(1)
        report = asyncio.run(attack(host, port, arguments.connections, arguments.seconds))
    finally:
        server.terminate()
        server.wait()
    shutil.rmtree(work, ignore_errors=True)

    latencies = sorted(report["latencies"])
    def percentile(share):
        return latencies[min(len(latencies) - 1, int(share * len(latencies)))] * 1000 if latencies else float("nan")
    cut = report["cut_after"]
    print(f"{arguments.connections} trickling connections for {arguments.seconds:.0f} s against {arguments.binary}")
    print(f"  /healthz from 127.0.0.2: {len(latencies)} answered, {report['failures']} failed; "
          f"median {percentile(0.5):.1f} ms, p99 {percentile(0.99):.1f} ms, max {percentile(1.0):.1f} ms")
    print(f"  attack connections: {len(cut)} cut by the server (median after {statistics.median(cut) if cut else float('nan'):.1f} s), "
          f"{report['refused']} refused, {report['held_to_end']} still held at the end")
    for name, value in [("healthz_answered", len(latencies)), ("healthz_failed", report["failures"]),
                        ("healthz_p50_ms", round(percentile(0.5), 1)), ("healthz_p99_ms", round(percentile(0.99), 1)),
                        ("healthz_max_ms", round(percentile(1.0), 1)), ("attack_cut", len(cut)),
                        ("attack_refused", report["refused"]), ("attack_held_to_end", report["held_to_end"])]:
        print(f"{name}={value}")


if __name__ == "__main__":
    main()
