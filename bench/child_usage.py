"""Runs one command and prints, as JSON, its wall time, CPU time, peak resident set size and minor page faults.

The bench's whole-process figures (CLI start-up, `skrya rank`, the Python yardstick) come from
here: getrusage(RUSAGE_CHILDREN) gives a finished child's peak RSS and CPU exactly, which Node
cannot read for a child. One command per call, since ru_maxrss is the largest over all children.
Usage: python3 child_usage.py STDOUT_FILE COMMAND [ARG ...]   (STDOUT_FILE "-" discards stdout)
"""
import json
import os
import resource
import subprocess
import sys
import time


def main():
    stdout_path, command = sys.argv[1], sys.argv[2:]
    with open(os.devnull if stdout_path == "-" else stdout_path, "wb") as stdout:
        started = time.perf_counter()
        completed = subprocess.run(command, stdout=stdout, stderr=subprocess.PIPE, check=False)
        wall = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({
        "exitCode": completed.returncode,
        "wallMs": round(wall * 1000, 1),
        "cpuMs": round((usage.ru_utime + usage.ru_stime) * 1000, 1),
        "peakRssMb": round(usage.ru_maxrss / 1024, 1),
        "minorFaults": usage.ru_minflt,
        "stderrTail": completed.stderr.decode("utf-8", "replace")[-400:],
    }))


if __name__ == "__main__":
    main()
