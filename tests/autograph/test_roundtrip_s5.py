"""Converted code does what the original does: cases found by the stdlib round trip.

``python -m tests.roundtrip.run MODULE`` converts a stdlib module and runs CPython's tests
against it; each function here is the smallest form of a difference it found (the module
named), and failed converted before the fix: it returned a wrong value in silence, looped
forever, did not compile, or raised where Python does not.
"""
import numpy as np
import pytest

from tests.autograph.helpers import assert_python_same, assert_staged_same


# -- `match` statements: their cases are blocks like an `if`'s (traceback) ---------------------

def match_returns_after_early_return(segment, short):
    # traceback._extract_caret_anchors_from_line_segment: the `return` in a case was lost
    if short:
        return None
    match segment:
        case {"op": op}:
            return op
    return "none"


def match_breaks_and_continues(xs):
    out = []
    for x in xs:
        match x:
            case 0:
                break
            case 1:
                continue
        out.append(x)
    return out


def match_returns_from_a_loop(xs):
    for x in xs:
        match x:
            case (a, b) if a > b:
                return a
            case [a, *rest]:
                return len(rest)
    return None


def match_assigns_maybe(x, c):
    match x:
        case 1:
            y = 1
    if c:
        y = 2
    return y


def match_captures_read_after_branch(x):
    if x:
        match x:
            case int(n) if n > 2:
                z = n
            case _:
                z = 0
        return z, n
    return None


def match_with_control_flow_in_cases(xs):
    total = 0
    for x in xs:
        match x:
            case (a, b):
                if a > b:
                    total += a
                else:
                    for i in range(b):
                        if i == 2:
                            return total, "early"
                        total += i
            case {"v": v, **rest}:
                total += v + len(rest)
            case _:
                return total, x
    return total, None


def match_exhaustive_always_returns(x):
    match x:
        case 1:
            return "one"
        case _:
            return "other"


@pytest.mark.parametrize("fn,args", [
    (match_returns_after_early_return, ({"op": "+"}, False)),
    (match_returns_after_early_return, ({"op": "+"}, True)),
    (match_returns_after_early_return, (3, False)),
    (match_breaks_and_continues, ([2, 1, 3, 0, 4],)),
    (match_returns_from_a_loop, ([(1, 2), (5, 3)],)),
    (match_returns_from_a_loop, ([(1, 2, 3, 4)],)),
    (match_returns_from_a_loop, ([7],)),
    (match_assigns_maybe, (1, False)),
    (match_assigns_maybe, (2, True)),
    (match_assigns_maybe, (2, False)),  # UnboundLocalError, as in Python
    (match_captures_read_after_branch, (5,)),
    (match_captures_read_after_branch, (1,)),
    (match_captures_read_after_branch, (0,)),
    (match_with_control_flow_in_cases, ([(3, 1), {"v": 2, "w": 0}, (0, 5), 9],)),
    (match_with_control_flow_in_cases, ([(1, 2), "s"],)),
    (match_exhaustive_always_returns, (1,)),
    (match_exhaustive_always_returns, (2,)),
])
def test_match_statement(fn, args):
    assert_python_same(fn, *args)


def staged_if_in_a_case(x):
    mode = "abs"
    match mode:
        case "abs":
            if x > 0:
                y = x
            else:
                y = -x
        case _:
            y = x
    return y


def test_tensor_if_inside_a_match_case_is_staged():
    assert_staged_same(staged_if_in_a_case, np.float32(-3.0))
    assert_staged_same(staged_if_in_a_case, np.float32(2.0))


# -- a def nested in a function of a converted module runs as converted with it (contextlib) ----

NESTED_SRC = '''\
def make_callback(callback, *args):
    def _exit_wrapper():
        if args:
            return callback(*args)
        return None
    return _exit_wrapper


def run(cb):
    return cb()
'''


def _import_converted(tmp_path, name, source):
    import importlib.util

    from autograph import cli

    src = tmp_path / f"{name}.py"
    src.write_text(source)
    out = tmp_path / "out"
    assert cli.main(["convert", str(src), "-o", str(out), "--no-wrap", "--no-progress"]) == 0
    spec = importlib.util.spec_from_file_location(name, out / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_def_nested_in_a_converted_module_is_not_converted_again(tmp_path, capsys):
    # ExitStack's `_exit_wrapper` ran converted a second time (as `tf___exit_wrapper`, its
    # calls `ag__.converted(ag__.converted(callback))`): other names in tracebacks, slower
    module = _import_converted(tmp_path, "nested_cb", NESTED_SRC)
    capsys.readouterr()

    def boom(x):
        raise ValueError(x)

    with pytest.raises(ValueError) as info:
        module.run(module.make_callback(boom, 3))
    names = [entry.name for entry in info.traceback]
    assert "_exit_wrapper" in names and "tf___exit_wrapper" not in names, names
    assert module.run(module.make_callback(lambda a, b: a + b, 1, 2)) == 3
    assert module.run(module.make_callback(boom)) is None


# -- `try`/`except*`: a `try` like any other (the converter crashed on a branch inside one) ------

def try_star_assigns_in_handler(x, flag):
    if flag:
        return "flag"
    try:
        if x:
            raise ExceptionGroup("eg", [ValueError(1)])
        return "no error"
    except* ValueError:
        r = "value"
    return r


def try_star_in_a_loop_with_jumps(xs):
    out = []
    for x in xs:
        try:
            if x == 0:
                break
            if x == 1:
                continue
        except* KeyError:
            pass
        out.append(x)
    return out


@pytest.mark.parametrize("fn,args", [
    (try_star_assigns_in_handler, (1, False)),
    (try_star_assigns_in_handler, (0, False)),
    (try_star_assigns_in_handler, (1, True)),
    (try_star_in_a_loop_with_jumps, ([2, 1, 3, 0, 4],)),
])
def test_try_star(fn, args):
    assert_python_same(fn, *args)


# -- the operators never ask a Python value more than Python does ------------------------------
# (they looked for their protocols on the object: a mock or a proxy answers any name, and an
# object whose `__getattr__` raises made `if`/`for` fail; `len` called a `size` property)

class AttrDict(dict):
    """Keys as attributes, as many configuration objects do: a missing one is a KeyError."""

    def __getattr__(self, name):
        return self[name]


class SizedWithSizeProperty:
    def __len__(self):
        return 3

    @property
    def size(self):
        raise RuntimeError("size is not known")


class CallableWithFailingHash:
    def __call__(self, x):
        return x + 1

    def __hash__(self):
        raise ValueError("not hashable yet")


def truth_of(o):
    if o:
        return "yes"
    return "no"


def items_of(xs):
    out = []
    for x in xs:
        out.append(x)
    return out


def length_of(x):
    return len(x)


def call_it(f, x):
    return f(x)


@pytest.mark.parametrize("fn,args", [
    (truth_of, (AttrDict(k=1),)),
    (items_of, (AttrDict(k=1),)),
    (length_of, (SizedWithSizeProperty(),)),
    (call_it, (CallableWithFailingHash(), 1)),
])
def test_operators_leave_python_objects_alone(fn, args):
    assert_python_same(fn, *args)


def test_mocks_iterate_and_measure_as_in_python():
    from unittest import mock

    from autograph.impl.api import convert

    m = mock.MagicMock()
    m.__iter__.return_value = iter([1, 2])
    assert convert(items_of)(m) == [1, 2]
    assert convert(length_of)(mock.MagicMock()) == 0


# -- private names of methods converted at run time: Python mangles them in the class ----------

class Private:
    def __init__(self):
        self.__secret = 5

    def get(self, flag, __bonus=0):
        if flag:
            return self.__secret + __bonus
        __local = 2
        return __local + Private.__helper()

    @staticmethod
    def __helper():
        return 10

    def nested(self, n):
        def add(k):
            total = 0
            for i in range(k):
                total += self.__secret
            return total
        return add(n)

    def with_class(self):
        class Inner:
            __y = 7

            def y(self):
                return self.__y
        if self.__secret:
            return Inner().y(), Inner._Inner__y
        return None


@pytest.mark.parametrize("method,args", [
    ("get", (True,)), ("get", (True, 3)), ("get", (False,)), ("nested", (3,)),
    ("with_class", ()),
])
def test_private_names_in_methods(method, args):
    assert_python_same(getattr(Private(), method), *args)


# -- zero-argument super() in a class defined inside the converted function (test_enum) --------

class Base:
    def f(self, x):
        return x

    @classmethod
    def make(cls, v):
        return ("Base.make", cls.__name__, v)


def class_with_super_inside(n):
    # super() was given the outer function's first parameter (`n`), not the method's own
    class Derived(Base):
        def __new__(cls, *args):
            return super().__new__(cls)

        def f(self, x):
            if x:
                return super().f(x) + 1
            return 0

        @classmethod
        def make(cls, v):
            if v:
                return super().make(v)
            return None
    return Derived().f(n), Derived.make(n)


@pytest.mark.parametrize("n", [0, 3])
def test_super_in_methods_of_a_nested_class(n):
    assert_python_same(class_with_super_inside, n)


# -- closures converted at run time are not kept alive (test_scope.testLeaks) ------------------

class Counted:
    alive = 0

    def __init__(self):
        Counted.alive += 1

    def __del__(self):
        Counted.alive -= 1


def make_closures():
    x = Counted()

    def get():
        return x

    def walk(k):  # a recursive helper: its own cell holds it
        if k:
            return walk(k - 1)
        return x
    return get, walk


def call_closures(n, factory):
    for _ in range(n):
        get, walk = factory()  # closures made by unconverted code, converted when called
        get()
        walk(2)
    return n


def test_closures_converted_at_run_time_are_freed():
    import gc

    from autograph.impl.api import convert

    from autograph.impl.api import do_not_convert

    before = Counted.alive
    assert convert(call_closures)(20, do_not_convert(make_closures)) == 20
    gc.collect()
    assert Counted.alive == before


def match_returns_locals(w):
    # test_patma: a `return` right in a case needs no flag, and `locals()` shows no `retval_`
    match w:
        case 42:
            out = locals()
            del out["w"]
            return out
        case [x, *_]:
            return locals()
    return None


@pytest.mark.parametrize("w", [42, [1, 2], 0])
def test_match_returning_locals(w):
    assert_python_same(match_returns_locals, w)


# -- a coroutine nested in a converted function stays as written (test_grammar) -----------------

def nested_coroutine(xs):
    async def first_positive():
        for x in xs:
            if x > 0:
                break
            if x == 0:
                continue
        else:
            return None
        return x
    if xs:
        coro = first_positive()
        try:
            coro.send(None)
        except StopIteration as stop:
            return stop.value
    return "empty"


@pytest.mark.parametrize("xs", [[-1, 0, 3, 4], [-1, 0], []])
def test_coroutine_nested_in_a_converted_function(xs):
    assert_python_same(nested_coroutine, xs)


# -- a function converted at run time keeps its names (test_keywordonlyarg) ---------------------

def takes_two(a, b=1):
    if a:
        return a + b
    return b


def call_with(args):
    return takes_two(*args)


def test_call_errors_name_the_function_as_python_does():
    from autograph.impl.api import convert

    with pytest.raises(TypeError) as python:
        call_with((1, 2, 3))
    with pytest.raises(TypeError) as converted:
        convert(call_with)((1, 2, 3))
    assert str(python.value) in str(converted.value)
    assert "takes_two() takes from 1 to 2 positional arguments" in str(python.value)


# -- builtins called from converted code take their arguments as Python's do (test_int) --------

@pytest.mark.parametrize("call", [
    lambda: int(x=1), lambda: int("10", None), lambda: int("10", base=2), lambda: int(),
    lambda: float(x=1), lambda: abs(x=-1), lambda: len(obj=[1]), lambda: sorted([3, 1], None),
    lambda: sorted([3, 1], reverse=True), lambda: list(filter(None, [0, 1])),
], ids=["int-x", "int-base-none", "int-base", "int", "float-x", "abs-x", "len-obj",
        "sorted-key-positional", "sorted-reverse", "filter"])
def test_builtin_overrides_take_python_arguments(call):
    assert_python_same(call)


# -- eval/exec without a namespace see the function's locals (test_typing, test_descr) ---------

def eval_in_branches(n, op):
    c = {1: 10, 2: 20}
    out = []
    for x in range(1, n):
        if op:
            out.append(eval("c[x] %s c[1]" % op))
        else:
            exec("out.append(x * 2)")
    return out, eval("len(c)"), eval("x + 1", {"x": 5}), eval("x", None, {"x": 7})


def eval_by_another_name(x):
    e = eval
    if x:
        return e("x + 1", {"x": 10}), e(" x")
    return None


@pytest.mark.parametrize("op", ["+", ""])
def test_eval_and_exec_in_converted_bodies(op):
    assert_python_same(eval_in_branches, 3, op)
    assert_python_same(eval_by_another_name, 1)
