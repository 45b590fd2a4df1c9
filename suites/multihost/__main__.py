"""python -m suites.multihost: one rank, or with --launch N the launcher (suites/multihost/__init__.py)."""
import os
import sys

from suites.multihost import main

status = main()
sys.stdout.flush()
sys.stderr.flush()
# Every line is out: skip the runtimes' native teardown, which may abort once a collective has
# failed (gloo after a send to its own rank: "terminate called without an active exception",
# exit -6, with every case answered).
os._exit(status)
