"""The package as users install it: a wheel that carries its templates and decks, and a light start-up."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_wheel_ships_templates_and_decks_and_runs_from_anywhere(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path / "dist"), str(ROOT)], check=True, capture_output=True)
    wheel = next((tmp_path / "dist").glob("pbd-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "pbd/templates/cnc.txt.j2" in names
    assert "pbd/decks/cnc/catalogue.toml" in names
    assert "pbd/decks/cnc/forces-of-justice.txt" in names
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site), "PBD_HOME": str(tmp_path / "home")}

    def run(*args):
        return subprocess.run([sys.executable, "-m", "pbd", *args], cwd=elsewhere, env=env,
                              capture_output=True, text=True)

    where = subprocess.run([sys.executable, "-c", "import pbd.paths as p; print(p.resource_dir('decks'))"],
                           cwd=elsewhere, env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert where == str(site / "pbd" / "decks")
    kit = subprocess.run([sys.executable, "-c", "import pbd.testing as t; print(t.__file__, t.check_game.__name__)"],
                         cwd=elsewhere, env=env, capture_output=True, text=True)
    assert kit.returncode == 0 and kit.stdout.startswith(str(site / "pbd" / "testing.py")), kit.stderr
    assert run("template", "cnc").stdout.startswith("Discarded cards")
    assert run("deck", "check", "forces-of-justice").returncode == 0
    assert "cnc" in run("games").stdout


def test_local_commands_do_not_import_the_google_client(tmp_path):
    doc = tmp_path / "m.txt"
    env = {**os.environ, "PBD_HOME": str(tmp_path / "home")}
    subprocess.run([sys.executable, "-m", "pbd", "new", "cnc", str(doc), "--as", "Ann", "--deck",
                    "forces-of-justice"], env=env, check=True, capture_output=True)
    probe = ("import sys\nfrom pbd.cli import main\nsys.argv = ['pbd'] + sys.argv[1:]\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print('GOOGLE', sorted(m for m in sys.modules if m.split('.')[0] in ('google', 'googleapiclient', "
             "'google_auth_oauthlib')))")
    for args in (["--help"], ["show", str(doc)], ["hand", str(doc), "--as", "Ann"], ["template", "cnc"]):
        out = subprocess.run([sys.executable, "-c", probe, *args], env=env, capture_output=True, text=True).stdout
        assert out.strip().splitlines()[-1] == "GOOGLE []", args
