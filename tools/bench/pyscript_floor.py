"""The program of tools/bench/pyscript-floor.html: PyScript has started,
the page is ready. Nothing else."""

import js

js.document.body.dataset.ready = "true"
