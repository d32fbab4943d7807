"""CPU time and peak memory of process trees, read from /proc (through psutil).

A tree is a root process and its descendants (a server's master and workers, or
PostgreSQL's postmaster and its backends). Its CPU time counts the root's reaped
children too, so backends that ended during a window are not lost.
"""

from __future__ import annotations

from pathlib import Path

import psutil


def tree(root: int) -> list[psutil.Process]:
    """Return the process ``root`` and its living descendants."""
    process = psutil.Process(root)
    return [process, *process.children(recursive=True)]


def cpu_seconds(root: int) -> float:
    """Return the CPU seconds (user + system) spent so far by the tree under ``root``."""
    total = 0.0
    for n, process in enumerate(tree(root)):
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
        if n == 0:
            total += times.children_user + times.children_system
    return total


def peak_rss(root: int) -> int:
    """Return the sum of the tree's processes' peak resident sizes (VmHWM), in bytes."""
    total = 0
    for process in tree(root):
        try:
            status = Path(f"/proc/{process.pid}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                total += int(line.split()[1]) * 1024
    return total
