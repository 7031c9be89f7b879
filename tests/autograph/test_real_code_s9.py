"""Converted code does what the original does: cases found by running PyPI packages' own test
suites against their ``autograph convert`` output (``python -m tests.roundtrip.pypi``).

Each case is the smallest form of a difference found (the package named) and failed
converted before its fix.
"""
import inspect
import traceback

import pytest

from autograph.impl.api import convert
from tests.autograph.helpers import assert_python_same
from tests.test_cli_real_code import convert as cli_convert, run, write_tree


# -- the traceback module lists the program's frames at the user's lines -----------------------

LINE_DIFF = 8  # from the extract_stack line in `trim_arity` to the call in `wrapper`


def trim_arity(func):
    # pyparsing's _trim_arity: calls a parse action with fewer and fewer arguments until it
    # takes them, and tells "wrong number of arguments" from a TypeError raised inside the
    # action by the file:line of the traceback's last frame. Converted, the lines were the
    # generated file's and the last frame an operator's: every parse action failed.
    here = traceback.extract_stack(limit=2)[-1]
    call_line = (here[0], here[1] + LINE_DIFF)
    limit = 0

    def wrapper(*args):
        nonlocal limit
        while 1:
            try:
                return func(*args[limit:])
            except TypeError as te:
                frames = traceback.extract_tb(te.__traceback__, limit=2)
                if frames[-1][:2] == call_line and limit < 3:
                    limit += 1
                    continue
                raise
    return wrapper


class Token:
    def __init__(self, t):
        self.t = t


def parse_actions():
    out = []
    for action in (lambda t: t, lambda: "none", Token, lambda s, l, t: (s, l, t)):
        r = trim_arity(action)(1, 2, 3)
        out.append(r.t if isinstance(r, Token) else r)
    try:
        trim_arity(lambda t: t + "x")(1, 2, 3)   # a TypeError of its own: raised as it is
    except TypeError as e:
        out.append(str(e))
    return out


def test_a_parse_action_arity_found_from_traceback_lines():
    assert assert_python_same(parse_actions) == [3, "none", 3, (1, 2, 3),
                                                 "unsupported operand type(s) for +: "
                                                 "'int' and 'str'"]


def summaries(frames):
    return [(f.filename, f.lineno, f.name, f.line) for f in frames]


def stack_in_branches(c, limit):
    if c:
        for i in range(2):
            if i:
                found = traceback.extract_stack(limit=limit)
    else:
        found = traceback.extract_stack(limit=limit)
    return summaries(found[-2:] if limit is None else found)


def tb_through_branches(c, limit):
    try:
        if c:
            for i in range(3):
                if i == 2:
                    raise ValueError(i)
        else:
            while c < 1:
                c = int("x")
    except ValueError as e:
        return summaries(traceback.extract_tb(e.__traceback__, limit=limit))


def raises_inside(x):
    if x:
        return {}[x]
    return x


def tb_of_a_call(c):
    try:
        if c:
            raises_inside(c)
    except KeyError as e:
        return summaries(traceback.extract_tb(e.__traceback__))


@pytest.mark.parametrize("c", [0, 1])
@pytest.mark.parametrize("limit", [None, 1, 2, -1])
def test_extract_stack_and_extract_tb_see_the_program_as_written(c, limit):
    assert_python_same(stack_in_branches, c, limit)
    assert_python_same(tb_through_branches, c, limit)
    assert_python_same(tb_of_a_call, c)


def formats(c):
    if c:
        stack = traceback.format_stack(limit=1)
    else:
        stack = []
    try:
        if c:
            raise KeyError(c)
    except KeyError as e:
        return stack, traceback.format_tb(e.__traceback__)


def test_format_stack_and_format_tb_see_the_program_as_written():
    assert_python_same(formats, 1)


# -- a converted module's source map holds while the module is imported -------------------------

IMPORT_TIME = {
    "early/__init__.py": '''\
        import traceback


        def where(c):
            """Runs while the module is imported, as pyparsing's _trim_arity does."""
            if c:
                return traceback.extract_stack(limit=1)[-1][1:3]
            return None


        AT_IMPORT = where(1)
        ''',
}


def test_functions_run_during_import_see_the_users_lines(tmp_path):
    src = write_tree(tmp_path / "src", IMPORT_TIME)
    cli_convert(src / "early", tmp_path / "out")
    assert "ag__.if_stmt" in (tmp_path / "out" / "early" / "__init__.py").read_text()
    driver = "import early; print(early.AT_IMPORT, early.where(1))"
    assert run(driver, tmp_path / "out") == run(driver, src) == "(7, 'where') (7, 'where')\n"


# -- inspect's frame lists, and callable objects with a static or class __call__ ---------------

class Element:
    def parseImpl(self, x):
        if x:
            for i in range(2):
                if i:
                    raise ValueError(x)
        return x


def explain(x):
    # pyparsing's ParseException.explain: names the parser elements of a traceback by the
    # `self` and code name of its frames (converted: the operators' and bodies' frames)
    try:
        Element().parseImpl(x)
    except ValueError as e:
        out = [(type(ff[0].f_locals.get("self")).__name__, ff[0].f_code.co_name, ff.lineno,
                ff.function, ff.code_context, ff.index)
               for ff in inspect.getinnerframes(e.__traceback__, context=3)]
        if x > 1:
            out.append([(f.function, f.lineno, f.code_context) for f in inspect.stack(2)[:2]])
            out.append([(f.function, f.lineno) for f in inspect.trace()])
        return out


@pytest.mark.parametrize("x", [1, 2])
def test_inspect_frame_lists_see_the_program_as_written(x):
    assert_python_same(explain, x)


class Static:
    @staticmethod
    def __call__(*args):
        return "static", args


class OfClass:
    @classmethod
    def __call__(cls, *args):
        return cls.__name__, args


def call_objects():
    # pyparsing's testVariableParseActionArgs: converted, a static __call__ got the instance
    return Static()(1), Static()(), OfClass()(2)


def test_a_static_or_class_call_method_gets_no_instance():
    assert assert_python_same(call_objects) == (("static", (1,)), ("static", ()),
                                                ("OfClass", (2,)))
