"""The converter's fast paths agree with their slow, obvious references.

Compiled templates build what clone-and-substitute builds; the source map
read off the unparser equals the one found by re-parsing the generated text
and pairing statements; conversion stays fast (a loose bound here, the real
target is in benchmarks/bench_conversion.py).
"""
import ast
import textwrap
import time

import gast
import pytest

from autograph.converter import conversion, loader, templates
from autograph.converter.unparse import unparse, unparse_with_lines
from tests.autograph import guide_examples
from tests.autograph.programs import PROGRAMS


def _dump(nodes) -> str:
    return "\n".join(gast.dump(n) for n in nodes)


def _stmt(src: str):
    return gast.parse(src).body[0]


@pytest.mark.parametrize("template, replacements", [
    ("ag__.while_stmt(test, body, get_state, set_state, names)",
     dict(test=lambda: _stmt("x < 3").value, body="loop_body", get_state="g", set_state="s",
          names=lambda: gast.Tuple(elts=[gast.Constant(value="x", kind=None)],
                                   ctx=gast.Load()))),
    ("def f():\n    decls\n    body",
     dict(f="loop_body", decls=lambda: [gast.Nonlocal(names=["a", "b"])],
          body=lambda: [_stmt("a = 1"), _stmt("b += a")])),
    ("def f():\n    decls\n    body", dict(f="g", decls=lambda: [], body=lambda: _stmt("pass"))),
    ("def set_state(vars_):\n    nonlocal x\n    targets = vars_",
     dict(set_state="s", x=["a", "b"], targets=lambda: gast.Tuple(
         elts=[gast.Name(id="a", ctx=gast.Load(), annotation=None, type_comment=None)],
         ctx=gast.Load()))),
    ("def set_state(vars_):\n    nonlocal x\n    pass", dict(set_state="s", x=[])),
    ("name = ag__.Undefined(label)", dict(name="y", label=lambda: gast.Constant(value="y",
                                                                              kind=None))),
    ("ag__.if_exp(test, lambda: body, lambda: orelse)",
     dict(test=lambda: _stmt("c").value, body=lambda: _stmt("a + 1").value,
          orelse=lambda: _stmt("f(b)").value)),
    ("not flag and test", dict(flag="break_", test=lambda: _stmt("i < n").value)),
])
def test_compiled_templates_build_what_substitution_builds(template, replacements):
    def fresh():  # replacement nodes are inserted as they are: give each build its own
        return {k: (v() if callable(v) else v) for k, v in replacements.items()}
    got = templates.replace(template, **fresh())
    want = templates.replace_reference(template, **fresh())
    assert _dump(got) == _dump(want)
    # every build is a fresh tree: changing one does not change the next
    got[0].__dict__["marker"] = 1
    assert "marker" not in templates.replace(template, **fresh())[0].__dict__


def _reparse_map(converted) -> dict:
    """The reference: parse the generated text and pair its statements with the tree's."""
    body = textwrap.indent(converted.code(), "    ")
    parsed = ast.parse("def create_converted_entity(ag__):\n" + body).body[0].body[0]
    before = [n for n in gast.walk(converted.tree) if isinstance(n, gast.stmt)]
    after = [n for n in ast.walk(parsed) if isinstance(n, ast.stmt)]
    out = {}
    for b, a in zip(before, after):
        assert type(b).__name__ == type(a).__name__
        line = getattr(b, "lineno", None)
        if line is not None and a.lineno not in out:
            out[a.lineno] = converted.source.file_line(line)
    return out


def _shapes(x, items):
    """A docstring
    over several lines."""
    import functools

    @functools.lru_cache()
    def helper(v):
        return v * 2

    class Box:
        value = 1
    try:
        with open(__file__) as f:
            first = f.readline()
    except (OSError, ValueError) as e:
        first = str(e)
    finally:
        items = list(items)
    if x > 3:
        y = 1
    elif x > 2:
        y = helper(x)
    elif x > 1:
        for i in items:
            if i:
                break
        else:
            y = 3
        y = 2
    else:
        y = Box.value
    while x > 0:
        x -= 1
        if x == 5:
            continue
    return y, first, f"{x!r:>3}"


FUNCTIONS = [_shapes] + [fn for fn, _, _ in PROGRAMS] + [
    getattr(guide_examples, n) for n in dir(guide_examples)
    if callable(getattr(guide_examples, n)) and getattr(getattr(guide_examples, n),
                                                         "__module__", "") == guide_examples.__name__
    and hasattr(getattr(guide_examples, n), "__code__")]


def test_source_map_from_the_unparser_equals_reparsing():
    checked = 0
    for fn in FUNCTIONS:
        try:
            converted = conversion.convert_function(fn)
        except Exception:  # noqa: BLE001  (functions that are conversion-error examples)
            continue
        text, lines = unparse_with_lines(converted.tree)
        assert text == unparse(converted.tree)
        got = {line: origin.line for line, origin in
               loader.source_map(converted, lines, 1).items()}
        assert got == _reparse_map(converted), fn.__name__
        checked += 1
    assert checked > 50
