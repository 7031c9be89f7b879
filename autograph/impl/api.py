"""``to_code``, ``convert`` (``to_graph``), ``do_not_convert``, and the conversion cache.

``convert(f)`` accepts plain functions, bound methods, lambdas, closures,
``functools.partial`` and callable objects, and returns a callable that runs
the converted code. Conversion is cached per code object (each function
object then gets its own closure) and is safe from several threads. Errors
escaping converted code are re-raised with the same type and a message that
shows the user's file, line, source text and function (under tf.function, a type
TensorFlow cannot rebuild from a message becomes a StagingError, as there).
"""
from __future__ import annotations

import contextvars
import functools
import inspect
import os
import sysconfig
import threading
import types
import warnings
import weakref

from autograph import errors, operators
from autograph.converter import conversion, loader
from autograph.converter.options import DEFAULT, ConversionOptions, features
from autograph.errors import ConversionError
from autograph.impl import ag_logging
from autograph.operators.call import runs_as_written
from runtime import collector
from runtime.context import executing_eagerly

_lock = threading.RLock()
_code_cache: dict = {}  # (code object, options) -> LoadedCode
_fn_cache: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # fn -> {options: fn}
# The options of the conversion whose code runs: ag__.converted converts callees alike.
_current_options: contextvars.ContextVar = contextvars.ContextVar("autograph_options",
                                                                  default=DEFAULT)
_warned: set = set()
_unconvertible: set = set()  # code objects that failed to convert (not asked for by the user)
# library code objects converted because the user asked for one function made of them (tf.exp
# to tf.function): the other functions sharing the code (tf.tanh's fast path) stay as written
_library_codes: set = set()

_LIBRARY_MODULES = frozenset(["runtime", "graph", "autograph", "numpy", "builtins", "gast",
                              "pytest", "_pytest", "hypothesis", "pluggy", "typing"])
_STDLIB = tuple(os.path.abspath(p) + os.sep for p in
                {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]})
_AUTOGRAPH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def do_not_convert(func=None):
    """Marks ``func`` to always run as written, never converted (also as a decorator)."""
    if func is None:
        return do_not_convert
    try:
        func.__ag_do_not_convert__ = True
        return func
    except (AttributeError, TypeError):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)
        wrapper.__ag_do_not_convert__ = True
        return wrapper


def _is_library(fn) -> bool:
    module = (getattr(fn, "__module__", None) or "").split(".")[0]
    if module in _LIBRARY_MODULES:
        return True
    code = getattr(fn, "__code__", None)
    if code is None:
        return True
    return _is_library_file(code.co_filename)


def _is_library_file(filename: str) -> bool:
    from runtime.origin import _is_internal
    if filename.startswith("<frozen"):  # the stdlib's frozen modules (os.path, codecs...)
        return True
    if filename.startswith("<"):
        return False
    filename = os.path.abspath(filename)
    return filename.startswith(_STDLIB) or filename.startswith(_AUTOGRAPH_DIR) \
        or _is_internal(filename)


def _loaded(fn, options: ConversionOptions):
    key = (fn.__code__, options)
    loaded = _code_cache.get(key)
    if loaded is None:
        with _lock:
            loaded = _code_cache.get(key)
            if loaded is None:
                ag_logging.log(1, "%s is not cached for subkey %s", fn, options)
                converted = conversion.convert_function(fn, options)
                loaded = loader.compile_converted(converted, fn.__code__.co_freevars,
                                                  fn.__code__.co_flags)
                _code_cache[key] = loaded
                ag_logging.log(2, "Transformed %s:\n\n%s\n", fn, loaded.text)
    return loaded


def _convert_plain(fn, user_requested: bool, options: ConversionOptions):
    """The converted twin of the plain function ``fn`` (or ``fn`` if it must not convert).

    Twins are cached per function object only for functions without a closure: a closure's
    twin shares its cells, which may hold the function itself (a recursive helper) or an
    object holding it, and an entry whose value reaches its key never leaves a weak-keyed
    cache. A closure, made anew by each call of its enclosing function anyway, gets its
    twin from the per-code cache each time (a function object, ~1 µs).
    """
    closure = fn.__closure__
    if closure is None:
        by_options = _fn_cache.get(fn)
        cached = by_options.get(options) if by_options is not None else None
        if cached is not None:
            return cached
    code = fn.__code__
    if runs_as_written(fn) or loader.is_generated(code):
        return fn  # (a def or lambda inside converted code was converted with its parent)
    loaded = _code_cache.get((code, options))
    if loaded is not None and not user_requested and code in _library_codes:
        return fn  # (library code converted only because a user asked for one function of it)
    if loaded is None:
        if not user_requested:
            if code in _unconvertible and not options.strict:
                _warn_unconverted(fn)
                return fn
            if _is_library(fn):
                ag_logging.log(2, "Allowlisted: %s: DoNotConvert rule for %s", fn,
                               (fn.__module__ or "").split(".")[0])
                return fn
        if inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn):
            if user_requested:
                conversion.convert_function(fn, options)  # raises an error naming the `yield`
            return fn
        if user_requested and _is_library(fn):
            _library_codes.add(code)  # (functions sharing its code still run as they are)
        try:
            with collector.paused():
                loaded = _loaded(fn, options)
        except ConversionError:
            if user_requested or options.strict:
                raise
            _unconvertible.add(code)
            _warn_unconverted(fn)
            return fn
    converted = loader.instantiate(loaded, fn, operators)
    if closure is None:
        with _lock:
            _fn_cache.setdefault(fn, {})[options] = converted
    return converted


def _warn_unconverted(fn) -> None:
    """Warns once per function, and only while a graph is being traced: run on Python
    values, the unconverted function does what its converted twin would, and a warning
    there (an error under ``-W error``) would change what a converted module does."""
    code = fn.__code__
    if code not in _warned and not executing_eagerly():
        _warned.add(code)
        message = (f"AutoGraph could not convert {fn.__qualname__}; it runs unconverted "
                   "(Python control flow on tensors will fail in a graph).")
        warnings.warn(message, stacklevel=4)
        if ag_logging.echo_log_to_stdout:
            print("WARNING: " + message)


def _class_attribute(cls, name: str):
    """``name`` as the class defines it (a ``staticmethod`` stays one), as Python finds a
    special method: on the type, never on the instance."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    return None


def converted_callable(f, user_requested: bool = False, options: ConversionOptions | None = None):
    """What converted code should call in place of ``f`` (converted with ``options``, by
    default those of the conversion whose code is running)."""
    if options is None:
        options = _current_options.get()
    if ag_logging.verbosity_level:
        ag_logging.log(1, "Converted call: %s", f)
    if isinstance(f, types.FunctionType):
        return _convert_plain(f, user_requested, options)
    if isinstance(f, types.MethodType):
        inner = converted_callable(f.__func__, user_requested, options)
        return f if inner is f.__func__ else types.MethodType(inner, f.__self__)
    if isinstance(f, functools.partial):
        inner = converted_callable(f.func, user_requested, options)
        return f if inner is f.func else functools.partial(inner, *f.args, **f.keywords)
    if isinstance(f, (type, types.BuiltinFunctionType, types.BuiltinMethodType)):
        return f
    if getattr(f, "__ag_do_not_convert__", False):
        return f
    call = _class_attribute(type(f), "__call__")
    if call.__class__ in (staticmethod, classmethod):
        # (f(x) calls a static __call__ without f, a class one with type(f))
        fn = call.__func__
        if isinstance(fn, types.FunctionType) and (user_requested or not _is_library(fn)):
            inner = _convert_plain(fn, user_requested, options)
            if inner is fn:
                return f
            return inner if call.__class__ is staticmethod else types.MethodType(inner, type(f))
    elif isinstance(call, types.FunctionType) and (user_requested or not _is_library(call)):
        inner = _convert_plain(call, user_requested, options)
        return f if inner is call else types.MethodType(inner, f)
    if user_requested and not callable(f):
        raise ConversionError(f"Cannot convert {f!r}: it is not callable.")
    return f


def convert(func, recursive: bool = True, experimental_optional_features=None, *,
            options: ConversionOptions | None = None):
    """The converted callable for ``func``: staged control flow on tensors, Python otherwise.

    ``options`` (tf.function's) win over ``experimental_optional_features``; the functions
    ``func`` calls are converted with the same options.
    """
    if options is None:
        options = ConversionOptions(features(experimental_optional_features))
    target = converted_callable(func, user_requested=True, options=options)

    @functools.wraps(func)
    def converted(*args, **kwargs):
        token = _current_options.set(options)
        try:
            return target(*args, **kwargs)
        except Exception as e:  # noqa: BLE001  (re-raised with the user's location)
            new = _with_user_frames(e)
            if new is e:
                raise
            raise new from None
        finally:
            _current_options.reset(token)

    converted.__ag_converted__ = True
    converted.__ag_target__ = target
    return converted


to_graph = convert


def to_code(func, recursive: bool = True, experimental_optional_features=None) -> str:
    """The converted source of ``func``: what converted code runs, readable."""
    if isinstance(func, types.MethodType):
        func = func.__func__
    if isinstance(func, functools.partial):
        func = func.func
    func = getattr(func, "python_function", func)
    if not isinstance(func, types.FunctionType):
        call = getattr(type(func), "__call__", None)
        if not isinstance(call, types.FunctionType):
            raise ConversionError(f"Cannot convert {func!r}: to_code needs a Python function.")
        func = call
    options = ConversionOptions(features(experimental_optional_features))
    with collector.paused():
        return conversion.convert_function(func, options, all_lines=False).code()


# -- errors that point at user code ------------------------------------------------------------

def _user_frames(tb) -> list[str]:
    from runtime.origin import map_location
    out = []
    while tb is not None:
        frame, line = tb.tb_frame, tb.tb_lineno
        filename = frame.f_code.co_filename
        origin = map_location(filename, line)
        if origin is not None:  # (converted code: TensorFlow marks it with `*`)
            out.append(f'    File "{origin.file}", line {origin.line}, in {origin.function}  *\n'
                       f"        {origin.source}")
        elif not filename.startswith("<") and not _is_library_file(filename):
            import linecache
            text = linecache.getline(filename, line).strip()
            out.append(f'    File "{filename}", line {line}, in {frame.f_code.co_name}\n'
                       f"        {text}")
        tb = tb.tb_next
    return out


# The types TensorFlow re-creates from a message (its KNOWN_STRING_CONSTRUCTOR_ERRORS, and
# KeyError) when an error leaves converted code under tf.function.
_REBUILT_TYPES = (AssertionError, AttributeError, NameError, NotImplementedError,
                  RuntimeError, StopIteration, TypeError, UnboundLocalError, ValueError, KeyError)


def as_tf_function_error(e: Exception) -> Exception:
    """What tf.function raises for ``e``, an error that left converted code while tracing:
    TensorFlow raises it again as the same type only when it can rebuild it from its message
    (the types above, exactly, or a class keeping Exception's constructor) or when it is one
    of its own errors (this project's, here); any other (IndexError, ZeroDivisionError, an
    exception class with its own ``__init__``) becomes a StagingError with its message."""
    cls = type(e)
    if cls in _REBUILT_TYPES or cls.__init__ is Exception.__init__ \
            or isinstance(e, errors.GraphError):
        return e
    if getattr(e, "ag_error_metadata", False):  # its message (or last note) shows user frames
        message = e.__notes__[-1] if getattr(e, "__notes__", None) else str(e)
    else:
        message = f"{cls.__name__}: {e}"
    new = errors.StagingError(message)
    new.ag_error_metadata = True
    new.__cause__ = e
    return new.with_traceback(e.__traceback__)


def _with_user_frames(e: Exception) -> Exception:
    """``e`` again (same type) with the user's frames in its message."""
    if getattr(e, "ag_error_metadata", False) or isinstance(e, StopIteration):
        return e
    frames = _user_frames(e.__traceback__)
    if not frames:
        return e
    message = ("in user code:\n\n" + "\n".join(frames) + "\n\n    "
               + f"{type(e).__name__}: {e}")
    new = None
    try:
        from graph.errors import OpError
        if isinstance(e, OpError):
            new = type(e)(e.node_def, e.op, message)
        else:
            new = type(e)(message)
        if str(new) != message:
            new = None
    except Exception:  # noqa: BLE001  (exception types with other constructors)
        new = None
    if new is None:
        e.add_note(message)
        e.ag_error_metadata = True
        return e
    new.ag_error_metadata = True
    new.__cause__ = e.__cause__
    return new.with_traceback(e.__traceback__)
