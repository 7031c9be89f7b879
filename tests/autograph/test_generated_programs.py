"""Hypothesis writes small programs from the supported subset; converted == Python.

The grammar: three int variables, assignments, if/elif/else, bounded while
and for loops with break/continue/early return, and/or/not and conditional
expressions. Each program runs as Python, converted on Python values, and
converted + staged with its two arguments as tensors.
"""
import itertools
import linecache

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograph.impl.api import convert
from tests.staging import staged

VARS = ["a", "b", "c"]
_ids = itertools.count()


@st.composite
def atoms(draw, names):
    return draw(st.one_of(st.sampled_from(names), st.integers(-3, 5).map(str)))


@st.composite
def exprs(draw, names, depth=0):
    if depth >= 2 or draw(st.booleans()):
        return draw(atoms(names))
    op = draw(st.sampled_from(["+", "-", "*"]))
    left = draw(exprs(names, depth + 1))
    right = draw(atoms(names)) if op == "*" else draw(exprs(names, depth + 1))
    if op == "*":
        return f"({left} * {right}) % 7"
    return f"({left} {op} {right})"


@st.composite
def conds(draw, names, depth=0):
    kind = draw(st.sampled_from(["cmp", "cmp", "mod", "and", "or", "not", "ifexp"]
                                if depth < 1 else ["cmp", "mod"]))
    if kind == "cmp":
        op = draw(st.sampled_from(["<", ">", "<=", ">=", "==", "!="]))
        return f"{draw(exprs(names))} {op} {draw(exprs(names))}"
    if kind == "mod":
        return f"{draw(st.sampled_from(names))} % 2 == {draw(st.integers(0, 1))}"
    if kind == "not":
        return f"not ({draw(conds(names, depth + 1))})"
    if kind == "ifexp":
        return (f"({draw(exprs(names))} if {draw(conds(names, depth + 1))} "
                f"else {draw(exprs(names))}) > 1")
    return f"({draw(conds(names, depth + 1))}) {kind} ({draw(conds(names, depth + 1))})"


def indent(lines):
    return ["    " + line for line in lines]


@st.composite
def blocks(draw, names, depth, in_loop):
    out = []
    for _ in range(draw(st.integers(1, 3))):
        out += draw(statements(names, depth, in_loop))
    return out


@st.composite
def statements(draw, names, depth, in_loop):
    kinds = ["assign", "assign", "augassign"]
    if depth < 2:
        kinds += ["if", "if", "while", "for"]
    if in_loop:
        kinds += ["break", "continue"]
    kinds += ["return"]
    kind = draw(st.sampled_from(kinds))
    target = draw(st.sampled_from(VARS))
    if kind == "assign":
        return [f"{target} = {draw(exprs(names))}"]
    if kind == "augassign":
        return [f"{target} {draw(st.sampled_from(['+=', '-=']))} {draw(atoms(names))}"]
    if kind in ("break", "continue"):
        return [f"if {draw(conds(names))}:", f"    {kind}"]
    if kind == "return":
        return [f"if {draw(conds(names))}:", "    return (a, b, c)"]
    if kind == "if":
        lines = [f"if {draw(conds(names))}:"] + indent(draw(blocks(names, depth + 1, in_loop)))
        if draw(st.booleans()):
            lines += [f"elif {draw(conds(names))}:"] + indent(draw(blocks(names, depth + 1,
                                                                         in_loop)))
        if draw(st.booleans()):
            lines += ["else:"] + indent(draw(blocks(names, depth + 1, in_loop)))
        return lines
    counter = f"k{next(_ids)}"
    if kind == "while":
        bound = draw(st.sampled_from(["3", "n", "x % 4"]))
        body = draw(blocks(names, depth + 1, True))
        return [f"{counter} = 0", f"while {counter} < {bound}:", f"    {counter} += 1"] + \
            indent(body)
    bound = draw(st.sampled_from(["3", "n", "x % 3"]))
    body = draw(blocks(names + [counter], depth + 1, True))
    return [f"for {counter} in range({bound}):"] + indent(body)


@st.composite
def programs(draw):
    body = draw(blocks(["a", "b", "c", "x", "n"], 0, False))
    lines = ["def generated(x, n):", "    a, b, c = x, n, 1"] + indent(body) + \
        ["    return (a, b, c)"]
    return "\n".join(lines) + "\n"


def load(source: str):
    filename = f"<hypothesis program {next(_ids)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    ns = {}
    exec(compile(source, filename, "exec"), ns)
    return ns["generated"]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.integers(-3, 6), st.integers(0, 4))
def test_generated_program(source, x, n):
    fn = load(source)
    expected = fn(x, n)
    assert convert(fn)(x, n) == expected, source
    try:
        got = staged(convert(fn), np.int32(x), np.int32(n))
    except NotImplementedError as e:  # refused, as in TF: a Python loop breaking on a
        # tensor, or a return inside a staged loop
        assert any(m in str(e) for m in ("Python for loops", "started as non-Tensor",
                                          "return statement cannot be placed")), source
        return
    except ValueError as e:  # a staged `if` returning in one branch only (TF's ValueError),
        # or a staged loop whose body always returns and that ran zero times (TF's assert)
        assert any(m in str(e) for m in ("must also have a return statement",
                                          "loop must iterate at least once",
                                          "return value from a TensorFlow loop")), source
        return
    assert tuple(int(v) for v in got) == expected, source
