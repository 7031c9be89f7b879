"""``autograph convert`` on code as people write it (issue "The converter on real code").

A converted module must be a drop-in for the original: the same names
(``vars``, ``dir``, ``from m import *``, ``__all__``), the same docstrings
(doctests keep working), output that compiles (a converter bug is an error,
never a broken file), generators and decorators left alone where they cannot
be staged, and — with ``--wrap-all`` — a module that still imports wherever
the original imports.

Each test runs the original and the converted copy in fresh interpreters
and compares what they print.
"""
from __future__ import annotations

import ast
import os
import pathlib
import subprocess
import sys
import textwrap

import gast
import pytest

from autograph import cli
from autograph.converter import module_source


def autograph(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "autograph", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def write_tree(root: pathlib.Path, files: dict[str, str]) -> pathlib.Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def run(script: str, path, *argv) -> str:
    """Runs ``script`` with ``path`` first on sys.path; its stdout (it must succeed)."""
    env = dict(os.environ, PYTHONPATH=str(path))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script), *map(str, argv)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def convert(src, out, *flags):
    done = autograph("convert", src, "-o", out, *flags)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


# -- 1. the converted module binds exactly the original's names --------------------------------

NAMES = {
    "names/with_all.py": '''\
        """A module with __all__."""
        import autograph as tf

        __all__ = ["scale", "Model"]
        LIMIT = 3


        def _two():
            return 2


        def scale(x, k=_two(), *, bias: int = int("0")) -> "int":
            # defaults and annotations run at import, in the module: left as written
            if x > 0:
                return x * k + bias
            return -x


        def _private(x):
            while x > LIMIT:
                x -= 1
            return x


        class Model(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = 2.0

            def __call__(self, x):
                return x * self.w if x > 0 else x
        ''',
    "names/no_all.py": '''\
        import autograph as tf
        from names.with_all import scale


        def helper(n):
            total = 0
            for i in range(n):
                total += scale(i)
            return total


        class Box:
            def grow(self, x):
                while x < 10:
                    x = x * 2
                return x
        ''',
    "names/dyn_all.py": '''\
        def clamp(x, top):
            return top if x > top else x


        __all__ = [n for n in globals() if not n.startswith("_")]   # computed while it runs
        ''',
}

NAMES_DRIVER = '''
import importlib, sys
for name in ["names.with_all", "names.no_all", "names.dyn_all"]:
    m = importlib.import_module(name)
    star = {}
    exec(f"from {name} import *", star)
    star.pop("__builtins__")
    print(name, sorted(vars(m)))
    print(name, [n for n in dir(m) if not n.startswith("_")], getattr(m, "__all__", None))
    print(name, sorted(star))
'''


@pytest.mark.parametrize("flags", [[], ["--wrap-all"]], ids=["default", "wrap-all"])
def test_converted_module_binds_exactly_the_original_names(tmp_path, flags):
    src = write_tree(tmp_path / "src", NAMES)
    convert(src / "names", tmp_path / "out", *flags)
    text = (tmp_path / "out" / "names" / "with_all.py").read_text()
    assert "ag__.if_stmt" in text   # converted, yet ...
    original = run(NAMES_DRIVER, src)
    assert "'scale'" in original and "'helper'" in original
    assert run(NAMES_DRIVER, tmp_path / "out") == original   # ... the same names everywhere
    behaviour = """
        from names.with_all import scale, _private, Model
        from names.no_all import helper, Box
        print(int(scale(3)), int(scale(-3)), int(_private(7)), float(Model()(2.0)))
        print(int(helper(4)), int(Box().grow(3)))
    """
    assert run(behaviour, tmp_path / "out") == run(behaviour, src) == "6 3 3 4.0\n12 12\n"


# -- 2. docstrings stay first: __doc__ and doctests unchanged ------------------------------------

DOCS = '''\
    #!/usr/bin/env python
    """Docstrings survive conversion.

    >>> first_positive([-1, 0, 4, 5])
    4
    """
    import autograph as tf


    def first_positive(xs):
        """The first positive item of xs, or 0.

        >>> first_positive([-2, 7])
        7
        >>> first_positive([-2])
        0
        """
        for x in xs:
            if x > 0:
                return x
        return 0


    def count_down(n):
        """Counts n down to 0 (a while loop)."""
        while n > 0:
            n -= 1
        return n


    def outer(n):
        """Outer's docstring."""
        def inner(m):
            """Inner's docstring."""
            for i in range(m):
                if i > 1:
                    return i
            return -1
        return inner.__doc__, inner(n)


    class Stack:
        """A class docstring."""

        def pop_or(self, default):
            """Pops, or returns default.

            >>> Stack().pop_or(3)
            3
            """
            try:
                return self.items.pop()
            except AttributeError:
                return default
    '''

DOCS_DRIVER = '''
import doctest
import docs
print(repr(docs.__doc__))
for f in [docs.first_positive, docs.count_down, docs.outer, docs.Stack, docs.Stack.pop_or]:
    print(f.__name__, repr(f.__doc__))
print(docs.outer(3)[0])
print(doctest.testmod(docs))
'''


def test_module_and_function_docstrings_and_doctests_survive_conversion(tmp_path):
    src = write_tree(tmp_path / "src", {"docs.py": DOCS})
    convert(src / "docs.py", tmp_path / "out")
    original = run(DOCS_DRIVER, src)
    assert "Inner's docstring." in original
    assert original.endswith("TestResults(failed=0, attempted=4)\n")
    assert run(DOCS_DRIVER, tmp_path / "out") == original
    # In the text too: each converted def (and the module) starts with its docstring.
    text = (tmp_path / "out" / "docs.py").read_text()
    assert "ag__.for_stmt" in text
    converted, plain = ast.parse(text), ast.parse(textwrap.dedent(DOCS))
    docs = lambda tree: [(getattr(n, "name", "<module>"), ast.get_docstring(n, clean=False))
                         for n in ast.walk(tree) if isinstance(
                             n, (ast.Module, ast.FunctionDef, ast.ClassDef))
                         and ast.get_docstring(n) is not None]
    assert docs(converted) == docs(plain) and len(docs(plain)) == 7


def test_docstrings_of_wrapped_functions(tmp_path):
    src = write_tree(tmp_path / "src", {"docs.py": DOCS})
    convert(src / "docs.py", tmp_path / "out", "--wrap-all")
    script = """
        import docs
        for f in [docs.first_positive, docs.count_down, docs.Stack.pop_or]:
            print(type(f).__name__, repr(f.__doc__))
    """
    plain = run(script, src)
    wrapped = run(script, tmp_path / "out")
    assert plain.count("function ") == 3 and wrapped.count("Function ") == 3
    assert wrapped.replace("Function ", "function ") == plain


# -- 3. every file is compiled: a converter bug is an error, never a broken file -----------------

BROKEN_SRC = '''\
    """Two functions; the converter is made to break the second."""


    def fine(x):
        while x > 1:
            x = x - 1
        return x


    def victim(x):
        if x > 0:
            x = -x
        return x
    '''


def _break_victim(append):
    real = module_source.convert_definition

    def convert_definition(node, *args, **kwargs):
        converted = real(node, *args, **kwargs)
        if node.name == "victim":
            append(converted.tree)
        return converted

    return convert_definition


def _break_outside_loop(tree):
    stmt = gast.Break()
    stmt.lineno, stmt.col_offset = tree.body[-1].lineno, 4
    stmt.end_lineno, stmt.end_col_offset = stmt.lineno, 9
    tree.body.append(stmt)   # parses, but does not compile: 'break' outside loop


@pytest.mark.parametrize("check", [False, True], ids=["write", "check"])
def test_output_that_does_not_compile_fails_naming_the_function(tmp_path, monkeypatch, capsys,
                                                                check):
    src = tmp_path / "broken.py"
    src.write_text(textwrap.dedent(BROKEN_SRC))
    monkeypatch.setattr(module_source, "convert_definition", _break_victim(_break_outside_loop))
    out = tmp_path / "out"
    status = cli.main(["convert", str(src), "--check"] if check
                      else ["convert", str(src), "-o", str(out)])
    captured = capsys.readouterr()
    assert status == 1
    text = captured.out + captured.err
    assert f"{src}:10: victim: the converted code does not compile ('break' outside loop" in text
    assert "please report this" in text and "wrote" not in text
    assert not out.exists()


def test_a_converter_crash_fails_naming_the_function(tmp_path, monkeypatch, capsys):
    src = tmp_path / "broken.py"
    src.write_text(textwrap.dedent(BROKEN_SRC))

    def crash(tree):
        raise RuntimeError("boom")

    monkeypatch.setattr(module_source, "convert_definition", _break_victim(crash))
    out = tmp_path / "out"
    status = cli.main(["convert", str(src), "-o", str(out)])
    captured = capsys.readouterr()
    assert status == 1
    assert f"{src}:10: victim: the converter failed (RuntimeError: boom); please report this" \
        in captured.err
    assert "wrote" not in captured.out + captured.err
    assert "1 file could not be converted; nothing written" in captured.out
    assert not out.exists()


def test_a_module_that_parses_but_does_not_compile_is_reported(tmp_path):
    src = tmp_path / "bad.py"
    src.write_text("def f(x):\n    return x\n\nbreak\n")
    done = autograph("convert", src, "-o", tmp_path / "out")
    assert done.returncode == 1
    assert f"{src}:4: cannot compile: 'break' outside loop" in done.stderr
    assert not (tmp_path / "out").exists()


# -- 4. what cannot be staged stays as it is ---------------------------------------------------

UNSTAGED = '''\
    """Generators, async functions and decorator factories, used by converted code."""
    import asyncio
    import functools


    def countdown(n):
        """A generator."""
        while n > 0:
            yield n
            n -= 1


    async def later(x):
        await asyncio.sleep(0)
        if x > 0:
            return x * 2
        return 0


    def repeat(times):
        def decorate(fn):
            @functools.wraps(fn)
            def wrapper(*args):
                result = None
                for _ in range(times):
                    result = fn(*args)
                return result
            return wrapper
        return decorate


    @repeat(3)
    def bump(items):
        items.append(len(items))
        return items


    def total(n):
        result = 0
        for v in countdown(n):
            if v % 2:
                result += v
        return result
    '''

UNSTAGED_DRIVER = '''
import asyncio, inspect
import autograph as tf
import unstaged as m
print(list(m.countdown(4)), inspect.isgeneratorfunction(m.countdown))
print(asyncio.run(m.later(5)), inspect.iscoroutinefunction(m.later))
print(m.bump([]), m.bump.__name__, m.total(5))
print(tf.function(m.total)(5))
'''


@pytest.mark.parametrize("flags", [["--no-wrap"], []], ids=["no-wrap", "default"])
def test_generators_async_functions_and_decorator_factories_stay_as_they_are(tmp_path, flags):
    src = write_tree(tmp_path / "src", {"unstaged.py": UNSTAGED})
    original_text = (src / "unstaged.py").read_text()
    check = autograph("convert", src / "unstaged.py", "--check", *flags)
    assert check.returncode == 0, check.stdout      # nothing would change behaviour
    assert check.stdout == "checked 1 file: 3 functions converted, 2 left as they were\n"
    done = convert(src / "unstaged.py", tmp_path / "out", *flags)
    assert "cannot convert" not in done.stdout and done.stderr == ""
    assert "unstaged.py:6: countdown: a generator function: it stays plain Python" in done.stdout
    assert "unstaged.py:13: later: an async function: it stays plain Python" in done.stdout
    text = (tmp_path / "out" / "unstaged.py").read_text()
    for name in ("def countdown", "async def later"):   # byte for byte
        start = original_text.index(name)
        chunk = original_text[start:original_text.index("\n\n\n", start)]
        assert chunk in text
    assert "@_agm__.converted\ndef repeat(times):" in text and "@_agm__.function" not in text
    original = run(UNSTAGED_DRIVER, src)
    assert original.splitlines()[2] == "[0, 1, 2] bump 9"
    assert run(UNSTAGED_DRIVER, tmp_path / "out") == original


# -- 5. --wrap-all: the module still imports wherever the original imports ----------------------

WRAPPED = {
    "app/__init__.py": "",
    "app/sizes.py": '''\
        def size_of(n):
            if n > 3:
                return n * 2
            return n
        ''',
    "app/real.py": '''\
        import functools

        import autograph as tf
        from app.sizes import size_of

        REGISTRY = {}


        def register(fn):
            REGISTRY[fn.__name__] = fn
            return fn


        def repeat(times):
            def decorate(fn):
                @functools.wraps(fn)
                def wrapper(*args):
                    result = None
                    for _ in range(times):
                        result = fn(*args)
                    return result
                return wrapper
            return decorate


        def make_scaler(k):
            return lambda x: x * k


        def countdown(n):
            while n > 0:
                yield n
                n -= 1


        def square(x):
            return x * x


        class Table:
            WIDTH = size_of(5)                  # another module's function, at import time
            CELLS = [0] * WIDTH
            NAMES = list(countdown(3))

            def _pad(n):                        # a plain function of the class body
                while n % 4:
                    n += 1
                return n

            PADDED = _pad(WIDTH)

            def __init__(self, scale=2.0):
                self.scale = scale

            def rescaled(self, scale):
                self.scale = scale
                return self

            def apply(self, x):
                if x > 0:
                    return x * self.scale
                return -x


        @register
        @repeat(2)
        def double(x):
            if x > 0:
                x = x * 2
            return x


        DEFAULT = Table(3.0)
        TRIPLE = make_scaler(3)
        ''',
}

WRAPPED_DRIVER = '''
import sys
import autograph as tf
from app import real
t = real.Table()
print(real.Table.WIDTH, len(real.Table.CELLS), real.Table.NAMES, real.Table.PADDED)
print(sorted(real.REGISTRY), real.TRIPLE(2), list(real.countdown(2)), real.DEFAULT.scale)
print(t.rescaled(5.0) is t, float(real.double(3)), float(real.square(3)))
print(float(real.Table.apply(self=t, x=4.0)), float(real.Table.apply(t, x=-2.0)))
if sys.argv[1] == "wrapped":
    assert isinstance(real.square, tf.Function)
    assert isinstance(real.Table.__dict__["apply"], tf.Function)
    assert real.square(tf.constant(3)).numpy() == 9
    assert not isinstance(real.size_of, tf.Function) if hasattr(real, "size_of") else True
'''


def test_wrap_all_keeps_the_module_importable(tmp_path):
    src = write_tree(tmp_path / "src", WRAPPED)
    done = convert(src / "app", tmp_path / "out", "--wrap-all")
    lines = done.stdout.splitlines()
    assert lines[0] == ("converted 3 files: 10 functions converted (3 wrapped in tf.function), "
                        "1 left as it was")
    for expected in ["register: not wrapped in tf.function: used as a decorator",
                     "repeat: not wrapped in tf.function: used as a decorator",
                     "size_of: not wrapped in tf.function: may run while the module is imported",
                     "make_scaler: not wrapped in tf.function: may run while the module is "
                     "imported",
                     "countdown: a generator function: it stays plain Python",
                     "Table._pad: not wrapped in tf.function: may run while the module is "
                     "imported",
                     "Table.rescaled: not wrapped in tf.function: returns self"]:
        assert any(line.endswith(expected) for line in lines), expected
    original = run(WRAPPED_DRIVER, src, "original")
    assert original.splitlines()[0] == "10 10 [3, 2, 1] 12"
    assert run(WRAPPED_DRIVER, tmp_path / "out", "wrapped") == original


def test_a_wrapped_method_called_with_self_by_keyword(tmp_path):
    src = write_tree(tmp_path / "src", {"meth.py": '''\
        class Scaler:
            def __init__(self, k):
                self.k = k

            def apply(self, x):
                if x > 0:
                    return x * self.k
                return -x
        '''})
    convert(src / "meth.py", tmp_path / "out", "--wrap-all")
    script = """
        import autograph as tf
        import meth
        s = meth.Scaler(3)
        assert isinstance(meth.Scaler.__dict__["apply"], tf.Function)
        print(meth.Scaler.apply(self=s, x=tf.constant(2)).numpy(),
              meth.Scaler.apply(s, x=tf.constant(-2)).numpy(), s.apply(x=tf.constant(4)).numpy())
        concrete = meth.Scaler.apply.get_concrete_function(self=s, x=tf.TensorSpec([], tf.int32))
        print(concrete(tf.constant(5)).numpy())
    """
    assert run(script, tmp_path / "out") == "6 2 12\n15\n"


def test_functions_defined_in_a_try_s_handlers_and_else_convert_in_file_order(tmp_path):
    """posixpath defines normpath in `except ImportError:` and again in `else:`; the else one
    was visited first and the edits overlapped: output that did not compile."""
    src = write_tree(tmp_path / "src", {"twice.py": '''\
        try:
            from no_such_module import fast
        except ImportError:
            def fast(x):
                while x > 3:
                    x -= 3
                return x
        else:
            def fast(x):
                return x % 3
        finally:
            def after(x):
                return fast(x) if x else -1
        '''})
    convert(src / "twice.py", tmp_path / "out", "--no-wrap")
    assert run("import twice; print(twice.fast(7), twice.after(0))", tmp_path / "out") == "1 -1\n"
