"""A Spark standalone cluster on 127.0.0.1 (a master and workers), started with the installed
PySpark's own launcher, for tests that run a job on a real cluster rather than in `local[*]`.

    with StandaloneCluster(tmp_path, workers=2, python_path=[project_root]) as cluster:
        subprocess.run(["iceberg-audit", metadata, "--master", cluster.url], ...)

The pip wheel of PySpark ships `bin/spark-class` but not `sbin/start-master.sh` and
`sbin/start-worker.sh`; those scripts only daemonize `spark-class org.apache.spark.deploy.master.Master`
and `...worker.Worker`, which this module runs directly, so the process ids it stops are the JVMs it
started. Every address is 127.0.0.1 (`SPARK_LOCAL_IP`, `--host`) on free ports; logs, the workers'
work directories and the configuration directory are under the directory given, never in the
installed package. Executors run `PYSPARK_PYTHON` (this interpreter unless set) with `python_path`
first on `PYTHONPATH`, so they import the same code as the driver.

`ClusterUnavailable` says why the cluster could not start (no Java, a port taken, a timeout), with
the end of the log of the process that failed.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from .spark import LOOPBACK, log4j2_properties, missing_requirement

MASTER_CLASS = "org.apache.spark.deploy.master.Master"
WORKER_CLASS = "org.apache.spark.deploy.worker.Worker"


class ClusterUnavailable(RuntimeError):
    """The cluster could not start here (the reason and a log tail in the message)."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (the OS's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def spark_class() -> Path:
    """The installed PySpark's `bin/spark-class`."""
    from pyspark.find_spark_home import _find_spark_home

    return Path(_find_spark_home()) / "bin" / "spark-class"


class StandaloneCluster:
    """A master and `workers` workers (`cores` and `memory` each) on 127.0.0.1, stopped on exit."""

    def __init__(
        self,
        directory: Path,
        *,
        workers: int = 2,
        cores: int = 1,
        memory: str = "1g",
        python_path: list[Path] | tuple[Path, ...] = (),
        timeout: float = 90.0,
    ):
        self.directory = Path(directory)
        self.workers, self.cores, self.memory, self.timeout = workers, cores, memory, timeout
        self.python_path = [str(p) for p in python_path]
        self.port, self.ui_port = free_port(), free_port()
        self.url = f"spark://{LOOPBACK}:{self.port}"
        self.processes: list[tuple[str, subprocess.Popen]] = []

    def work_dir(self, i: int) -> Path:
        return self.directory / f"worker-{i}"

    def log(self, name: str) -> Path:
        return self.directory / f"{name}.log"

    def _environment(self) -> dict[str, str]:
        conf = self.directory / "conf"
        conf.mkdir(parents=True, exist_ok=True)
        (conf / "log4j2.properties").write_text(log4j2_properties("warn"))
        env = dict(os.environ)
        env.update(
            SPARK_LOCAL_IP=LOOPBACK,
            SPARK_MASTER_HOST=LOOPBACK,
            SPARK_CONF_DIR=str(conf),
            SPARK_LOG_DIR=str(self.directory),
            SPARK_PID_DIR=str(self.directory),
            # a port taken since it was chosen fails the start, rather than Spark moving to the next one
            SPARK_DAEMON_JAVA_OPTS=f"{os.environ.get('SPARK_DAEMON_JAVA_OPTS', '')} -Dspark.port.maxRetries=0".strip(),
            PYSPARK_PYTHON=os.environ.get("PYSPARK_PYTHON", sys.executable),
            PYTHONPATH=os.pathsep.join(self.python_path + [p for p in [os.environ.get("PYTHONPATH")] if p]),
        )
        return env

    def _launch(self, name: str, *args: str) -> None:
        with self.log(name).open("wb") as log:
            process = subprocess.Popen(
                [str(spark_class()), *args],
                env=self._env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stopped with the JVM it execs
            )
        self.processes.append((name, process))

    def start(self) -> StandaloneCluster:
        """Start the master, then the workers; return when every worker is registered and alive."""
        if (reason := missing_requirement()) is not None:
            raise ClusterUnavailable(reason)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._env = self._environment()
        try:
            master = ("--host", LOOPBACK, "--port", str(self.port), "--webui-port", str(self.ui_port))
            self._launch("master", MASTER_CLASS, *master)
            self._wait(lambda state: state is not None, "the master to answer")
            for i in range(self.workers):
                self.work_dir(i).mkdir(exist_ok=True)
                options = ["--host", LOOPBACK, "--port", str(free_port()), "--webui-port", str(free_port())]
                options += ["--cores", str(self.cores), "--memory", self.memory, "--work-dir", str(self.work_dir(i))]
                self._launch(f"worker-{i}", WORKER_CLASS, *options, self.url)
            self._wait(lambda state: state is not None and self.alive_workers(state) == self.workers, "the workers")
        except BaseException:
            self.stop()
            raise
        return self

    def state(self) -> dict | None:
        """The master's status document (its web UI's /json/), or None while it does not answer."""
        try:
            with urllib.request.urlopen(f"http://{LOOPBACK}:{self.ui_port}/json/", timeout=5) as response:
                return json.load(response)
        except (OSError, ValueError):
            return None

    @staticmethod
    def alive_workers(state: dict) -> int:
        return sum(1 for w in state.get("workers", []) if w.get("state") == "ALIVE")

    def _wait(self, ready, what: str) -> None:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            for name, process in self.processes:
                if process.poll() is not None:
                    raise ClusterUnavailable(f"the {name} exited with {process.returncode}: {self._tail(name)}")
            if ready(self.state()):
                return
            time.sleep(0.5)
        tails = "; ".join(f"{name}: {self._tail(name)}" for name, _ in self.processes)
        raise ClusterUnavailable(f"timed out after {self.timeout:.0f} s waiting for {what}: {tails}")

    def _tail(self, name: str, lines: int = 4) -> str:
        """The last lines of a process's log, stack frames left out."""
        try:
            text = self.log(name).read_text(errors="replace").splitlines()
        except OSError:
            return "(no log)"
        kept = [line for line in text if line.strip() and not line.startswith(("\tat ", "\t..."))]
        return " | ".join(kept[-lines:]) or "(no output)"

    def stop(self) -> None:
        """Stop every process started here, by its process group (workers first), killing what lingers."""
        for _, process in reversed(self.processes):
            _signal_group(process, signal.SIGTERM)
        for _, process in reversed(self.processes):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                _signal_group(process, signal.SIGKILL)
                process.wait(timeout=10)
        self.processes.clear()

    def __enter__(self) -> StandaloneCluster:
        return self.start()

    def __exit__(self, *_exc) -> None:
        self.stop()


def _signal_group(process: subprocess.Popen, sig: int) -> None:
    """Signal the process group led by `process` (started here with its own session): the JVM and
    the executors a worker launched."""
    try:
        os.killpg(process.pid, sig)
    except ProcessLookupError:  # the group has ended
        pass
