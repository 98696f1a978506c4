// How a value of an environment line says the framework was installed ("pip", "conda", "docker", "from source"),
// for the English and the Chinese readers alike.
import { eitherOf, regexOf } from '../../../base/regex.js';

/** the install words, every one in a value (global: read with String.match, which starts it afresh each time) */
export const INSTALL_WORDS = regexOf(
  [
    '\\b(',
    eitherOf([
      /pip|conda|mamba/, // package managers
      /docker|podman|singularity|apptainer|kubernetes/, // containers
      /source|colab|kaggle|jupyter/, // built, or a hosted notebook
      /virtualenv|venv|poetry|uv|apt|binary|wheel/,
    ]),
    ')\\b',
  ],
  'g',
);
