"""The ``autograph`` command line, driven as a user drives it: subprocesses of the venv python.

The heart of it: convert examples/userpkg into a temp dir, import the output
in a fresh interpreter, and check that it gives the same results as the
original package (by default) and traces the same way as the original with its
functions decorated with ``tf.function`` (``--wrap-all``).
``test_cli_real_code.py`` holds what real modules need: the same names, docstrings,
compiled output, generators and decorators left alone, import-time code.
"""
from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
USERPKG = EXAMPLES / "userpkg"


def autograph(*args, cwd=ROOT, env=None):
    return subprocess.run([sys.executable, "-m", "autograph", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, env=env, timeout=120)


def one_line_usage_error(done, *fragments):
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    """examples/userpkg converted with --wrap-all: every function a tf.function."""
    out = tmp_path_factory.mktemp("converted")
    done = autograph("convert", USERPKG, "-o", out, "--wrap-all")
    assert done.returncode == 0, done.stderr
    return out, done


@pytest.fixture(scope="module")
def converted_in_place(tmp_path_factory):
    """examples/userpkg converted by default: nothing wrapped but what was a tf.function."""
    out = tmp_path_factory.mktemp("in_place")
    done = autograph("convert", USERPKG, "-o", out)
    assert done.returncode == 0, done.stderr
    return out, done


# -- the program -----------------------------------------------------------------------------------

def test_version_and_python_dash_m_are_the_same_program():
    from graph import __version__
    done = autograph("--version")
    assert done.returncode == 0 and done.stdout == f"autograph {__version__}\n"
    script = pathlib.Path(sys.executable).with_name("autograph")
    if script.exists():
        direct = subprocess.run([str(script), "--version"], capture_output=True, text=True)
        assert direct.stdout == done.stdout


def test_help_shows_examples_and_no_command_is_a_usage_error():
    done = autograph("--help")
    assert done.returncode == 0
    assert "examples:" in done.stdout and "autograph convert" in done.stdout
    for command in ("show", "convert", "graph"):
        sub = autograph(command, "--help")
        assert sub.returncode == 0 and "examples:" in sub.stdout
    bare = autograph()
    assert bare.returncode == 2 and "COMMAND" in bare.stderr


def test_unknown_option_is_one_line_on_stderr():
    one_line_usage_error(autograph("convert", USERPKG, "--bogus"), "unrecognized arguments")
    one_line_usage_error(autograph("graph", "x.py:f", "--format", "png"), "invalid choice")


# -- convert ----------------------------------------------------------------------------------------

DRIVER = textwrap.dedent('''
    import sys
    import autograph as tf
    import userpkg
    from userpkg import core

    if sys.argv[1] == "original":   # the original, every function decorated with tf.function
        for name in ["squash", "collatz_steps", "sum_multiples", "first_multiple"]:
            setattr(core, name, tf.function(getattr(core, name)))
        core.Accumulator.add = tf.function(core.Accumulator.add)
        userpkg.helpers.clip_to = tf.function(userpkg.helpers.clip_to)
        core.clip_to = userpkg.helpers.clip_to
    elif sys.argv[1] == "wrapped":   # converted with --wrap-all: the copy must be that already
        assert "converted by `autograph convert`" in open(core.__file__).read().lower()
        for fn in [core.squash, core.collatz_steps, core.sum_multiples, core.first_multiple,
                   core.normalize, core.Accumulator.__dict__["add"], userpkg.helpers.clip_to]:
            assert isinstance(fn, tf.Function), fn
    elif sys.argv[1] == "in place":  # converted by default: only normalize was a tf.function
        assert "converted by `autograph convert`" in open(core.__file__).read().lower()
        assert isinstance(core.normalize, tf.Function)
        for fn in [core.squash, core.collatz_steps, core.sum_multiples, core.first_multiple,
                   core.Accumulator.add, userpkg.helpers.clip_to]:
            assert not isinstance(fn, tf.Function) and fn.__ag_converted__, fn

    def traces(fn):
        return fn.experimental_get_tracing_count() if isinstance(fn, tf.Function) else "-"

    def show(label, value):
        print(label, repr(value))

    show("squash", core.squash(tf.constant([1.0, 2.0, 0.5])))
    show("squash2", core.squash(tf.constant([3.0, 2.0])))
    show("squash scalar", core.squash(tf.constant(0.25)))
    show("squash traces", traces(core.squash))
    show("collatz tensor", core.collatz_steps(tf.constant(27)))
    show("collatz python", core.collatz_steps(6))
    show("collatz python again", core.collatz_steps(7))
    show("collatz traces", traces(core.collatz_steps))
    show("sum", core.sum_multiples(tf.constant(20)))
    show("sum clipped", core.sum_multiples(tf.constant(20), 50))
    show("sum zero", core.sum_multiples(tf.constant(0)))
    show("first", core.first_multiple(tf.constant([5, 7, 9, 12]), 3))
    show("first none", core.first_multiple(tf.constant([5, 7]), 3))
    show("first python list", core.first_multiple([4, 10, 25], 5))
    show("normalize", core.normalize(tf.constant([1.0, 4.0])))
    show("normalize negative", core.normalize(tf.constant([-1.0, -4.0, -2.0])))
    show("normalize traces", traces(core.normalize))
    acc = core.Accumulator()
    show("acc", [acc.add(tf.constant(v)).numpy() for v in (2.0, -1.0, 3.0)])
    show("acc variables", [v.numpy() for v in acc.trainable_variables])
    show("clip", userpkg.clip_to(tf.constant([1, 5]), 3))
    show("fibonacci", list(userpkg.fibonacci(7)))
    show("describe", userpkg.describe(tf.constant([[1.0, 2.0]])))
    show("threshold", userpkg.THRESHOLD)
''')


def run_driver(tmp_path, pythonpath, mode):
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    env = dict(os.environ, PYTHONPATH=str(pythonpath))
    done = subprocess.run([sys.executable, str(script), mode], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_converted_package_behaves_like_the_original_under_tf_function(converted, tmp_path):
    out, _ = converted
    original = run_driver(tmp_path, EXAMPLES, "original")
    result = run_driver(tmp_path, out, "wrapped")
    assert result == original
    assert "squash traces 3" in result          # shapes (3,), (2,) and ()
    assert "collatz traces 3" in result         # one tensor and two Python values
    assert "collatz tensor <tf.Tensor: shape=(), dtype=int32, numpy=111>" in result


def test_converted_in_place_package_behaves_like_the_original(converted_in_place, tmp_path):
    """By default the copy returns what the original returns: Python values stay Python."""
    out, _ = converted_in_place
    original = run_driver(tmp_path, EXAMPLES, "plain")
    result = run_driver(tmp_path, out, "in place")
    assert result == original
    assert "collatz python 8" in result          # an int, not a tensor
    assert "collatz tensor 111" in result        # eager: a Python loop counting in an int
    assert "normalize traces 1" in result        # the user's own tf.function


def test_in_place_summary(converted_in_place):
    out, done = converted_in_place
    assert done.stdout.splitlines() == [
        "converted 3 files: 8 functions converted, 2 left as they were",
        f"  {USERPKG / 'helpers.py'}:15: fibonacci: a generator function: it stays plain Python",
        f"  {USERPKG / 'helpers.py'}:24: describe: marked do_not_convert",
        f"wrote 3 files to {out}"]
    core = (out / "userpkg" / "core.py").read_text()
    assert "@_agm__.function" not in core and "@_agm__.converted\ndef squash(x):" in core


def test_convert_summary_and_mirrored_tree(converted):
    out, done = converted
    lines = done.stdout.splitlines()
    assert lines[0] == ("converted 3 files: 8 functions converted (6 wrapped in tf.function), "
                        "2 left as they were")
    # (the converter's own words after "cannot convert: " are its business)
    assert any("helpers.py:19: fibonacci: cannot convert: " in l and "a generator function" in l
               for l in lines)
    assert any(l.endswith("helpers.py:24: describe: marked do_not_convert") for l in lines)
    assert lines[-1] == f"wrote 3 files to {out}"
    assert sorted(p.name for p in (out / "userpkg").iterdir()) == \
        ["__init__.py", "core.py", "helpers.py"]


def test_converted_module_keeps_docstrings_comments_imports_and_decorators(converted):
    out, _ = converted
    text = (out / "userpkg" / "helpers.py").read_text()
    original = (USERPKG / "helpers.py").read_text()
    assert text.startswith('"""Helpers for core.py')      # module docstring stays first
    assert "THRESHOLD = 1.0  # squash() stops once the sum is at most this\n" in text
    assert "import autograph as tf\n" in text
    assert "@tf.autograph.experimental.do_not_convert\ndef describe(x):" in text
    # left alone: byte for byte as in the original
    start = original.index("def fibonacci")
    assert original[start:original.index("@tf.autograph")] in text
    core = (out / "userpkg" / "core.py").read_text()
    assert '"""tanh until the sum is at most THRESHOLD' in core
    assert "@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])\n" \
           "@_agm__.converted\ndef normalize(x):" in core
    assert "@_agm__.function\ndef squash(x):" in core
    assert "    @_agm__.converted\n    def __init__(self):" in core
    assert "    @_agm__.function\n    def add(self, x):" in core
    assert (out / "userpkg" / "__init__.py").read_text() == (USERPKG / "__init__.py").read_text()


def test_conversion_never_imports_the_users_code(tmp_path):
    pkg = tmp_path / "src" / "trap"
    pkg.mkdir(parents=True)
    marker = tmp_path / "imported"
    (pkg / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\nraise SystemExit(3)\n")
    (pkg / "mod.py").write_text(textwrap.dedent(f"""\
        open({str(marker)!r}, 'w').close()

        def f(x):
            while x > 0:
                x = x - 1
            return x
        """))
    done = autograph("convert", pkg, "-o", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    shown = autograph("show", f"{pkg / 'mod.py'}:f")
    assert shown.returncode == 0 and "ag__.while_stmt" in shown.stdout
    assert not marker.exists()


def test_check_lists_every_unconvertible_graph_function_with_file_line(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(textwrap.dedent("""\
        def fine(x):
            return x + 1


        def gen(n):
            for i in range(n):
                yield i


        class C:
            async def fetch(self):
                return 1
        """))
    done = autograph("convert", bad, "--check", "--wrap-all")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{bad}:7: gen: cannot convert: ")
    assert "a generator function" in lines[0]
    assert lines[1].startswith(f"{bad}:11: C.fetch: cannot convert: ") and "async" in lines[1]
    assert lines[-1] == ("checked 1 file: 1 function converted (1 wrapped in tf.function), "
                         "2 left as they were")
    assert not (tmp_path / "out").exists()
    # Not asked to be graphs, they stay as they are and behave as before: nothing to report.
    done = autograph("convert", bad, "--check")
    assert done.returncode == 0, done.stdout
    assert done.stdout == "checked 1 file: 1 function converted, 2 left as they were\n"
    # A function decorated with tf.function is a graph function even so.
    bad.write_text("import autograph as tf\n\n@tf.function\ndef gen(n):\n    yield n\n")
    done = autograph("convert", bad, "--check")
    assert done.returncode == 1
    assert done.stdout.startswith(f"{bad}:5: gen: cannot convert: ")
    assert "a generator function" in done.stdout.splitlines()[0]


def test_check_passes_on_convertible_code_and_writes_nothing(tmp_path):
    good = tmp_path / "good.py"
    good.write_text("def f(x):\n    return x if x > 0 else -x\n")
    done = autograph("convert", good, "--check")
    assert done.returncode == 0, done.stdout
    assert done.stdout == "checked 1 file: 1 function converted, 0 left as they were\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.py"]


def test_check_reports_a_syntax_error_with_file_line(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("def f(x):\n    return x +\n")
    done = autograph("convert", broken, "--check")
    assert done.returncode == 1
    assert f"{broken}:2: cannot parse: invalid syntax" in done.stdout


def test_diff_shows_what_would_change_and_writes_nothing(tmp_path):
    done = autograph("convert", USERPKG / "core.py", "--diff", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    name = str(USERPKG / "core.py").replace(os.sep, "/")
    assert f"--- a/{name}\n+++ b/{name}\n" in done.stdout
    assert "\n+@_agm__.converted\n def squash(x):\n" in done.stdout
    assert "\n-    while tf.reduce_sum(x) > THRESHOLD:\n" in done.stdout
    assert done.stderr.startswith("converted 1 file: 7 functions converted")
    assert list(tmp_path.iterdir()) == []


def test_progress_on_stderr_when_asked(tmp_path):
    done = autograph("convert", USERPKG, "-o", tmp_path / "out", "--progress", "-q")
    assert done.returncode == 0
    assert done.stdout == ""
    assert "[1/3]" in done.stderr and "[3/3]" in done.stderr


def test_no_wrap_converts_bodies_only(tmp_path):
    done = autograph("convert", USERPKG / "core.py", "-o", tmp_path, "--no-wrap", "-q")
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "core.py").read_text()
    assert "@_agm__.function" not in text and "@_agm__.converted\ndef squash(x):" in text


@pytest.mark.parametrize("args, fragment", [
    (["convert", "no/such/dir", "-o", "out"], "no such file or directory: no/such/dir"),
    (["convert", "README.md", "-o", "out"], "not a Python file: README.md"),
    (["convert", "examples/userpkg"], "convert needs -o OUT"),
    (["convert", "examples/userpkg", "-o", "examples/userpkg/out"], "is inside examples/userpkg"),
    (["convert", "examples/userpkg", "-o", "examples"], "would overwrite examples/userpkg itself"),
    (["convert", "examples/userpkg/core.py", "-o", "examples/userpkg"], "would overwrite"),
    (["show", "examples/userpkg/core.py"], "expected PATH:FUNC or MODULE:FUNC"),
    (["show", "examples/nope.py:f"], "no such file: examples/nope.py"),
    (["show", "examples/userpkg/core.py:nothing"], "defines no function 'nothing'"),
    (["show", "no_such_module:f"], "cannot find module 'no_such_module'"),
    (["graph", "examples/userpkg/core.py:squash", "--spec", "floot32[None]"],
     "unknown dtype 'floot32'"),
    (["graph", "examples/userpkg/core.py:squash", "--spec", "float32[None, x]"],
     "dimension 'x' is not a size"),
    (["graph", "examples/userpkg/core.py:squash", "--spec", "float32[None"],
     "bad --spec 'float32[None'"),
    (["graph", "examples/userpkg/core.py:squash", "--spec", "float32", "int32"],
     "cannot take 2 --spec value(s)"),
    (["graph", "examples/userpkg/core.py:Accumulator.add"], "is a method"),
    (["graph", "examples/missing.py:f", "--spec", "float32"], "no such file: examples/missing.py"),
])
def test_bad_paths_targets_and_specs_are_one_line_usage_errors(args, fragment):
    one_line_usage_error(autograph(*args), fragment)


# -- show ---------------------------------------------------------------------------------------

def test_show_prints_the_converted_source():
    done = autograph("show", "examples/userpkg/core.py:squash")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("def tf__squash(x):\n")
    assert "ag__.while_stmt(loop_test, loop_body" in done.stdout
    method = autograph("show", "userpkg.core:Accumulator.add", cwd=EXAMPLES)
    assert method.returncode == 0, method.stderr
    assert method.stdout.startswith("def tf__add(self, x):\n") and "ag__.if_stmt" in method.stdout


def test_show_of_a_function_that_cannot_convert_fails_with_file_line():
    done = autograph("show", "examples/userpkg/helpers.py:fibonacci")
    assert done.returncode == 1
    assert "helpers.py:19 in fibonacci: " in done.stderr and "a generator function" in done.stderr


# -- graph --------------------------------------------------------------------------------------

def test_graph_text_of_the_original_and_of_the_converted_copy_agree(converted):
    out, _ = converted
    original = autograph("graph", "examples/userpkg/core.py:squash", "--spec", "float32[None]")
    assert original.returncode == 0, original.stderr
    assert original.stdout.startswith("graph squash(x: float32[None]) -> (Identity)\n")
    assert "StatelessWhile" in original.stdout and "# core.py:11" in original.stdout
    copy = autograph("graph", out / "userpkg" / "core.py:squash", "--spec", "float32[None]")
    assert copy.returncode == 0, copy.stderr
    assert copy.stdout == original.stdout   # the source map points back at the original lines


def test_graph_dot_optimize_python_literals_and_output_file(tmp_path):
    mod = tmp_path / "mod.py"
    mod.write_text(textwrap.dedent("""\
        import autograph as tf
        print("importing mod")

        def scaled(x, k):
            print("tracing scaled")
            y = x * 1.0
            return y * k
        """))
    text = autograph("graph", f"{mod}:scaled", "--spec", "float32[2, 3]", "3")
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("graph scaled(")      # the user's prints go to stderr
    assert text.stderr == "importing mod\ntracing scaled\n"
    assert "x: float32[2, 3]" in text.stdout and "Mul" in text.stdout
    optimized = autograph("graph", f"{mod}:scaled", "--spec", "float32[2, 3]", "3", "--optimize")
    assert optimized.returncode == 0, optimized.stderr
    assert optimized.stdout.count("\n") < text.stdout.count("\n")  # x * 1.0 is gone
    target = tmp_path / "g.dot"
    dot = autograph("graph", f"{mod}:scaled", "--spec", "float32[None]", "2",
                    "--format", "dot", "-o", target)
    assert dot.returncode == 0 and dot.stdout == ""
    assert target.read_text().startswith('digraph "scaled" {')


def test_graph_svg_without_graphviz_says_how_to_install_it(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path))  # no `dot` here
    done = autograph("graph", "examples/userpkg/core.py:squash", "--spec", "float32[None]",
                     "--format", "svg", env=env)
    assert done.returncode == 1
    assert "needs Graphviz's `dot`" in done.stderr and "apt-get install graphviz" in done.stderr


def test_graph_tracing_failure_exits_1_naming_the_users_line(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "bad.py").write_text(textwrap.dedent("""\
        def f(x):
            if x > 0:
                y = x
            return y
        """))
    done = autograph("graph", f"{src / 'bad.py'}:f", "--spec", "float32")
    assert done.returncode == 1
    assert "tracing f failed: " in done.stderr and "'y'" in done.stderr  # (the runtime's words)
    where = re.compile(re.escape(str(src / "bad.py")) + r'(?::|", line )(\d+)')
    blamed = where.findall(done.stderr)
    assert blamed and set(blamed) <= {"2", "4"}, done.stderr   # the `if`, or the read of y
    # the converted copy blames the same, original lines
    assert autograph("convert", src, "-o", tmp_path / "out", "-q").returncode == 0
    copy = autograph("graph", f"{tmp_path / 'out' / 'src' / 'bad.py'}:f", "--spec", "float32")
    assert copy.returncode == 1 and where.findall(copy.stderr) == blamed, copy.stderr


EDGE = '''\
#!/usr/bin/env python
# -*- coding: utf-8 -*-
"""Edge cases for source-level conversion."""
from __future__ import annotations

import autograph as tf
from autograph import function as fn_deco

COUNT = 0
square = lambda v: v * v


class Base(tf.Module):
\tdef scale(self, x):
\t\treturn x * 2


class Child(Base):
\tTEXT = """keep
    this"""

\tdef scale(self, x):
\t\ttext = """line one
  line two"""
\t\tif x > 0:
\t\t\tx = super().scale(x)
\t\treturn x, text

\t@property
\tdef name(self):
\t\treturn "child"

\t@staticmethod
\tdef twice(x):
\t\treturn x + x

\t@classmethod
\tdef make(cls):
\t\treturn cls()

\tclass Inner:
\t\tdef hello(self, x):
\t\t\treturn -x


@fn_deco(autograph=False)
def raw(x):
\treturn x + 1


@fn_deco
def bump(x):
\tglobal COUNT
\tCOUNT += 1
\treturn square(x)
'''

EDGE_DRIVER = '''
import autograph as tf, edge
c = edge.Child()
assert isinstance(edge.Child.__dict__["scale"], tf.Function)
assert isinstance(edge.Child.__dict__["twice"].__func__, tf.Function)
assert not isinstance(edge.Child.__dict__["make"].__func__, tf.Function)
print(c.scale(tf.constant(3)), c.scale(tf.constant(-3)))
print(c.name, edge.Child.twice(tf.constant(2)), type(edge.Child.make()).__name__)
print(edge.Child.Inner().hello(tf.constant(1.0)))
print(edge.raw(tf.constant(1)), edge.bump(tf.constant(3)), edge.bump(tf.constant(4)), edge.COUNT)
print(repr(edge.Child.TEXT), edge.__doc__)
'''


def test_tabs_multiline_strings_methods_and_decorators_survive_conversion(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "edge.py").write_text(EDGE)
    done = autograph("convert", tmp_path / "src" / "edge.py", "-o", tmp_path / "out",
                     "--wrap-all")
    assert done.returncode == 0, done.stderr
    assert "edge.py:47: raw: tf.function(autograph=False)" in done.stdout
    text = (tmp_path / "out" / "edge.py").read_text()
    assert text.startswith('#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n"""Edge cases')
    assert "from __future__ import annotations\n# Converted by `autograph convert`" in text
    assert "\t@property\n\t@_agm__.converted\n\tdef name(self):" in text
    assert "\t@classmethod\n\t@_agm__.converted\n\tdef make(cls):" in text
    assert "@fn_deco\n@_agm__.converted\ndef bump(x):" in text
    assert "@fn_deco(autograph=False)\ndef raw(x):\n\treturn x + 1\n" in text
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "out"))
    run = subprocess.run([sys.executable, "-c", EDGE_DRIVER], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "(<tf.Tensor: shape=(), dtype=int32, numpy=6>, <tf.Tensor: shape=(), dtype=string, "
        "numpy=b'line one\\n  line two'>) (<tf.Tensor: shape=(), dtype=int32, numpy=-3>, "
        "<tf.Tensor: shape=(), dtype=string, numpy=b'line one\\n  line two'>)",
        "child tf.Tensor(4, shape=(), dtype=int32) Child",
        "tf.Tensor(-1.0, shape=(), dtype=float32)",
        "tf.Tensor(2, shape=(), dtype=int32) tf.Tensor(9, shape=(), dtype=int32) "
        "tf.Tensor(16, shape=(), dtype=int32) 1",  # the global changes while tracing only
        "'keep\\n    this' Edge cases for source-level conversion.",
    ]


def test_spec_strings_read_as_tensor_specs_or_python_values():
    import autograph as tf
    from autograph.cli_targets import UsageError, parse_spec

    assert parse_spec("float32") == tf.TensorSpec([], tf.float32)
    assert parse_spec("float32[]") == tf.TensorSpec([], tf.float32)
    assert parse_spec("int32[2, None]") == tf.TensorSpec([2, None], tf.int32)
    assert parse_spec("string[?]") == tf.TensorSpec([None], tf.string)
    assert parse_spec("bool[...]").shape.rank is None
    assert parse_spec("3") == 3 and parse_spec("True") is True and parse_spec("'relu'") == "relu"
    for bad in ("float32[2.5]", "complex64[1]", "[1, 2", "float32[None"):
        with pytest.raises(UsageError, match="bad --spec"):
            parse_spec(bad)


def test_library_names_and_no_second_conversion_of_converted_code(converted):
    out, _ = converted
    script = textwrap.dedent("""
        from autograph import function, to_code, convert, do_not_convert
        import autograph as tf
        from userpkg import core
        inner = core.squash.python_function
        assert inner.__ag_converted__
        again = convert(inner)
        assert again.__ag_target__ is inner       # run as it is, never converted twice
        print([round(float(v), 4) for v in again(tf.constant([3.0, 3.0])).numpy()])
        print(callable(function) and callable(to_code) and callable(do_not_convert))
    """)
    env = dict(os.environ, PYTHONPATH=str(out))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[0.4715, 0.4715]\nTrue\n"


def test_source_level_conversion_matches_to_code():
    """``autograph show``/``convert`` (from the file) and ``to_code`` (from the live function)
    run the same converter: the same function must come out the same."""
    import gast

    import autograph as tf
    from autograph.convert_module import definitions, module_names, parse_module
    from autograph.converter.module_source import convert_definition

    sys.path.insert(0, str(EXAMPLES))
    try:
        import userpkg.core as core
    finally:
        sys.path.remove(str(EXAMPLES))
    path = str(USERPKG / "core.py")
    tree = parse_module(pathlib.Path(path).read_text(), path)
    names = module_names(tree)
    compared = 0
    for d in definitions(tree):
        live = core
        for part in d.qualname.split("."):
            live = getattr(live, part)
        expected = tf.autograph.to_code(live)
        assert convert_definition(d.node, path, names, d.qualname).code() == expected, d.qualname
        compared += 1
    assert compared == 7
    assert isinstance(tree, gast.Module)


def test_a_converted_program_that_clears_its_namespace_still_ends_cleanly(tmp_path):
    # `python -m pdb` runs a program in a namespace it clears; the lines `convert` appends
    # (the source map, `del _agm__`) raised NameError at the end of such a program.
    program = tmp_path / "clears.py"
    program.write_text(textwrap.dedent("""\
        def sign(x):
            if x > 0:
                return 1
            return -1
        print(sign(3), sign(-2))
        globals().clear()
        """))
    out = tmp_path / "out"
    done = autograph("convert", program, "-o", out)
    assert done.returncode == 0, done.stderr
    run = subprocess.run([sys.executable, str(out / "clears.py")], capture_output=True,
                         text=True, timeout=120)
    assert (run.returncode, run.stdout, run.stderr) == (0, "1 -1\n", "")
