"""matplotlib is the ``plot`` extra: without it, drawing fails with a message that says
what to install, and the CLI turns it into exit 2 (not a traceback)."""

import subprocess
import sys

BLOCK = "import sys; sys.modules['matplotlib'] = None\n"


def test_plot_without_matplotlib_says_what_to_install() -> None:
    script = BLOCK + (
        "import schedlab\n"
        "from schedlab import mmtests\n"
        "c = mmtests.parse_compare('a b\\nAmean 1 10.00 ( 0.00%) 9.00 ( 10.00%)\\n')\n"
        "try:\n"
        "    c.plot()\n"
        "except schedlab.MissingDependencyError as e:\n"
        "    assert isinstance(e, ImportError)\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert "pip install 'schedlab[plot]'" in out


def test_report_without_matplotlib_exits_2_with_the_install_hint(tmp_path) -> None:
    script = BLOCK + "from schedlab import cli\nraise SystemExit(cli.main(sys.argv[1:]))\n"
    r = subprocess.run([sys.executable, "-c", script, "report", "--example", "-o", str(tmp_path / "r.html")],
                       capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    assert "pip install 'schedlab[plot]'" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "r.html").exists()


def test_report_of_an_mmtests_tree_needs_no_matplotlib(tmp_path) -> None:
    """The strip plots of an MMTests tree are drawn by the core (src/report_svg/)."""
    from pathlib import Path

    tree = Path(__file__).parent / "data" / "mmtests" / "families" / "2025"
    script = BLOCK + "from schedlab import cli\nraise SystemExit(cli.main(sys.argv[1:]))\n"
    r = subprocess.run([sys.executable, "-c", script, "report", str(tree), "--baseline", "6.8-vanilla",
                        "--allow-missing", "-o", str(tmp_path / "r.html")], capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stderr  # 1: worse rows; gitcheckout's 2025 Perl dies: missing
    page = (tmp_path / "r.html").read_text()
    assert page.count('class="schedlab-figure"') > 50 and "pip install" not in r.stderr
