"""The game registry: bundled games found without reading entry points, a third-party game through them."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

from pbd import games

ROOT = Path(__file__).resolve().parent.parent

PLUGIN = '''
from pbd.games.base import Game


class HighLow(Game):
    name = "highlow"
    title = "High Low"
    aliases = ("hilo",)
    summary = "a test game registered by another package"

    def sniff(self, text):
        return text.startswith("High Low")

    def template(self):
        return "High Low\\nnobody has drawn yet\\n"

    def parse(self, text):
        return text

    def render(self, state):
        return state

    def describe(self, state):
        return {"game": self.name}


GAME = HighLow()
'''


def test_bundled_games_agree_with_their_entry_points_and_their_game_objects():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["pbd.games"]
    for name, (module, title, aliases) in games.BUNDLED.items():
        assert declared[name] == f"{module}:GAME"
        game = games.get(name)
        assert (game.name, game.title, tuple(game.aliases)) == (name, title, tuple(aliases))
    shipped = {n for n, target in declared.items() if target.startswith("pbd.")}
    assert shipped == set(games.BUNDLED), "a game shipped with pbd is missing from pbd.games.BUNDLED"


def test_names_aliases_and_titles_find_the_bundled_game():
    assert games.get("C&C").name == "cnc"
    assert games.get(" Twin-Tower-City ").name == "ttc"
    assert games.by_title("C&C Trading Card Game").name == "cnc"
    assert games.by_title("twin tower city").name == "ttc"


def run(env, *args, code=None):
    cmd = [sys.executable, "-c", code] if code else [sys.executable, "-m", "pbd", *args]
    return subprocess.run(cmd if code is None else [*cmd, *args], env=env, capture_output=True, text=True)


def test_a_command_on_a_bundled_game_reads_no_entry_points_and_imports_only_its_game(tmp_path):
    doc = tmp_path / "m.txt"
    env = {**os.environ, "PBD_HOME": str(tmp_path / "home")}
    assert run(env, "new", "cnc", str(doc), "--as", "Ann", "--deck", "forces-of-justice").returncode == 0
    probe = textwrap.dedent("""
        import sys
        from pbd.cli import main
        sys.argv = ['pbd'] + sys.argv[1:]
        try:
            main()
        except SystemExit:
            pass
        print('LOADED', sorted(m for m in sys.modules if m in ('importlib.metadata', 'jinja2', 'tomllib',
                                                                'pbd.games.ttc', 'pbd.games.cnc')))
    """)
    for args, wanted in ((["show", str(doc)], ["pbd.games.cnc"]),
                         (["move", str(doc), "--as", "Ann", "end turn"], ["pbd.games.cnc"]),
                         (["template", "cnc"], ["jinja2", "pbd.games.cnc"])):
        out = run(env, *args, code=probe).stdout
        assert f"LOADED {wanted}" in out, (args, out)


def plugin_env(tmp_path) -> dict:
    """Return an environment where a package 'highlow' registers a game under the pbd.games entry points."""
    site = tmp_path / "site"
    (site / "highlow").mkdir(parents=True)
    (site / "highlow" / "__init__.py").write_text(PLUGIN)
    info = site / "highlow-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: highlow\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pbd.games]\nhighlow = highlow:GAME\n")
    path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, "PBD_HOME": str(tmp_path / "home")}


def test_a_third_party_game_is_listed_found_by_name_and_title_and_sniffed(tmp_path):
    env = plugin_env(tmp_path)
    listed = run(env, "games")
    assert listed.returncode == 0
    assert {"cnc", "ttc", "highlow"} <= {line.split()[0] for line in listed.stdout.splitlines()}
    template = run(env, "template", "hilo")
    assert template.returncode == 0 and template.stdout.startswith("High Low")
    board = tmp_path / "board.txt"
    board.write_text(template.stdout)
    assert run(env, "show", str(board)).stdout.startswith("High Low")            # sniffed: no title line
    titled = tmp_path / "titled.txt"
    titled.write_text("pbd match 0badc0de · High Low\n\nHigh Low\n")
    assert run(env, "show", str(titled), "--json").returncode == 0                # found by its title


def test_an_unknown_game_is_named_with_close_suggestions(tmp_path):
    out = run(plugin_env(tmp_path), "template", "highlo")
    assert out.returncode == 2 and "highlo" in out.stderr and "highlow" in out.stderr


BROKEN = '''
from pbd.games.base import Playable


class Half(Playable):
    name = "half"
    title = "Half a Game"

    def template(self):
        return "Half a Game\\n"
'''


def test_a_plugin_that_is_not_a_whole_game_is_named_with_what_it_lacks_never_exit_70(tmp_path):
    env = plugin_env(tmp_path)
    site = Path(env["PYTHONPATH"].split(os.pathsep)[0])
    (site / "half").mkdir()
    (site / "half" / "__init__.py").write_text(BROKEN + "\nGAME = Half()\n")
    info = site / "half-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: half\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pbd.games]\nhalf = half:GAME\nboom = half:NOPE\n")
    listed = run(env, "games")
    assert listed.returncode == 0 and "highlow" in listed.stdout
    assert "half" in listed.stdout and "does not define parse, render, create" in listed.stdout
    out = run(env, "new", "half", str(tmp_path / "m.txt"), "--as", "Ann")
    assert out.returncode == 2 and "is not a complete pbd game" in out.stderr and "Traceback" not in out.stderr
    out = run(env, "template", "boom")
    assert out.returncode == 2 and "cannot be loaded" in out.stderr and "Traceback" not in out.stderr
