"""Start-up costs that a command pays: what loading a module drags in (figures are in benchmarks/)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


#: a probe's first lines: what the interpreter loaded before pbd (a site-packages .pth file may load pathlib,
#: re and more into every Python process of a machine) is not what pbd loads
BEFORE = "import sys\nbefore = set(sys.modules)\n"


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_the_dealing_group_loads_no_importlib_metadata():
    """Loading the group (PyNaCl's libsodium) must not scan the installed packages' metadata."""
    got = _run("import sys\nfrom pbd.table import group, shuffle\nprint('importlib.metadata' in sys.modules)")
    assert got == "False"


def test_a_cnc_show_and_move_load_neither_openssl_pathlib_locale_nor_json(tmp_path):
    """pbd hashes with CPython's own SHA-256, builds paths with os.path, gives click its help texts, and
    reads and writes its own files with json's C codec (:mod:`pbd.jsonfile`).

    OpenSSL and pathlib would cost every command about 5 ms each, locale (for gettext), json and copy 0.3-2 ms.
    """
    import os

    doc, env = tmp_path / "m.txt", {**os.environ, "PBD_HOME": str(tmp_path / "home")}
    for who, extra in (("Ann", ["--deck", "forces-of-justice", "--seed", "a"]), ("Ben", [])):
        args = ["new", "cnc", str(doc), *extra] if who == "Ann" else ["join", str(doc), "--deck",
                                                                      "forces-of-corruption", "--seed", "b"]
        subprocess.run([sys.executable, "-m", "pbd", *args, "--as", who], env=env, check=True, capture_output=True)
    probe = (f"{BEFORE}from pbd.cli import main\nsys.argv = ['pbd'] + sys.argv[1:]\n"
             "try:\n    main()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
             "print('LOADED', sorted(m for m in set(sys.modules) - before if m in ('hashlib', '_hashlib', 'hmac', "
             "'pathlib', 'urllib.parse', 'locale', 'json', 'copy')))")
    subprocess.run([sys.executable, "-m", "pbd", "show", str(doc)], env=env, check=True, capture_output=True)
    for args in (["show", str(doc)], ["move", str(doc), "--as", "Ann", "draw"], ["show", str(doc)]):  # checked before
        out = subprocess.run([sys.executable, "-c", probe, *args], env=env, capture_output=True, text=True)
        assert "LOADED []" in out.stdout, (args, out.stdout, out.stderr[-500:])


@pytest.mark.parametrize("data", [b"", b"abc", bytes(range(256)) * 300])
def test_pbds_sha256_gives_hashlibs_digests(data):
    import hashlib

    from pbd.digest import hexdigest, sha256

    assert hexdigest(data) == hashlib.sha256(data).hexdigest()
    state = sha256(data[:7])
    twin = state.copy()
    state.update(data[7:])
    assert state.digest() == hashlib.sha256(data).digest() and twin.digest() == hashlib.sha256(data[:7]).digest()


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_a_private_state_file_is_named_as_urllib_parse_quote_named_it(name):
    """The name is percent-encoded without importing urllib.parse; an existing player's file keeps its name."""
    from urllib.parse import quote

    from pbd import private

    assert private._stem(name) == (quote(name.casefold(), safe="") or "_")


def test_showing_a_twin_tower_city_board_loads_no_gmp_openssl_or_pathlib(tmp_path):
    """Showing a board checked before does no arithmetic in the dealing group: GMP, OpenSSL and pathlib wait.

    Nor does it copy anything: ``copy`` (with its failed import of ``org.python.core``, about 1M instructions)
    is loaded only by a replay from the first entry.
    """
    doc, env = _ttc_match(tmp_path)
    probe = (f"{BEFORE}from pbd.cli import main\nsys.argv = ['pbd', 'show', sys.argv[1]]\n"
             "try:\n    main()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
             "print('LOADED', sorted(m for m in set(sys.modules) - before if m in ('gmpy2', 'hashlib', 'pathlib', "
             "'base64', 'importlib.util', 'dataclasses', 'copy')))")
    subprocess.run([sys.executable, "-m", "pbd", "show", str(doc)], env=env, check=True, capture_output=True)
    out = subprocess.run([sys.executable, "-c", probe, str(doc)], env=env, capture_output=True, text=True)
    assert "LOADED []" in out.stdout, (out.stdout, out.stderr[-500:])      # the first show checked the board


def test_a_command_line_builds_only_the_command_it_runs(tmp_path):
    """Building a click command costs about 0.2 ms; --help and a mistyped name still see every command."""
    import os

    probe = ("import sys\nfrom pbd.cli import cli, main\nsys.argv = ['pbd'] + sys.argv[1:]\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\nprint('BUILT', sorted(cli.commands))")
    env = {**os.environ, "PBD_HOME": str(tmp_path)}
    run = lambda *args: subprocess.run([sys.executable, "-c", probe, *args], env=env,  # noqa: E731
                                       capture_output=True, text=True)
    assert "BUILT ['auth', 'catalogue', 'deck', 'games']" in run("games").stdout
    listed = run("--help")
    assert "BUILT ['audit', 'auth', 'card', 'catalogue', 'check'," in listed.stdout and "  watch " in listed.stdout
    mistyped = run("movee")
    assert "No such command 'movee'. Did you mean 'move'?" in mistyped.stderr


def test_help_and_version_are_clicks_own_without_gettext():
    from click.testing import CliRunner

    from pbd import __version__
    from pbd.cli import cli

    runner = CliRunner()
    assert runner.invoke(cli, ["--version"], prog_name="pbd").output == f"pbd, version {__version__}\n"
    for args in (["-h"], ["--help"], ["move", "-h"], ["deck", "check", "--help"]):
        got = runner.invoke(cli, args, prog_name="pbd")
        assert got.exit_code == 0 and got.output.startswith(f"Usage: pbd {' '.join(args[:-1])}".rstrip() + " ")
        assert "  -h, --help  " in got.output and "Show this message and exit." in got.output
    wrong = runner.invoke(cli, ["move"], prog_name="pbd")
    assert wrong.exit_code == 2 and "Try 'pbd move --help' for help." in wrong.output


def test_the_pbd_script_leaves_without_teardown_but_with_its_output_exit_status_and_atexit(tmp_path):
    """The script skips the interpreter's teardown (os._exit): what must still happen, happens."""
    probe = ("import atexit, sys\natexit.register(lambda: print('atexit ran'))\n"
             "from pbd.__main__ import run\nsys.argv = ['pbd'] + sys.argv[1:]\nrun()\nprint('not reached')")
    run = lambda *args: subprocess.run([sys.executable, "-c", probe, *args], capture_output=True,  # noqa: E731
                                       text=True, env={**__import__("os").environ, "PBD_HOME": str(tmp_path)})
    from pbd import __version__

    version = run("--version")
    assert (version.returncode, version.stdout) == (0, f"pbd, version {__version__}\natexit ran\n")
    missing = run("show", str(tmp_path / "missing.txt"))
    assert missing.returncode == 5 and "no such document" in missing.stderr and missing.stdout == "atexit ran\n"
    listed = run("games")                       # more output than a line: all of it arrives
    assert listed.returncode == 0 and "cnc" in listed.stdout and listed.stdout.endswith("atexit ran\n")


def test_a_command_runs_with_the_collector_on_passing_over_young_objects_every_gc_young_allocations(tmp_path):
    """At CPython's 700, the collector walked what a command keeps (catalogue, board, log) over and over."""
    import os

    probe = ("import gc, sys\nfrom pbd.cli import GC_YOUNG, main\nsys.argv = ['pbd', 'games']\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print('GC', gc.isenabled(), gc.get_threshold()[0] == GC_YOUNG > 700)")
    out = subprocess.run([sys.executable, "-c", probe], env={**os.environ, "PBD_HOME": str(tmp_path)},
                         capture_output=True, text=True)
    assert "GC True True" in out.stdout, out.stderr[-500:]


def test_a_move_records_its_match_in_the_list_without_loading_pbd_status(pbd, match):
    """The list of matches is :mod:`pbd.matchlist`; ``pbd status`` (what waits, what changed) is not a move's business."""
    import os

    probe = ("import sys\nfrom pbd.cli import main\nsys.argv = ['pbd'] + sys.argv[1:]\n"
             "try:\n    main()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
             "print('LOADED', 'pbd.status' in sys.modules, 'pbd.matchlist' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe, "move", str(match), "--as", "Ann", "draw"],
                         env={**os.environ}, capture_output=True, text=True)
    assert "LOADED False True" in out.stdout, out.stderr[-500:]
    listed = pbd("status", ok=True)
    assert str(match) in listed.output or os.path.basename(str(match)) in listed.output


def _ttc_match(tmp_path):
    """Return a two-seat Twin Tower City document and the environment of its seats' pbd (set up once a run, copied)."""
    import os

    from conftest import copy_of_folder

    def build(folder):
        doc, env = folder / "t.txt", {**os.environ, "PBD_HOME": str(folder / "home")}
        for args in (["new", "ttc", str(doc), "--as", "Lia", "--deck", "sample", "--seed", "lia"],
                     ["join", str(doc), "--as", "Max", "--seed", "max"]):
            subprocess.run([sys.executable, "-m", "pbd", *args], env=env, check=True, capture_output=True)

    copy_of_folder(("startup ttc",), tmp_path, build)
    return tmp_path / "t.txt", {**os.environ, "PBD_HOME": str(tmp_path / "home")}


#: runs the pbd script's own run() and says at exit whether inspect was loaded (ast, dis come with it)
SCRIPT_PROBE = ("import atexit, sys\n"
                "atexit.register(lambda: print('INSPECT', type(sys.modules.get('inspect')).__name__, "
                "'dis' in sys.modules, 'ast' in sys.modules, 'GETTEXT', type(sys.modules.get('gettext')).__name__))\n"
                "from pbd.__main__ import run\nsys.argv = ['pbd'] + sys.argv[1:]\nrun()")


def test_the_script_leaves_inspect_and_gettext_unloaded_through_a_command_and_loads_them_for_help(tmp_path):
    """click imports inspect and gettext for help texts and its own messages: the script defers them
    (pbd.__main__), ``--help`` and a usage error still get them."""
    doc, env = _ttc_match(tmp_path)
    run = lambda *args: subprocess.run([sys.executable, "-c", SCRIPT_PROBE, *args], env=env,  # noqa: E731
                                       capture_output=True, text=True)
    for args in (["show", str(doc)], ["legal", str(doc), "--as", "Lia"], ["status", str(doc), "--as", "Max"],
                 ["hand", str(doc), "--as", "Lia"]):
        done = run(*args)
        assert done.returncode == 0, (args, done.stderr[-500:])
        assert done.stdout.endswith("INSPECT _Unloaded False False GETTEXT _Unloaded\n"), (args, done.stdout[-300:])
    listed = run("--help")
    assert listed.returncode == 0 and listed.stdout.startswith("Usage: pbd [OPTIONS] COMMAND [ARGS]...")
    assert "Play a card or board game on a shared match document." in listed.stdout and "  move " in listed.stdout
    assert listed.stdout.endswith("INSPECT module True True GETTEXT module\n")     # (click's headings)
    helped = run("move", "--help")
    assert helped.returncode == 0 and helped.stdout.startswith("Usage: pbd move [OPTIONS] DOC")
    assert "  --as NAME  " in helped.stdout and "Your player name (may be left out when this PBD_HOME holds" in \
        helped.stdout and helped.stdout.endswith("INSPECT module True True GETTEXT module\n")
    wrong = run("legal", str(doc), "--as")                  # click words it through gettext: loaded then
    assert wrong.returncode == 2 and "Option '--as' requires an argument." in wrong.stderr
    assert wrong.stdout.endswith("GETTEXT module\n")
    assert "No such command 'shwo'." in run("shwo").stderr


def test_a_deferred_functions_stand_in_loads_its_module_when_called_and_from_import_does_not():
    probe = ("import sys\nfrom pbd.__main__ import _defer\n_defer({'gettext': ('gettext', 'ngettext')})\n"
             "from gettext import gettext as _, ngettext\nimport gettext\n"
             "print(type(gettext).__name__, _.__name__, hasattr(gettext, '__path__'))\n"
             "print(_('a text'), ngettext('one', 'many', 2), type(gettext).__name__, gettext.gettext('b') == 'b')")
    assert _run(probe).splitlines() == ["_Unloaded gettext False", "a text many module True"]


def test_a_deferred_module_is_the_module_once_used_and_an_import_statement_does_not_load_it():
    probe = ("import sys\nfrom pbd.__main__ import _defer\n_defer({'inspect': (), 'pbd_no_such_module': ()})\n"
             "import inspect\n"
             "print(type(inspect).__name__, 'dis' in sys.modules, 'pbd_no_such_module' in sys.modules)\n"
             "from inspect import cleandoc\nprint(type(inspect).__name__, cleandoc('  a\\n    b') == 'a\\nb', "
             "inspect.isfunction(len), sys.modules['inspect'] is inspect)")
    assert _run(probe).splitlines() == ["_Unloaded False False", "module True False True"]


@pytest.mark.parametrize("text", ["One line.", "  Leading blanks.", "\tA tab\tinside.", "Trailing  ", "",
                                  "Two\n  lines", "  \n  Indented\n    more\n  "])
def test_an_options_help_is_cleaned_as_inspect_cleandoc_cleans_it(text):
    import inspect

    from pbd.cli import PbdOption, _cleandoc

    assert _cleandoc(text) == inspect.cleandoc(text)
    assert PbdOption(["--x"], help=text).help == (inspect.cleandoc(text) if text else text)


def test_the_script_leaves_uuid_and_datetime_unloaded_through_a_command(tmp_path):
    """click reads ``uuid.UUID`` and ``datetime.datetime`` as it loads (its parameter types' names): the script
    gives it stand-ins, so ``uuid`` (with ``platform``) and ``datetime`` load only when used."""
    doc, env = _ttc_match(tmp_path)
    probe = ("import atexit, sys\n"
             "atexit.register(lambda: print('UUID', type(sys.modules.get('uuid')).__name__, 'platform' in sys.modules,"
             " 'DATETIME', type(sys.modules.get('datetime')).__name__))\n"
             "from pbd.__main__ import run\nsys.argv = ['pbd'] + sys.argv[1:]\nrun()")
    for args in (["show", str(doc)], ["legal", str(doc), "--as", "Lia"], ["move", str(doc), "--as", "Lia", "flip"]):
        done = subprocess.run([sys.executable, "-c", probe, *args], env=env, capture_output=True, text=True)
        assert done.returncode == 0, (args, done.stderr[-500:])
        assert done.stdout.endswith("UUID _Unloaded False DATETIME _Unloaded\n"), (args, done.stdout[-300:])


def test_clicks_datetime_and_uuid_types_work_through_the_stand_ins_and_later_reads_get_the_real_classes():
    probe = ("import sys\nfrom pbd.__main__ import _defer, _STAND_INS, DEFERRED\n_defer(DEFERRED)\n"
             "import click, click.types\n"
             "print(type(sys.modules['uuid']).__name__, type(sys.modules['datetime']).__name__)\n"
             "_STAND_INS.clear()\n"
             "when = click.DateTime().convert('2026-11-29', None, None)\n"
             "key = click.UUID.convert('12345678-1234-5678-1234-567812345678', None, None)\n"
             "from datetime import datetime\nimport uuid\n"
             "print(type(when) is datetime, when.day, isinstance(when, click.types.datetime), "
             "click.DateTime().convert(when, None, None) is when)\n"
             "print(type(key) is uuid.UUID, click.UUID.convert(key, None, None) is key, "
             "click.types.datetime.strptime('2026', '%Y').year, datetime.__module__)\n"
             "from pbd.__main__ import _stand_in\nimport types\nlate = _stand_in(sys.modules['uuid'], 'UUID')\n"
             "print(hasattr(late, '__typing_subst__'), late('12345678123456781234567812345678') == key)")
    assert _run(probe).splitlines() == ["_Unloaded _Unloaded", "True 29 True True", "True True 2026 datetime",
                                        "False True"]


def test_the_script_loads_click_without_compiling_its_typeddicts_annotations_and_typing_checks_as_before():
    """click's ``TypedDict`` annotations stay strings (typing compiled each into a ForwardRef: ~12M instructions);
    typing's own check is back once click is loaded, and the hints still evaluate when asked."""
    probe = ("import sys, typing\nfrom pbd.__main__ import _load_click\ncheck = typing._type_check\n_load_click()\n"
             "import click.types as ct\n"
             "print(ct.ParamTypeInfoDict.__annotations__['param_type'], ct.OptionHelpExtra.__optional_keys__ >= "
             "{'envvars', 'default'}, typing._type_check is check)\n"
             "print(typing.get_type_hints(ct.ChoiceInfoDict)['case_sensitive'], "
             "type(typing.TypedDict('T', {'a': 'int'}).__annotations__['a']).__name__)")
    assert _run(probe).splitlines() == ["str True True", "<class 'bool'> ForwardRef"]
