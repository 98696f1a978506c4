"""The wheel as users get it: built by scripts/wheel/build_wheel.py around an executable, installed with pip into a
fresh venv with --no-index, then used through the command, `python -m gpu_env_doctor`, the API and the IPython
magic. The executable here is a stand-in that answers like gpu-env-doctor (the real single executable is built and
tried by scripts/wheel/smoke.sh and gpu-lab/wheel.sh: it needs the Node binary from the npm registry)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
import zipfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Answers like the CLI: --version; `explain - --json` with the log's first line as evidence; `check --json`;
# exit 2 with one line on stderr for anything else. It records its argv, so the tests see what the API ran.
STAND_IN = textwrap.dedent('''\
    #!{python}
    import json, os, sys
    a = sys.argv[1:]
    with open(os.environ["GED_ARGV_LOG"], "a") as f:
        f.write(json.dumps(a) + "\\n")
    if a == ["--version"]:
        print("0.1.0")
    elif a[:2] == ["explain", "-"]:
        text = sys.stdin.read()
        cause = "gpu_memory_exhausted" if "out of memory" in text else "other"
        if "--json" in a:
            print(json.dumps({{"schemaVersion": 1, "causes": [{{"id": cause, "evidence": [{{"line": 1, "text": text.splitlines()[0] if text else ""}}]}}]}}))
        else:
            print("1. " + cause)
    elif a[:2] == ["check", "--json"]:
        print(json.dumps({{"schemaVersion": 1, "findings": [{{"check": "memory.holders", "status": "warn"}}]}}))
        sys.exit(1)
    elif a[:1] == ["check"]:
        print("[!] GPU memory & processes: PID 461 holds 138.6 GiB")
    else:
        sys.stderr.write("gpu-env-doctor: unknown command\\n")
        sys.exit(2)
''')


def _python_with_venv():
    """An interpreter that can make venvs (Debian's python3 with python3-venv, or the one running the tests)."""
    for cand in ("/usr/bin/python3", sys.executable):
        if cand and os.path.exists(cand) and subprocess.run([cand, "-c", "import venv, ensurepip"], capture_output=True).returncode == 0:
            return cand
    return None


class WheelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ged-wheel-test-")
        exe = os.path.join(cls.tmp, "stand-in")
        with open(exe, "w") as f:
            f.write(STAND_IN.format(python=sys.executable))
        os.chmod(exe, 0o755)
        out = subprocess.run([sys.executable, os.path.join(REPO, "scripts/wheel/build_wheel.py"), "--exe", exe, "--arch", "x64", "--out", cls.tmp], capture_output=True, text=True)
        if out.returncode != 0:
            raise AssertionError(out.stderr)
        cls.wheel = [os.path.join(cls.tmp, n) for n in os.listdir(cls.tmp) if n.endswith(".whl")][0]
        py = _python_with_venv()
        if py is None:
            raise unittest.SkipTest("no Python here can make a venv")
        cls.venv = os.path.join(cls.tmp, "venv")
        # --system-site-packages: the IPython test below uses the system's IPython (Debian's python3-ipython)
        subprocess.run([py, "-m", "venv", "--system-site-packages", cls.venv], check=True)
        cls.py = os.path.join(cls.venv, "bin", "python")
        subprocess.run([cls.py, "-m", "pip", "install", "-q", "--no-index", "--no-deps", cls.wheel], check=True)
        cls.log = os.path.join(cls.tmp, "argv.log")
        # no node anywhere on PATH: the venv's bin and a folder holding only a python3
        nonode = os.path.join(cls.tmp, "nonode")
        os.mkdir(nonode)
        os.symlink(sys.executable, os.path.join(nonode, "python3"))
        cls.env = {"PATH": f"{os.path.join(cls.venv, 'bin')}:{nonode}", "GED_ARGV_LOG": cls.log, "HOME": cls.tmp}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def argv_log(self):
        with open(self.log) as f:
            return [json.loads(line) for line in f]

    def test_wheel_name_tags_and_record(self):
        name = os.path.basename(self.wheel)
        self.assertEqual(name, "gpu_env_doctor-0.1.0-py3-none-manylinux_2_28_x86_64.whl")
        with zipfile.ZipFile(self.wheel) as z:
            names = z.namelist()
            self.assertIn("gpu_env_doctor-0.1.0.data/scripts/gpu-env-doctor", names)
            info = z.getinfo("gpu_env_doctor-0.1.0.data/scripts/gpu-env-doctor")
            self.assertEqual((info.external_attr >> 16) & 0o777, 0o755)
            record = z.read("gpu_env_doctor-0.1.0.dist-info/RECORD").decode()
            self.assertEqual(sorted(line.split(",")[0] for line in record.splitlines()), sorted(names))
            self.assertIn("Tag: py3-none-manylinux_2_28_x86_64", z.read("gpu_env_doctor-0.1.0.dist-info/WHEEL").decode())

    def test_command_and_module_run_without_node(self):
        self.assertIsNone(shutil.which("node", path=self.env["PATH"]))
        cmd = subprocess.run(["gpu-env-doctor", "--version"], env=self.env, capture_output=True, text=True)
        self.assertEqual((cmd.returncode, cmd.stdout), (0, "0.1.0\n"))
        mod = subprocess.run([self.py, "-m", "gpu_env_doctor", "--version"], env=self.env, capture_output=True, text=True)
        self.assertEqual((mod.returncode, mod.stdout), (0, "0.1.0\n"))
        bad = subprocess.run([self.py, "-m", "gpu_env_doctor", "nosuch"], env=self.env, capture_output=True, text=True)
        self.assertEqual((bad.returncode, bad.stderr), (2, "gpu-env-doctor: unknown command\n"))

    def run_py(self, code):
        return subprocess.run([self.py, "-c", code], env=self.env, capture_output=True, text=True)

    def test_api_returns_the_json_and_raises_on_errors(self):
        r = self.run_py(textwrap.dedent('''\
            import gpu_env_doctor as g, json
            print(json.dumps(g.explain("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB", "--no-machine")))
            print(json.dumps(g.check()))
            try:
                g.explain(b"bytes")
            except TypeError as e:
                print("TypeError", e)
        '''))
        self.assertEqual(r.returncode, 0, r.stderr)
        explained, checked, typeerr = r.stdout.splitlines()
        self.assertEqual(json.loads(explained)["causes"][0]["id"], "gpu_memory_exhausted")
        self.assertEqual(json.loads(explained)["causes"][0]["evidence"][0]["text"], "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB")
        self.assertEqual(json.loads(checked)["findings"][0]["status"], "warn")  # exit 1 still carries the report
        self.assertTrue(typeerr.startswith("TypeError"))
        self.assertIn(["explain", "-", "--no-machine", "--json"], self.argv_log())
        err = self.run_py("import gpu_env_doctor as g\ntry:\n    g._json(['nosuch'])\nexcept g.GpuEnvDoctorError as e:\n    print('error:', e)")
        self.assertEqual(err.stdout, "error: gpu-env-doctor: unknown command\n")

    def test_missing_executable_is_one_clear_error(self):
        env = dict(self.env, PATH=self.env["PATH"].split(":")[1])
        r = subprocess.run([self.py, "-I", "-c", "import sys; sys.executable='/nonexistent/python'; import gpu_env_doctor as g\ntry:\n    g.executable()\nexcept g.GpuEnvDoctorError as e:\n    print('error')"], env=env, capture_output=True, text=True)
        # the venv's scripts folder still has it (sysconfig), so the search finds it there first
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_ipython_magics(self):
        has = subprocess.run([self.py, "-c", "import IPython"], capture_output=True).returncode == 0
        if not has:
            self.skipTest("IPython is not installed (Debian: python3-ipython)")
        code = textwrap.dedent('''\
            from IPython.core.interactiveshell import InteractiveShell
            ip = InteractiveShell.instance()
            ip.run_line_magic("load_ext", "gpu_env_doctor")
            ip.run_line_magic("gpu_doctor", "")
            try:
                ip.run_cell_magic("gpu_doctor", "--no-machine", "x = 1\\nraise RuntimeError('CUDA out of memory. Tried to allocate 2.00 GiB')")
            except RuntimeError as e:
                print("re-raised:", e)
            ip.run_cell_magic("gpu_doctor", "", "y = 41 + 1")
            print("y =", ip.user_ns["y"], "x =", ip.user_ns["x"])
        ''')
        r = self.run_py(code)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("[!] GPU memory & processes: PID 461 holds 138.6 GiB", r.stdout)
        self.assertIn("gpu-env-doctor explain of this cell's error:", r.stdout)
        self.assertIn("1. gpu_memory_exhausted", r.stdout)  # the stand-in saw "out of memory" in the traceback
        self.assertIn("re-raised: CUDA out of memory. Tried to allocate 2.00 GiB", r.stdout)
        self.assertIn("y = 42 x = 1", r.stdout)
        explain_calls = [a for a in self.argv_log() if a[:1] == ["explain"]]
        self.assertIn(["explain", "-", "--no-machine"], explain_calls)


if __name__ == "__main__":
    unittest.main()
