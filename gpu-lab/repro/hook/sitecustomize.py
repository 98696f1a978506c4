# run.sh puts this folder first on PYTHONPATH for every Python job, so that the machine can be read at the failure
# while the failed process still lives (as `gpu-env-doctor run` does: its snapshot is taken when the job shows it is
# failing, with the job's memory still held). An uncaught exception is printed by Python's own hook first (the log
# is exactly what the job prints without this file); then the process writes its PID to $REPRO_FAIL_MARK and waits,
# at most $REPRO_FAIL_HOLD_S seconds (8), for run.sh to create $REPRO_FAIL_MARK.done, and exits as it would have.
# Nothing happens when REPRO_FAIL_MARK is not set, or for a job that does not fail.
import os
import sys


def _chain_next_sitecustomize():
    # a sitecustomize further down the path (the venv's or the distribution's) still runs: this one only comes first
    here = os.path.dirname(os.path.abspath(__file__))
    for d in sys.path:
        if not d or os.path.abspath(d) == here:
            continue
        f = os.path.join(d, "sitecustomize.py")
        if os.path.isfile(f):
            with open(f, "rb") as fh:
                code = compile(fh.read(), f, "exec")
            exec(code, {"__name__": "sitecustomize", "__file__": f})
            return


_mark = os.environ.get("REPRO_FAIL_MARK")
if _mark:
    _previous = sys.excepthook

    def _hold_at_failure(kind, value, tb):
        _previous(kind, value, tb)
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
        try:
            import time

            tmp = f"{_mark}.tmp"
            with open(tmp, "w") as fh:
                fh.write(f"{os.getpid()}\n")
            os.replace(tmp, _mark)
            limit = time.monotonic() + float(os.environ.get("REPRO_FAIL_HOLD_S", "8"))
            while time.monotonic() < limit and not os.path.exists(f"{_mark}.done"):
                time.sleep(0.02)
        except Exception:
            pass

    sys.excepthook = _hold_at_failure

try:
    _chain_next_sitecustomize()
except Exception:
    pass
