"""``python -m tests.roundtrip.pypi`` (the by-hand round trip of a package's source tree and its
own pytest suite) on a small package made here: nothing is downloaded."""
from __future__ import annotations

import sys
import textwrap

from tests.roundtrip import pypi

PACKAGE = '''
def spec(text):
    fill = align = None
    if text[:1] in "<>^":
        align = text[0]
        text = text[1:]
    width = ""
    while text and text[0].isdigit():
        width += text[0]
        text = text[1:]
    return locals()
'''

TESTS = '''
from tinypkg import spec


def test_align():
    assert spec("<12") == {"text": "", "fill": None, "align": "<", "width": "12"}


def test_expected_failure():
    assert spec("") == {}
'''


def test_a_package_round_trip_compares_every_test(tmp_path):
    source = tmp_path / "tinypkg-1.0"
    (source / "src" / "tinypkg").mkdir(parents=True)
    (source / "src" / "tinypkg" / "__init__.py").write_text(textwrap.dedent(PACKAGE))
    (source / "tests").mkdir()
    (source / "tests" / "test_spec.py").write_text(textwrap.dedent(TESTS))
    rt = pypi.round_trip(source, ["src/tinypkg"], tmp_path / "work", path="src",
                         python=sys.executable, args=["tests"], timeout=120)
    assert "# Converted by `autograph convert`" in (
        tmp_path / "work" / "converted" / "src" / "tinypkg" / "__init__.py").read_text()
    assert rt.baseline.outcomes == {"tests.test_spec::test_align": "pass",
                                    "tests.test_spec::test_expected_failure": "fail"}
    assert rt.same, rt.report()
