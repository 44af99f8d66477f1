"""Runs one command and prints, as JSON, its wall time, CPU time, peak resident set size and minor page faults.

The bench's whole-process figures (CLI start-up, `skrya rank`, the Python yardstick) come from
here: getrusage(RUSAGE_CHILDREN) gives a finished child's peak RSS and CPU exactly, which Node
cannot read for a child. One command per call, since ru_maxrss is the largest over all children.

While the command runs, every thread of its process tree is read from /proc every SAMPLE_SECONDS,
so its CPU can be split by kind of thread (threadCpuMs): the main threads, Node's worker threads,
V8's helper threads (its compilers and garbage collector) and the rest. A thread's CPU after the
last reading before it ended is missed, so the kinds add up to a little less than cpuMs.
Usage: python3 child_usage.py STDOUT_FILE COMMAND [ARG ...]   (STDOUT_FILE "-" discards stdout)
"""
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time

SAMPLE_SECONDS = 0.05
TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")


def thread_kind(pid, tid, name):
    """Node names its threads: the main one MainThread, a worker's WorkerThread, V8's helpers V8Worker."""
    if name == "WorkerThread":
        return "workers"
    if name.startswith("V8"):
        return "v8Helpers"
    if tid == pid:
        return "main"
    return "other"


def read_tree(root, seen):
    """Each thread of root and its descendants: seen[(pid, tid)] = (kind, CPU ticks so far)."""
    pending = [root]
    while pending:
        pid = pending.pop()
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/stat") as stat:
                    line = stat.read()
                with open(f"/proc/{pid}/task/{tid}/children") as children:
                    pending.extend(int(child) for child in children.read().split())
            except OSError:
                continue
            # The name sits in parentheses and may hold spaces; utime and stime are the 12th and 13th fields after it.
            name = line[line.index("(") + 1:line.rindex(")")]
            fields = line[line.rindex(")") + 2:].split()
            seen[(pid, int(tid))] = (thread_kind(pid, int(tid), name), int(fields[11]) + int(fields[12]))


def sample_tree(root, seen, stop):
    while True:
        read_tree(root, seen)
        if stop.wait(SAMPLE_SECONDS):
            return


def main():
    stdout_path, command = sys.argv[1], sys.argv[2:]
    seen = {}
    # stderr goes to a file, not a pipe: nothing reads a pipe while the tree is sampled, and a full one would stall the command.
    with open(os.devnull if stdout_path == "-" else stdout_path, "wb") as stdout, tempfile.TemporaryFile() as stderr:
        started = time.perf_counter()
        child = subprocess.Popen(command, stdout=stdout, stderr=stderr)
        # Sampled on a thread of its own, so the wall time ends when the child does, not at the next sample.
        stop = threading.Event()
        sampler = threading.Thread(target=sample_tree, args=(child.pid, seen, stop))
        sampler.start()
        child.wait()
        wall = time.perf_counter() - started
        stop.set()
        sampler.join()
        stderr.seek(0)
        stderr_text = stderr.read().decode("utf-8", "replace")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    thread_cpu = {kind: 0.0 for kind in ("main", "workers", "v8Helpers", "other")}
    for kind, ticks in seen.values():
        thread_cpu[kind] += ticks * TICK_MS
    print(json.dumps({
        "exitCode": child.returncode,
        "wallMs": round(wall * 1000, 1),
        "cpuMs": round((usage.ru_utime + usage.ru_stime) * 1000, 1),
        "peakRssMb": round(usage.ru_maxrss / 1024, 1),
        "minorFaults": usage.ru_minflt,
        "threadCpuMs": {kind: round(ms, 1) for kind, ms in thread_cpu.items()},
        "stderrTail": stderr_text[-400:],
    }))


if __name__ == "__main__":
    main()
