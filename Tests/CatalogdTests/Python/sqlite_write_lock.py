"""Holds an SQLite database's write lock until killed.

    sqlite_write_lock.py PATH

Opens PATH, begins an IMMEDIATE transaction (the write lock, in WAL mode as in rollback mode),
prints `locked`, then sleeps; the lock goes with the process.
"""
import sqlite3
import sys
import time

connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
while True:
    time.sleep(3600)
