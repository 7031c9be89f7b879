"""The fast ast<->gast converters agree with gast's own on real code."""
import ast
import glob
import os

import gast
import pytest

from autograph.converter import gast_convert

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FILES = sorted(glob.glob(os.path.join(ROOT, "autograph", "**", "*.py"), recursive=True)
               + glob.glob(os.path.join(ROOT, "tests", "autograph", "*.py")))

EXTRA = '''
async def f(a: int, /, b=1, *args, c, d: str = "x", **kw) -> None:
    async with x as (y, z):
        pass
    async for i in y:
        yield i
    try:
        pass
    except (ValueError, TypeError) as e:
        raise
    finally:
        del a
    x = [i for i in range(3) if i]; y = {k: v for k, v in z}; w = lambda q=1, *r: q
    print(f"{x!r:>10} {y}", *args, **kw)
    global g
    match x:
        case [1, 2, *rest]: pass
        case {"a": 1}: pass
        case Point(x=0) | None: pass
    return (yield from z)
'''


def _sources():
    for path in FILES:
        with open(path) as f:
            yield os.path.basename(path), f.read()
    yield "extra", EXTRA


@pytest.mark.parametrize("name,source", list(_sources()), ids=lambda v: v if len(v) < 40 else "")
def test_same_as_gast(name, source):
    tree = ast.parse(source)
    ours = gast_convert.ast_to_gast(tree)
    theirs = gast.ast_to_gast(ast.parse(source))
    assert gast.dump(ours, include_attributes=True) == gast.dump(theirs, include_attributes=True)
    back = gast_convert.gast_to_ast(ours)
    assert ast.dump(back, include_attributes=True) == \
        ast.dump(gast.gast_to_ast(theirs), include_attributes=True)
    assert ast.unparse(back) == ast.unparse(tree)


@pytest.mark.parametrize("name,source", list(_sources()), ids=lambda v: v if len(v) < 40 else "")
def test_unparse_from_gast_same_as_stdlib(name, source):
    from autograph.converter.unparse import unparse
    tree = ast.parse(source)
    assert unparse(gast_convert.ast_to_gast(tree)) == ast.unparse(tree)
