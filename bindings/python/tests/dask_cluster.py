"""A Dask cluster of separate processes on 127.0.0.1, as on several
machines: `dask scheduler` and `dask worker` processes (python -m dask, one thread each,
no nanny: a worker's pid is the process that runs its tasks, so that a test
can kill it or read its peak memory), under this Python, on free ports.
Stopped by pid when the block ends, also when a test fails."""

import json
import os
import signal
import subprocess
import sys
import time


def peak_rss(pid):
    """The peak resident set size of a live process, in bytes (VmHWM)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmHWM for pid {pid}")


class Cluster:
    def __init__(self, directory, workers=2, start_timeout=120):
        self.directory = str(directory)
        self.workers = workers
        self.start_timeout = start_timeout
        self.scheduler = None
        self.worker_procs = []
        self.address = None
        self._logs = []

    def _spawn(self, name, args):
        log = open(os.path.join(self.directory, name + ".log"), "wb")
        self._logs.append(log)
        return subprocess.Popen([sys.executable, "-m", *args], stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT)

    def __enter__(self):
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()

    def _start(self):
        sched_file = os.path.join(self.directory, "scheduler.json")
        self.scheduler = self._spawn("scheduler", [
            # --no-dashboard alone still serves HTTP on 0.0.0.0:8787
            "dask", "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
            "--dashboard-address", "127.0.0.1:0",
            "--scheduler-file", sched_file])
        deadline = time.monotonic() + self.start_timeout
        while True:
            try:
                with open(sched_file) as f:
                    self.address = json.load(f)["address"]
                break
            except (OSError, ValueError, KeyError):
                pass
            if self.scheduler.poll() is not None:
                raise RuntimeError(f"the scheduler exited ({self.scheduler.returncode}): {self.log('scheduler')}")
            if time.monotonic() > deadline:
                raise RuntimeError("the scheduler did not start")
            time.sleep(0.1)
        for i in range(self.workers):
            self.worker_procs.append(self._spawn(f"worker{i}", [
                "dask", "worker", self.address, "--host", "127.0.0.1", "--nthreads", "1",
                "--no-nanny", "--no-dashboard", "--dashboard-address", "127.0.0.1:0",
                "--name", f"w{i}"]))
        from distributed import Client

        with Client(self.address, timeout=self.start_timeout) as client:
            client.wait_for_workers(self.workers, timeout=self.start_timeout)

    def log(self, name):
        try:
            with open(os.path.join(self.directory, name + ".log"), "rb") as f:
                return f.read()[-4000:].decode(errors="replace")
        except OSError:
            return ""

    def pids(self):
        """{worker address: pid} of the workers alive."""
        from distributed import Client

        with Client(self.address) as client:
            return {a: w["pid"] for a, w in client.scheduler_info()["workers"].items()}

    def kill_worker(self, proc):
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()

    def stop(self):
        procs = [p for p in self.worker_procs + [self.scheduler] if p is not None]
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        for log in self._logs:
            log.close()
        self._logs = []
