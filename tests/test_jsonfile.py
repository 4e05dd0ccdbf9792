"""pbd's own files are read and written by json's C codec directly: the same values and text as the json module."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbd import jsonfile

values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                      lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
                      max_leaves=30)


@settings(max_examples=150, deadline=None)
@given(values, st.sampled_from([None, 1, 2]))
def test_text_and_values_are_the_json_modules(value, indent):
    assert jsonfile.dumps(value) == json.dumps(value, separators=(",", ":"))
    written = json.dumps(value, indent=indent, ensure_ascii=indent == 2)
    assert jsonfile.loads(written) == json.loads(written)
    assert jsonfile.loads(f" \n{written}\t ") == value


def test_constants_read_as_floats_as_json_reads_them():
    assert jsonfile.loads('[NaN, Infinity, -Infinity]')[1:] == [math.inf, -math.inf]
    assert math.isnan(jsonfile.loads("NaN"))


@pytest.mark.parametrize("text", ["", "   ", "{", '{"a": 1} x', "[1,]", '"\x01"', "nul", '{"a" 1}', "[1 2]"])
def test_what_json_refuses_is_refused(text):
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        jsonfile.loads(text)


def test_what_json_cannot_say_is_a_type_error():
    with pytest.raises(TypeError, match="set is not JSON serializable"):
        jsonfile.dumps({"a": {1, 2}})
