"""Measures how long another connection is kept from taking the write lock: tries
BEGIN IMMEDIATE (no waiting) every 2 ms and reports the longest run of refusals."""
import sqlite3, sys, time, os
path = sys.argv[1]; stop = sys.argv[2]
db = sqlite3.connect(path, timeout=0, isolation_level=None)
longest = 0.0; blocked_since = None; total_blocked = 0.0
while not os.path.exists(stop):
    now = time.monotonic()
    try:
        db.execute("BEGIN IMMEDIATE"); db.execute("COMMIT")
        if blocked_since is not None:
            longest = max(longest, now - blocked_since); total_blocked += now - blocked_since
            blocked_since = None
    except sqlite3.OperationalError:
        if blocked_since is None: blocked_since = now
    time.sleep(0.002)
if blocked_since is not None:
    longest = max(longest, time.monotonic() - blocked_since)
print(f"longest write-lock hold seen: {longest*1000:.0f} ms (blocked in total {total_blocked*1000:.0f} ms)")
