#!/usr/bin/env python3
"""slowest-tests.py N EVENTS...: the N slowest tests of Swift Testing event streams (JSON lines, as
`swift test --event-stream-output-path FILE --event-stream-version 0` writes them), one line each:
wall time from the test's start to its end, then its suite and name. Suites are left out; a
parameterized test counts whole.

Swift Testing says a test started before the test waits for one of the slots that
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH (TEST_PARALLELISM) allows, so under that limit a
time holds that wait too: `TEST_PARALLELISM=1 scripts/test.sh --filter SUITE` times a suite's
tests alone."""
import json
import sys


def durations(path):
    names, started, ended = {}, {}, {}
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by a crash
            payload = record.get("payload", {})
            if record.get("kind") == "test" and payload.get("kind") == "function":
                names[payload["id"]] = payload.get("displayName") or payload.get("name")
            elif record.get("kind") == "event" and payload.get("kind") in ("testStarted", "testEnded"):
                moments = started if payload["kind"] == "testStarted" else ended
                moments[payload["testID"]] = payload["instant"]["absolute"]
    for test_id, name in names.items():
        if test_id in started and test_id in ended:
            suite = test_id.split("/")[0]
            yield ended[test_id] - started[test_id], f"{suite}: {name}"


def main():
    count = int(sys.argv[1])
    tests = sorted((entry for path in sys.argv[2:] for entry in durations(path)), reverse=True)
    for seconds, name in tests[:count]:
        print(f"{seconds:8.1f} s  {name}")


if __name__ == "__main__":
    main()
