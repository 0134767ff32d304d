#!/usr/bin/env python3
"""slowest-tests.py N WIDTH EVENTS...: the N slowest tests of Swift Testing event streams (JSON
lines, as `swift test --event-stream-output-path FILE --event-stream-version 0` writes them), run
at most WIDTH at a time (TEST_PARALLELISM), one line each: the seconds it ran, then its suite and
name. Suites are left out.

A case of a parameterized test is timed exactly: Swift Testing says it started once it has one
of the WIDTH slots. A test that is not parameterized says it started before it waits for a slot,
so it is timed only when WIDTH is 1 (`TEST_PARALLELISM=1 scripts/test.sh --skip SoakTests`);
with a wider run, the list holds only parameterized cases and says so."""
import json
import sys


def durations(path, whole_tests):
    names, parameterized, started, ended, cases = {}, set(), {}, {}, {}
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by a crash
            payload = record.get("payload", {})
            kind = payload.get("kind")
            if record.get("kind") == "test" and kind == "function":
                names[payload["id"]] = payload.get("displayName") or payload.get("name")
                if payload.get("isParameterized"):
                    parameterized.add(payload["id"])
            elif record.get("kind") == "event":
                test_id, instant = payload.get("testID"), payload.get("instant", {}).get("absolute")
                if kind == "testStarted":
                    started[test_id] = instant
                elif kind == "testEnded":
                    ended[test_id] = instant
                elif kind in ("testCaseStarted", "testCaseEnded"):
                    test_case = payload.get("_testCase", {})
                    case = cases.setdefault(test_id, {}).setdefault(test_case.get("id"), [test_case.get("displayName"), None, None])
                    case[1 if kind == "testCaseStarted" else 2] = instant
    for test_id, name in names.items():
        suite = test_id.split("/")[0]
        if test_id in parameterized:
            for arguments, start, end in cases.get(test_id, {}).values():
                if start is not None and end is not None:
                    yield end - start, f"{suite}: {name} [{arguments}]"
        elif whole_tests and test_id in started and test_id in ended:
            yield ended[test_id] - started[test_id], f"{suite}: {name}"


def main():
    count, width = int(sys.argv[1]), int(sys.argv[2])
    whole_tests = width == 1
    if not whole_tests:
        print(f"(at most {width} tests at a time: only parameterized tests' cases are timed;"
              " TEST_PARALLELISM=1 times every test)")
    tests = sorted((entry for path in sys.argv[3:] for entry in durations(path, whole_tests)), reverse=True)
    for seconds, name in tests[:count]:
        print(f"{seconds:8.1f} s  {name}")


if __name__ == "__main__":
    main()
