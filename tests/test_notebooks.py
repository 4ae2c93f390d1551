"""The notebooks in notebooks/ run top to bottom with the public API, and are
committed with their outputs stripped."""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert NOTEBOOKS, "notebooks/ holds no notebook"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_outputs_are_stripped_in_git(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{path.name}: strip outputs"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    # figures render, each once: an image per figure cell, never the bare Figure repr
    images = [sum("image/png" in o.get("data", {}) for o in c.outputs) for c in nb.cells if c.cell_type == "code"]
    assert sum(images) >= 1, f"{path.name}: no figure rendered"
    assert max(images) == 1, f"{path.name}: a figure is shown more than once"
    bare = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
            if "image/png" not in o.get("data", {}) and str(o.get("data", {}).get("text/plain", "")).startswith("<Figure")]
    assert not bare, f"{path.name}: a figure printed as text instead of drawn"
    # only the public API: no private modules imported
    source = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "_core" not in source and "schedlab.report" not in source
