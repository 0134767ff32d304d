"""catalogd replicas on one PostgreSQL under faults: writes in a loop while PostgreSQL restarts
and replicas are SIGKILLed, then SIGTERM and the time each replica takes to exit.

    fault_run.py --catalogd PATH [--replicas 1] [--writers 3] [--duration 0] [--restarts 6]
                 [--restart-interval 2] [--kill-every 0] [--deadline 5] [--grace 10]

Starts a throwaway PostgreSQL cluster (initdb into a temporary directory, Unix socket only; as
root its programs run as `postgres`) and --replicas catalogd on it. --writers threads per
replica each loop Categories/Create (a name of its own every time) and Filters/Select, every
call with a --deadline s deadline, through grpcio with JSON bodies. Meanwhile PostgreSQL is
restarted (`pg_ctl restart -m fast`) --restarts times, --restart-interval s apart, and with
--kill-every S one replica is SIGKILLed and started again every S s, round-robin. The run lasts
--duration s, or until the restarts are done. Then every replica gets SIGTERM.

Afterwards each acknowledged Create must be in the catalog. Prints one JSON line: calls
acknowledged, indeterminate (a write answered UNAVAILABLE, DEADLINE_EXCEEDED or CANCELLED: it
may or may not have committed; how many did is counted too), failed (any other status), the
statuses seen, INTERNAL answers, calls answered only after their deadline, the longest wait,
acknowledged Creates missing, and per replica the SIGTERM-to-exit time, exit status and whether
it logged `server stopped`. Exits 1 when an acknowledged write is missing, a call got INTERNAL
or DEADLINE_EXCEEDED or ran past its deadline, or a replica did not exit 0 within --grace + 5 s.
"""
import argparse
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

import grpc


def codec():
    return dict(request_serializer=lambda m: json.dumps(m).encode(), response_deserializer=json.loads)


class Cluster:
    """A throwaway PostgreSQL cluster listening on a Unix socket in its directory."""

    def __init__(self):
        versions = sorted(int(v) for v in os.listdir("/usr/lib/postgresql") if v.isdigit())
        self.bin = "/usr/lib/postgresql/%d/bin" % versions[-1]
        self.dir = tempfile.mkdtemp(prefix="catalog-faults.")
        self.run_as = "postgres" if os.getuid() == 0 else None
        if self.run_as:
            account = pwd.getpwnam(self.run_as)
            os.chown(self.dir, account.pw_uid, account.pw_gid)
        self.tool("initdb", "-D", self.dir + "/data", "-U", "catalog", "--auth=trust", "-E", "UTF8",
                  "--locale=C.UTF-8", "--no-sync")
        self.start()
        self.tool("createdb", "-h", self.dir, "-p", "5432", "-U", "catalog", "catalog")
        self.url = "postgresql://catalog@/catalog?host=" + self.dir

    def tool(self, name, *args):
        command = [self.bin + "/" + name, *args]
        if self.run_as:
            command = ["runuser", "-u", self.run_as, "--"] + command
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self):
        self.tool("pg_ctl", "-D", self.dir + "/data", "-l", self.dir + "/server.log", "-w", "-o",
                  "-c listen_addresses='' -k %s -p 5432 -c max_connections=300" % self.dir, "start")

    def restart(self):
        self.tool("pg_ctl", "-D", self.dir + "/data", "-m", "fast", "-w", "restart", "-o",
                  "-c listen_addresses='' -k %s -p 5432 -c max_connections=300" % self.dir)

    def remove(self):
        try:
            self.tool("pg_ctl", "-D", self.dir + "/data", "-m", "immediate", "-w", "stop")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Replica:
    def __init__(self, catalogd, url, grace, logdir, index):
        self.catalogd, self.url, self.grace = catalogd, url, grace
        self.port = free_port()
        self.log_path = os.path.join(logdir, "replica-%d.log" % index)
        self.process = None
        self.start()

    def start(self):
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [self.catalogd, "--address", "127.0.0.1:%d" % self.port, "--database", self.url,
             "--shutdown-grace-seconds", str(self.grace), "--log-level", "info"],
            stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if b"catalogd ready on" in open(self.log_path, "rb").read():
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError("replica did not start; log:\n" + open(self.log_path).read()[-4000:])

    def kill(self):
        self.process.kill()
        self.process.wait()

    def terminate(self):
        """SIGTERM; returns (seconds to exit or None, exit status or None, logged 'server stopped')."""
        before = len(open(self.log_path, "rb").read())
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=self.grace + 5)
            elapsed = time.monotonic() - started
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            status, elapsed = None, None
        tail = open(self.log_path, "rb").read()[before:].decode(errors="replace")
        cut = [line for line in tail.splitlines() if "server stopped" in line]
        return elapsed, status, bool(cut), cut[-1] if cut else None


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.acknowledged = 0
        self.indeterminate = 0
        self.failed = 0
        self.statuses = {}
        self.longest = 0.0
        self.late = 0
        self.created = []
        self.uncertain = []
        self.examples = {}

    def record(self, status, elapsed, deadline, write, name=None, message=""):
        with self.lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.longest = max(self.longest, elapsed)
            if elapsed > deadline + 1:
                self.late += 1
            if status == "OK":
                self.acknowledged += 1
                if name:
                    self.created.append(name)
            elif write and status in ("UNAVAILABLE", "DEADLINE_EXCEEDED", "CANCELLED"):
                self.indeterminate += 1
                if name:
                    self.uncertain.append(name)
            else:
                self.failed += 1
            if status != "OK" and status not in self.examples:
                self.examples[status] = message[:300]


def writer(replica, index, tally, stop, deadline):
    channel = grpc.insecure_channel("127.0.0.1:%d" % replica.port)
    create = channel.unary_unary("/catalog.v1.Categories/Create", **codec())
    select = channel.unary_unary("/catalog.v1.Filters/Select", **codec())
    n = 0
    while not stop.is_set():
        n += 1
        name = "w%d-%d-%d" % (replica.port, index, n)
        for method, request, created in ((create, {"name": name}, name),
                                         (select, {"filterId": "faults", "optionId": n % 4 + 1}, None)):
            started = time.monotonic()
            try:
                method(request, timeout=deadline)
                status, message = "OK", ""
            except grpc.RpcError as error:
                status, message = error.code().name, error.details() or ""
            tally.record(status, time.monotonic() - started, deadline, True, created, message)
            if status != "OK":
                time.sleep(0.05)  # a replica that is down answers at once: do not spin
    channel.close()


def call_with_retries(port, path, request, attempts=100):
    channel = grpc.insecure_channel("127.0.0.1:%d" % port)
    method = channel.unary_unary(path, **codec())
    try:
        for _ in range(attempts):
            try:
                return method(request, timeout=10)
            except grpc.RpcError as error:
                if error.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                    raise
                time.sleep(0.2)
        raise RuntimeError("%s kept failing" % path)
    finally:
        channel.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--catalogd", required=True)
    parser.add_argument("--replicas", type=int, default=1)
    parser.add_argument("--writers", type=int, default=3)
    parser.add_argument("--duration", type=float, default=0)
    parser.add_argument("--restarts", type=int, default=6)
    parser.add_argument("--restart-interval", type=float, default=2)
    parser.add_argument("--kill-every", type=float, default=0)
    parser.add_argument("--deadline", type=float, default=5)
    parser.add_argument("--grace", type=int, default=10)
    args = parser.parse_args()

    cluster = Cluster()
    logdir = tempfile.mkdtemp(prefix="catalog-faults-logs.")
    replicas = []
    try:
        replicas = [Replica(args.catalogd, cluster.url, args.grace, logdir, i) for i in range(args.replicas)]
        options = [{"id": i, "title": "Option %d" % i} for i in range(1, 5)]
        call_with_retries(replicas[0].port, "/catalog.v1.Filters/Define",
                          {"filterId": "faults", "title": "Faults", "options": options})
        tally = Tally()
        stop = threading.Event()
        threads = [threading.Thread(target=writer, args=(r, i, tally, stop, args.deadline), daemon=True)
                   for r in replicas for i in range(args.writers)]
        for thread in threads:
            thread.start()
        started = time.monotonic()
        end = started + args.duration if args.duration else None
        restarts_done, kills = 0, 0
        restart_gap = args.restart_interval if not args.duration else args.duration / (args.restarts + 1)
        next_restart = started + restart_gap
        next_kill = started + args.kill_every if args.kill_every else None
        while True:
            now = time.monotonic()
            if restarts_done < args.restarts and now >= next_restart:
                cluster.restart()
                restarts_done += 1
                next_restart = time.monotonic() + restart_gap
            if next_kill and now >= next_kill:
                victim = replicas[kills % len(replicas)]
                victim.kill()
                victim.start()
                kills += 1
                next_kill = time.monotonic() + args.kill_every
            if end is not None:
                if now >= end:
                    break
            elif restarts_done >= args.restarts and now >= next_restart:
                break
            time.sleep(0.02)
        stop.set()
        for thread in threads:
            thread.join(timeout=args.deadline + 5)
        stuck_writers = sum(thread.is_alive() for thread in threads)
        listed = call_with_retries(replicas[0].port, "/catalog.v1.Categories/List", {})
        names = {c["name"] for c in listed.get("categories", [])}
        missing = [name for name in tally.created if name not in names]
        committed_uncertain = sum(name in names for name in tally.uncertain)
        exits = [r.terminate() for r in replicas]
        result = {
            "replicas": args.replicas, "writers": args.writers * args.replicas,
            "seconds": round(time.monotonic() - started, 1), "postgres_restarts": restarts_done,
            "replica_kills": kills,
            "acknowledged": tally.acknowledged, "indeterminate": tally.indeterminate,
            "indeterminate_committed": committed_uncertain, "failed": tally.failed,
            "statuses": tally.statuses, "internal": tally.statuses.get("INTERNAL", 0),
            "past_deadline": tally.late, "longest_wait_s": round(tally.longest, 3),
            "stuck_writers": stuck_writers, "acknowledged_missing": len(missing),
            "sigterm_to_exit_s": [None if e[0] is None else round(e[0], 2) for e in exits],
            "exit_status": [e[1] for e in exits], "server_stopped_logged": [e[2] for e in exits],
            "server_stopped_lines": [e[3] for e in exits], "examples": tally.examples,
        }
        print(json.dumps(result))
        ok = (not missing and tally.statuses.get("INTERNAL", 0) == 0 and tally.statuses.get("DEADLINE_EXCEEDED", 0) == 0
              and tally.late == 0 and stuck_writers == 0 and all(e[0] is not None and e[1] == 0 for e in exits))
        if not ok:
            print("logs kept in " + logdir)
            logdir = None
        return 0 if ok else 1
    finally:
        for replica in replicas:
            if replica.process and replica.process.poll() is None:
                replica.kill()
        cluster.remove()
        if logdir:
            shutil.rmtree(logdir, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
