"""Documents mangled by hand never crash pbd: a clear error, a known exit code, the file untouched."""

from __future__ import annotations

import random
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import forget_documents

#: Any documented exit code is right for random input (which one depends on what the input breaks);
#: 70, a bug, never is.
KNOWN = {0, 1, 2, 3, 4, 5}


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    import os

    from pbd import match

    folder = tmp_path_factory.mktemp("mangle")
    os.environ["PBD_HOME"] = str(folder / "home")
    doc = folder / "m.txt"
    match.new("cnc", str(doc), "Ann", "forces-of-justice", "mangle-a")
    match.join(str(doc), "Ben", "forces-of-corruption", "mangle-b")
    match.move(str(doc), "Ann", "draw; end turn")
    return doc.read_text(), folder / "home"


def mangle(text: str, seed: int, edits: int) -> str:
    rng = random.Random(seed)
    lines = text.split("\n")
    for _ in range(edits):
        i = rng.randrange(len(lines))
        action = rng.choice(["drop", "dup", "swap", "chars", "digits", "blank"])
        if action == "drop" and len(lines) > 1:
            del lines[i]
        elif action == "dup":
            lines.insert(i, lines[i])
        elif action == "swap":
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif action == "chars" and lines[i]:
            k = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:k] + rng.choice("[]()=:·,+-#*x9 ") + lines[i][k + 1:]
        elif action == "digits":
            lines[i] = "".join(str(rng.randrange(10)) if c.isdigit() else c for c in lines[i])
        else:
            lines[i] = ""
    return "\n".join(lines)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**9), edits=st.integers(1, 4))
def test_mangled_documents_get_a_clear_answer(pbd, original, tmp_path, monkeypatch, seed, edits):
    text, home = original
    own = tmp_path / f"home-{seed}-{edits}"
    shutil.rmtree(own, ignore_errors=True)
    shutil.copytree(home, own)
    forget_documents(own)        # it names the original file: this mangled copy is the match here
    monkeypatch.setenv("PBD_HOME", str(own))
    doc = tmp_path / f"mangled-{seed}.txt"
    mangled = mangle(text, seed, edits)
    for args in (["check", doc], ["show", doc], ["move", doc, "--as", "Ben", "draw"], ["hand", doc, "--as", "Ben"]):
        doc.write_text(mangled)
        result = pbd(*args)
        assert result.exit_code in KNOWN, (args, result.output, mangled)
        assert "Traceback" not in result.output
        if result.exit_code:
            assert doc.read_text() == mangled
            assert result.output.startswith("pbd: ") or "Usage" in result.output
