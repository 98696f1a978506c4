// The shape of a discovered Python environment. Implemented by src/gather/python/discover.ts (owner: the Python
// environments work); used by the library inventory, which scans each environment's site-packages.

export type PythonEnvKind = 'venv' | 'conda' | 'pyenv' | 'system' | 'explicit';

export interface PythonEnvironment {
  /** sys.prefix: the environment's folder */
  prefix: string;
  kind: PythonEnvKind;
  /** the interpreter, when one was found (bin/python3) */
  interpreter: string | null;
  /** "3.12", from the lib/pythonX.Y folder or pyvenv.cfg */
  pythonVersion: string | null;
  /** every site-packages / dist-packages folder of the environment */
  sitePackages: string[];
  /** the environment the user is in now (VIRTUAL_ENV / CONDA_PREFIX / first python3 on PATH) */
  active: boolean;
  /** conda environment name, when it is one */
  name?: string;
}
