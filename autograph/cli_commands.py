"""What each ``autograph`` command does (``cli.py`` only parses the command line).

Each command returns the exit status; mistakes on the command line raise
``UsageError`` (status 2), failures of the work print why and return 1.
"""
from __future__ import annotations

import contextlib
import difflib
import importlib
import importlib.util
import inspect
import os
import shutil
import subprocess
import sys

from autograph.cli_targets import Target, UsageError, parse_spec, parse_target
from autograph.convert_module import (ModuleResult, PackageFacts, convert_module_source,
                                      definitions, find_definition, module_names, parse_module,
                                      scan_package)
from autograph.errors import ConversionError


def _fail(command: str, message: str) -> int:
    print(f"autograph {command}: error: {message}", file=sys.stderr)
    return 1


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError as e:
        raise OSError(f"{path}: not UTF-8 text ({e.reason})") from None


# -- show ------------------------------------------------------------------------------------------

def show(args) -> int:
    from autograph.converter.module_source import convert_definition

    target = parse_target(args.target)
    try:
        text = _read(target.path)
        tree = parse_module(text, target.path)
    except OSError as e:
        return _fail("show", str(e))
    except SyntaxError as e:
        return _fail("show", f"{target.path}:{e.lineno}: cannot parse: {e.msg}")
    node = find_definition(tree, target.qualname)
    if node is None:
        known = ", ".join(d.qualname for d in definitions(tree)) or "none"
        raise UsageError(f"{target.path} defines no function {target.qualname!r} "
                         f"(functions there: {known})")
    try:
        converted = convert_definition(node, target.path, module_names(tree), target.qualname)
    except ConversionError as e:
        return _fail("show", str(e))
    sys.stdout.write(converted.code())
    return 0


# -- convert ---------------------------------------------------------------------------------------

def _plan(paths: list[str], output: str | None) -> list[tuple[str, str, bool]]:
    """(source path, path relative to OUT, is a Python file) for everything to convert or copy."""
    plan = []
    out_abs = os.path.abspath(output) if output else None
    for path in paths:
        if not os.path.exists(path):
            raise UsageError(f"no such file or directory: {path}")
        src_abs = os.path.abspath(path)
        if out_abs is not None and (out_abs == src_abs
                                    or out_abs.startswith(src_abs.rstrip(os.sep) + os.sep)):
            raise UsageError(f"the output directory {output} is inside {path}: pick a "
                             "directory outside the tree being converted")
        if os.path.isfile(path):
            if not path.endswith(".py"):
                raise UsageError(f"not a Python file: {path} (give .py files or directories)")
            if out_abs is not None and os.path.dirname(src_abs) == out_abs:
                raise UsageError(f"-o {output} would overwrite {path}: pick another directory")
            plan.append((path, os.path.basename(path), True))
            continue
        base = os.path.basename(os.path.normpath(src_abs))
        if out_abs is not None and os.path.join(out_abs, base) == src_abs:
            raise UsageError(f"-o {output} would overwrite {path} itself: pick another directory")
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
            for name in sorted(files):
                if name.startswith(".") or name.endswith((".pyc", ".pyo")):
                    continue
                src = os.path.join(root, name)
                rel = os.path.join(base, os.path.relpath(src, path))
                plan.append((src, rel, name.endswith(".py")))
    unique, seen = [], {}
    for src, rel, is_python in plan:
        if rel in seen:
            if os.path.abspath(seen[rel]) != os.path.abspath(src):
                raise UsageError(f"{seen[rel]} and {src} would both be written to "
                                 f"{os.path.join(output or 'OUT', rel)}: convert them separately")
            continue  # the same file given twice
        seen[rel] = src
        unique.append((src, rel, is_python))
    return unique


class _Progress:
    """``[3/40] path`` on one updating stderr line, when asked for or when stderr is a tty."""

    def __init__(self, total: int, enabled: bool | None):
        if enabled is None:
            enabled = sys.stderr.isatty() and total > 1
        self.enabled, self.total, self.width = enabled, total, 0

    def step(self, i: int, path: str) -> None:
        if self.enabled:
            text = f"[{i}/{self.total}] {path}"
            pad = max(self.width - len(text), 0)
            self.width = len(text)
            sys.stderr.write("\r" + text + " " * pad)
            sys.stderr.flush()

    def done(self) -> None:
        if self.enabled and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()


def convert(args) -> int:
    if not args.output and not (args.check or args.diff):
        raise UsageError("convert needs -o OUT (or --check / --diff, which write nothing)")
    if args.check and args.output:
        raise UsageError("--check writes nothing: drop -o OUT")
    plan = _plan(args.paths, args.output)
    sources = [p for p in plan if p[2]]
    if not sources:
        raise UsageError("no Python files found in " + ", ".join(args.paths))
    writing = not (args.check or args.diff)
    progress = _Progress(len(sources), args.progress)
    texts: list[tuple[str, str, str]] = []
    errors: list[str] = []
    for src, rel, _ in sources:
        try:
            texts.append((src, rel, _read(src)))
        except OSError as e:
            errors.append(str(e))
    facts = _package_facts(texts) if args.wrap_all else PackageFacts()
    results: list[ModuleResult] = []
    for i, (src, rel, text) in enumerate(texts, 1):
        progress.step(i, src)
        ref = None
        if args.output:
            dst_dir = os.path.dirname(os.path.abspath(os.path.join(args.output, rel)))
            ref = os.path.relpath(os.path.abspath(src), dst_dir).replace(os.sep, "/")
        result = convert_module_source(text, src, wrap_all=args.wrap_all, original_ref=ref,
                                       facts=facts)
        results.append(result)
        if result.error:
            errors.extend(result.error.splitlines())
    progress.done()

    failed = [f for r in results for f in r.functions if f.status == "failed"]
    if args.diff:
        _print_diff(results)
    if args.check:
        for f in failed:
            print(f"{f.file}:{f.line}: {f.qualname}: cannot convert: {f.reason}")
        for e in errors:
            print(e)
    elif errors:
        for e in errors:
            print(e, file=sys.stderr)
    written = 0
    if writing and not errors:
        written = _write(plan, results, args.output)
    if not args.quiet:
        bad = (len(sources) - len(texts)) + sum(1 for r in results if r.error)
        _summary(results, errors, bad, args, written)
    if errors or (args.check and failed):
        return 1
    return 0


def _package_facts(texts) -> PackageFacts:
    """What ``--wrap-all`` must know about all the files converted together (which functions
    run at import time, which names are classes); files that do not parse are left out (they
    are reported when converted)."""
    import ast

    trees = []
    for src, _, text in texts:
        try:
            trees.append(ast.parse(text, src))
        except (SyntaxError, ValueError):
            continue
    return scan_package(trees)


def _print_diff(results: list[ModuleResult]) -> None:
    for r in results:
        if r.text is None or r.text == r.original:
            continue
        name = r.path.replace(os.sep, "/")
        sys.stdout.writelines(difflib.unified_diff(
            r.original.splitlines(True), r.text.splitlines(True), f"a/{name}", f"b/{name}"))


def _write(plan, results: list[ModuleResult], output: str) -> int:
    converted = {r.path: r.text for r in results}
    count = 0
    for src, rel, is_python in plan:
        dst = os.path.join(output, rel)
        os.makedirs(os.path.dirname(dst) or ".", exist_ok=True)
        if is_python:
            with open(dst, "w", encoding="utf-8") as f:
                f.write(converted[src])
        else:
            shutil.copy2(src, dst)
        count += 1
    return count


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _summary(results, errors, bad: int, args, written: int) -> None:
    stream = sys.stderr if args.diff else sys.stdout
    reports = [f for r in results for f in r.functions]
    converted = sum(1 for f in reports if f.status == "converted")
    wrapped = sum(1 for f in reports if f.wrapped)
    left = [f for f in reports if f.status != "converted"]
    verb = "checked" if args.check else "converted"
    line = (f"{verb} {_plural(len(results), 'file')}: {_plural(converted, 'function')} converted"
            + (f" ({wrapped} wrapped in tf.function)" if args.wrap_all else "")
            + f", {len(left)} left as {'it was' if len(left) == 1 else 'they were'}")
    print(line, file=stream)
    if not args.check:
        for f in reports:
            if f.status == "failed":
                print(f"  {f.file}:{f.line}: {f.qualname}: cannot convert: {f.reason}",
                      file=stream)
            elif f.status != "error" and f.reason:
                print(f"  {f}", file=stream)
    if errors:
        print(f"{_plural(bad, 'file')} could not be converted; nothing written"
              if not (args.check or args.diff) else f"{_plural(bad, 'file')} with errors",
              file=stream)
    elif written:
        print(f"wrote {_plural(written, 'file')} to {args.output}", file=stream)


# -- graph -----------------------------------------------------------------------------------------

def _import_target(target: Target):
    """Imports the module holding ``target`` (this runs the user's module: tracing needs it)."""
    if target.module is not None:
        sys.path.insert(0, os.getcwd())
        return importlib.import_module(target.module)
    path = os.path.abspath(target.path)
    directory, filename = os.path.split(path)
    parts = [] if filename == "__init__.py" else [filename[:-3]]
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        directory, package = os.path.split(directory)
        parts.insert(0, package)
    name = ".".join(parts)
    loaded = sys.modules.get(name)
    if name and all(p.isidentifier() for p in parts) and (
            loaded is None or os.path.abspath(getattr(loaded, "__file__", "") or "") == path):
        sys.path.insert(0, directory)
        return importlib.import_module(name)
    spec = importlib.util.spec_from_file_location("__autograph_target__", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _lookup(module, target: Target):
    obj = module
    for part in target.qualname.split("."):
        if not hasattr(obj, part):
            raise UsageError(f"{target.path} has no {target.qualname!r} "
                             f"({getattr(obj, '__name__', obj)!s} has no attribute {part!r})")
        owner, obj = obj, getattr(obj, part)
    if inspect.isclass(owner) and inspect.isfunction(inspect.getattr_static(owner, part)):
        raise UsageError(f"{target.qualname} is a method: graph traces module-level functions "
                         "(and staticmethods); call the method from a function to see its graph")
    return obj


_NO_DOT = ("--format svg needs Graphviz's `dot` program, which is not on PATH. Install "
           "Graphviz (Debian/Ubuntu: sudo apt-get install graphviz; macOS: brew install "
           "graphviz; conda: conda install -c conda-forge graphviz), or use --format dot and "
           "render the file elsewhere.")


def graph(args) -> int:
    target = parse_target(args.target)
    specs = [parse_spec(s) for s in args.spec]
    if args.format == "svg" and shutil.which("dot") is None:
        return _fail("graph", _NO_DOT)
    import autograph
    from runtime.function import Function

    # What the user's code prints while importing and tracing goes to stderr: stdout is the graph.
    try:
        with contextlib.redirect_stdout(sys.stderr):
            module = _import_target(target)
    except (Exception, SystemExit) as e:  # noqa: BLE001  (the user's module failed to import)
        return _fail("graph", f"cannot import {target.module or target.path}: "
                              f"{type(e).__name__}: {e}")
    fn = _lookup(module, target)
    if not isinstance(fn, Function):
        if not callable(fn):
            raise UsageError(f"{target.qualname} is not a function ({type(fn).__name__})")
        fn = autograph.function(fn)
    _check_arity(fn, specs, target)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            concrete = fn.get_concrete_function(*specs)
    except Exception as e:  # noqa: BLE001  (tracing the user's function failed: report it)
        return _fail("graph", f"tracing {target.qualname} failed: {type(e).__name__}: {e}")
    g = concrete.graph
    if args.optimize:
        from graph.passes import optimize
        g = optimize(g)
    from graph.printing import format_graph, to_dot

    if args.format == "text":
        data = format_graph(g).encode()
    elif args.format == "hlo":
        try:
            data = _hlo(concrete).encode()
        except (ImportError, ValueError) as e:  # no JAX, unknown shapes, unsupported ops
            return _fail("graph", f"cannot compile {target.qualname} with XLA: {e}")
    else:
        data = to_dot(g).encode()
        if args.format == "svg":
            done = subprocess.run(["dot", "-Tsvg"], input=data, capture_output=True)
            if done.returncode != 0:
                return _fail("graph", "dot failed: " + done.stderr.decode(errors="replace"))
            data = done.stdout
    if args.output:
        with open(args.output, "wb") as f:
            f.write(data)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    return 0


def _hlo(concrete) -> str:
    """The XLA program (HLO text) of a trace, compiled for zeros of its input shapes."""
    import numpy as np

    from graph.executor import compile_graph
    feeds = []
    for inp in concrete.optimized_graph.inputs:
        if not inp.shape.is_fully_defined():
            raise ValueError(f"input {inp.node.name} has shape {inp.shape}: give every "
                             "dimension in --spec for --format hlo")
        feeds.append(np.zeros(inp.shape.as_tuple(), inp.dtype.numpy_dtype))
    return compile_graph(concrete.optimized_graph, backend="xla").compiler_ir(feeds, "hlo")


def _check_arity(fn, specs, target: Target) -> None:
    if not specs and fn.input_signature is not None:
        return
    try:
        signature = inspect.signature(fn.python_function)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(*specs)
    except TypeError as e:
        raise UsageError(f"{target.qualname}{signature} cannot take {len(specs)} --spec "
                         f"value(s): {e}") from None
