"""Converts a whole module file from its source text, without importing or running it.

The output is the user's file with each function and method replaced by its
converted twin, everything else (module docstring, imports, module-level
code, comments between definitions, class headers) kept byte for byte: the
file is edited as text, by line ranges, rather than regenerated, so that it
still reads like the user's module. Comments inside converted functions are
lost (the converter works on the syntax tree); docstrings stay first, so
``__doc__`` and doctests are unchanged.

Each converted definition keeps its name and its decorators and gets one
more, innermost: ``@_agm__.converted`` (a mark: run as it is, never convert
again) or, with ``wrap_all``, ``@_agm__.function`` (the converted function as
``tf.function`` would wrap the original). By default nothing is wrapped: the
functions the user decorated with ``tf.function`` keep that decorator and
are graph functions as before, every other function is converted in place
and still returns what it returned (``tf.function`` would turn Python
results into tensors). ``wrap_all`` wraps every function except where a
Function would break the module: properties, classmethods, dunder methods
other than ``__call__``, functions that run while the package is imported
(decorators, helpers called from module-level code or class bodies, and
what they call) and functions that return functions, classes or objects.

The module gains no name: ``vars(m)``, ``dir(m)``, ``from m import *`` and
``__all__`` are exactly the original's. ``_agm__`` is bound for the
decorators and the source map only, and deleted at the end of the module
(while the module runs it is private: ``import *`` of a half-imported
module and ``[n for n in globals() if not n.startswith("_")]`` skip it); a
converted function body that calls ``ag__.*`` imports the operators as a
local (``import autograph.operators as ag__``, ~0.2 µs per call), right
after its docstring. A function's defaults and annotations are the
original's expressions (they run in the module, where ``ag__`` is unbound).

Functions that must not or cannot be converted are left exactly as they
were and reported with the reason. Generators and async functions cannot
be staged: left as they are, they behave exactly as before, so this is an
error only for a function meant to be a graph (decorated with
``tf.function``, or wrapped by ``wrap_all``). A converter crash, or output
that does not compile, is an error naming the function and its line.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass, field

import gast

from autograph.errors import ConversionError

OPERATORS_ALIAS = "ag__"
SUPPORT_ALIAS = "_agm__"
OPERATORS_MODULE = "autograph.operators"
# Converted, but not wrapped in tf.function: attribute access, and alternative constructors
# (a Function must return tensors, and these return objects).
_UNWRAPPED_DECORATORS = {"property", "setter", "getter", "deleter", "cached_property",
                         "classmethod"}
# Methods that run when their class is instantiated.
_CONSTRUCTORS = ("__init__", "__new__", "__post_init__")
_CODING = re.compile(r"^[ \t\f]*#.*?coding[:=]")


@dataclass(frozen=True)
class FunctionReport:
    """What happened to one function or method."""

    file: str
    line: int
    qualname: str
    # "converted"; "skipped" (left as it was, nothing changes); "failed" (meant to be a graph
    # function, cannot convert: left as it was); "error" (the converter failed: a bug)
    status: str
    reason: str = ""
    wrapped: bool = False   # converted and wrapped in tf.function by ``_agm__.function``

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}: {self.qualname}"
        return f"{text}: {self.reason}" if self.reason else text


@dataclass(frozen=True)
class ModuleResult:
    """One converted file: its new text (None when it could not be converted) and what happened.

    ``error`` (one line per problem) is set when the file must not be written: it does
    not parse or compile, or the converter failed on one of its functions.
    """

    path: str
    original: str
    text: str | None
    functions: tuple[FunctionReport, ...] = ()
    error: str | None = None

    def count(self, status: str) -> int:
        return sum(1 for f in self.functions if f.status == status)


@dataclass
class _Definition:
    node: gast.AST
    qualname: str
    in_class: bool
    decorators: list = field(default_factory=list)


@dataclass(frozen=True)
class PackageFacts:
    """What ``wrap_all`` needs to know about all the modules converted together.

    ``import_time``: names of functions and methods that may run while the modules are
    imported (decorators, functions called from module-level code or class bodies, the
    constructors of classes instantiated there, and everything those call, by name);
    ``decorators``: names used as decorators (part of ``import_time``); ``classes``: names
    of the classes the modules define.
    """

    import_time: frozenset = frozenset()
    decorators: frozenset = frozenset()
    classes: frozenset = frozenset()


# -- finding definitions -----------------------------------------------------------------------

def parse_module(text: str, filename: str) -> gast.Module:
    """The file's gast tree; a SyntaxError names file:line."""
    return gast.parse(text, filename)


def definitions(tree) -> list[_Definition]:
    """Every module-level function and every method (also under ``if``/``try`` at module level,
    and in nested classes), in file order. Functions inside functions convert with their
    enclosing function."""
    out: list[_Definition] = []

    def visit(stmts, prefix: str, in_class: bool):
        for node in stmts:
            if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)):
                out.append(_Definition(node, prefix + node.name, in_class))
            elif isinstance(node, gast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.", True)
            else:  # in file order: a try's handlers come before its else and finally
                visit(getattr(node, "body", None) or [], prefix, in_class)
                for handler in getattr(node, "handlers", None) or []:
                    visit(handler.body, prefix, in_class)
                for name in ("orelse", "finalbody"):
                    visit(getattr(node, name, None) or [], prefix, in_class)

    visit(tree.body, "", False)
    return out


def find_definition(tree, qualname: str):
    """The ``def`` node of ``qualname`` (``f`` or ``Class.method``), or None."""
    for d in definitions(tree):
        if d.qualname == qualname:
            return d.node
    return None


def module_names(tree) -> set[str]:
    """Names the module binds at top level (assignments, defs, classes, imports)."""
    names = set()
    stack = list(tree.body)
    while stack:
        sub = stack.pop()
        if isinstance(sub, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            names.add(sub.name)  # their bodies bind their own names, not the module's
            continue
        if isinstance(sub, gast.Lambda):
            continue
        if isinstance(sub, gast.Name) and isinstance(sub.ctx, gast.Store):
            names.add(sub.id)
        elif isinstance(sub, gast.alias):
            names.add(sub.asname or sub.name.split(".")[0])
        stack.extend(gast.iter_child_nodes(sub))
    return names


def _autograph_aliases(tree) -> tuple[set[str], set[str]]:
    """(names bound to the autograph package, names bound to autograph's ``function``)."""
    modules, functions = set(), set()
    for node in gast.walk(tree):
        if isinstance(node, gast.Import):
            for a in node.names:
                if a.name == "autograph":
                    modules.add(a.asname or "autograph")
        elif isinstance(node, gast.ImportFrom) and (node.module or "").startswith("autograph") \
                and not node.level:
            for a in node.names:
                if a.name == "function":
                    functions.add(a.asname or a.name)
    return modules, functions


def _dotted(expr) -> list[str]:
    if isinstance(expr, gast.Call):
        expr = expr.func
    parts = []
    while isinstance(expr, gast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if isinstance(expr, gast.Name):
        parts.append(expr.id)
        return parts[::-1]
    return []


def _is_tf_function(expr, aliases) -> bool:
    modules, functions = aliases
    parts = _dotted(expr)
    if len(parts) == 1:
        return parts[0] in functions
    return len(parts) >= 2 and parts[-1] == "function" and parts[0] in modules


def _autograph_disabled(expr) -> bool:
    return isinstance(expr, gast.Call) and any(
        k.arg == "autograph" and isinstance(k.value, gast.Constant) and k.value.value is False
        for k in expr.keywords)


def _skip_reason(d: _Definition, aliases) -> str | None:
    for expr in d.node.decorator_list:
        parts = _dotted(expr)
        if parts and parts[-1] == "do_not_convert":
            return "marked do_not_convert"
        if _is_tf_function(expr, aliases) and _autograph_disabled(expr):
            return "tf.function(autograph=False)"
    return None


def _decorated_with_tf_function(d: _Definition, aliases) -> bool:
    return any(_is_tf_function(expr, aliases) for expr in d.node.decorator_list)


# -- which functions a Function would break (``wrap_all``) ----------------------------------------

def _callee(expr) -> str | None:
    """The name a call or decorator expression calls: ``f`` for ``f(...)``, ``a.b.f(...)``,
    ``@f`` and ``@a.f``."""
    if isinstance(expr, ast.Call):
        expr = expr.func
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        return expr.attr
    return None


def _called(nodes) -> set[str]:
    """Names called in ``nodes``, and names passed to calls (callbacks: ``sorted(k=f)``)."""
    out = set()
    for node in nodes:
        if node is None:
            continue
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                out.add(_callee(sub.func))
                out.update(_callee(a) for a in [*sub.args, *(k.value for k in sub.keywords)]
                           if isinstance(a, (ast.Name, ast.Attribute)))
    out.discard(None)
    return out


def _is_main_guard(stmt) -> bool:
    """``if __name__ == "__main__":`` (runs when the module is a script, not on import)."""
    test = getattr(stmt, "test", None)
    return (isinstance(stmt, ast.If) and isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name) and test.left.id == "__name__"
            and len(test.comparators) == 1 and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value == "__main__")


def scan_package(trees) -> PackageFacts:
    """``PackageFacts`` of stdlib ``ast`` module trees converted together.

    Calls are followed by name only (``x.f()`` counts as a call of every ``f``): a name
    too many only means a function converted in place instead of wrapped.
    """
    calls: dict[str, set[str]] = {}
    roots: set[str] = set()
    decorators: set[str] = set()
    classes: set[str] = set()

    def function(node, owner):
        roots.update(_called(node.decorator_list + node.args.defaults
                             + [d for d in node.args.kw_defaults if d is not None]))
        decorators.update(filter(None, map(_callee, node.decorator_list)))  # @deco calls deco
        body = _called(node.body)
        calls.setdefault(node.name, set()).update(body)
        if owner is not None and node.name in _CONSTRUCTORS:
            calls.setdefault(owner, set()).update(body)

    def statements(stmts, owner):
        for stmt in stmts:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                function(stmt, owner)
            elif isinstance(stmt, ast.ClassDef):
                classes.add(stmt.name)
                roots.update(_called(stmt.decorator_list + stmt.bases
                                     + [k.value for k in stmt.keywords]))
                decorators.update(filter(None, map(_callee, stmt.decorator_list)))
                statements(stmt.body, stmt.name)
            elif _is_main_guard(stmt):
                statements(stmt.orelse, owner)
            else:
                for value in ast.iter_fields(stmt):
                    value = value[1]
                    for item in value if isinstance(value, list) else [value]:
                        if isinstance(item, ast.stmt):
                            statements([item], owner)
                        elif isinstance(item, ast.excepthandler):
                            roots.update(_called([item.type]))
                            statements(item.body, owner)
                        elif isinstance(item, getattr(ast, "match_case", ())):
                            roots.update(_called([item.guard]))
                            statements(item.body, owner)
                        elif isinstance(item, ast.AST):
                            roots.update(_called([item]))

    for tree in trees:
        statements(tree.body, None)
    seen: set[str] = set()
    stack = list(roots | decorators)
    while stack:
        name = stack.pop()
        if name not in seen:
            seen.add(name)
            stack.extend(calls.get(name, ()))
    return PackageFacts(frozenset(seen), frozenset(decorators), frozenset(classes))


_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)


def _own_scope(node):
    """The nodes of a function's body outside nested functions, lambdas and classes (the
    nested definitions themselves are included)."""
    stack = list(node.body)
    while stack:
        sub = stack.pop()
        yield sub
        if not isinstance(sub, _SCOPES):
            stack.extend(gast.iter_child_nodes(sub))


def _unstageable(node) -> str | None:
    """Why ``node`` can never be staged (it then stays as it is), or None."""
    if isinstance(node, gast.AsyncFunctionDef):
        return "an async function"
    if any(isinstance(n, (gast.Yield, gast.YieldFrom)) for n in _own_scope(node)):
        return "a generator function"
    return None


def _returns_object(d: _Definition, classes) -> str | None:
    """Why ``d`` returns something a Function cannot (a function, a class, an object), or
    None when nothing says so."""
    nested = {n.name for n in _own_scope(d.node)
              if isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef))}
    params = d.node.args.posonlyargs + d.node.args.args
    self_name = params[0].id if d.in_class and params else None
    for n in _own_scope(d.node):
        if not isinstance(n, gast.Return) or n.value is None:
            continue
        value = n.value
        if isinstance(value, gast.Lambda):
            return "returns a lambda"
        if isinstance(value, gast.Name) and value.id in nested:
            return f"returns {value.id}, defined inside it"
        if isinstance(value, gast.Name) and value.id == self_name:
            return f"returns {self_name}"
        parts = _dotted(value) if isinstance(value, gast.Call) else []
        if parts and parts[-1] in classes:
            return f"returns a {parts[-1]} object"
    return None


def _wrapping(d: _Definition, aliases, wrap_all: bool, facts: PackageFacts) -> tuple[bool, str]:
    """(whether the converted function gets ``tf.function``'s wrapper, why not when
    ``wrap_all`` asked for it)."""
    if not wrap_all or _decorated_with_tf_function(d, aliases):
        return False, ""
    name = d.node.name
    if d.in_class and name.startswith("__") and name.endswith("__") and name != "__call__":
        return False, ""  # not worth a line in the summary: documented
    for expr in d.node.decorator_list:
        parts = _dotted(expr)
        if parts and parts[-1] in _UNWRAPPED_DECORATORS:
            return False, ""
    if name in facts.decorators:
        return False, "used as a decorator"
    if name in facts.import_time:
        return False, "may run while the module is imported"
    why = _returns_object(d, facts.classes)
    if why is not None:
        return False, why
    return True, ""


# -- emitting ------------------------------------------------------------------------------------

def _indent(text: str, prefix: str) -> str:
    """``text`` with ``prefix`` before every line, except lines inside multi-line strings
    (indenting those would change the strings)."""
    if not prefix:
        return text
    inside: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.STRING and tok.end[0] > tok.start[0]:
            inside.update(range(tok.start[0] + 1, tok.end[0] + 1))
    lines = text.splitlines(True)
    return "".join(line if (i in inside or not line.strip()) else prefix + line
                   for i, line in enumerate(lines, 1))


def _statement_lines(tree) -> list[int]:
    """The line of each statement (0 for one the converter left without a location)."""
    return [getattr(n, "lineno", None) or 0 for n in ast.walk(tree) if isinstance(n, ast.stmt)]


def _docstring_lines(node) -> dict[tuple[str, int], int]:
    """(name, line) of each function and class in ``node`` (a gast def, itself included)
    that has a docstring → the docstring's line."""
    out = {}
    for sub in gast.walk(node):
        if isinstance(sub, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)) \
                and sub.body and _is_string_statement(sub.body[0]):
            out[(sub.name, sub.lineno)] = sub.body[0].lineno
    return out


def _is_string_statement(stmt) -> bool:
    value = getattr(stmt, "value", None)
    return (isinstance(stmt, (ast.Expr, gast.Expr)) and isinstance(value, (ast.Constant,
                                                                            gast.Constant))
            and isinstance(value.value, str))


def _docstrings_first(tree: ast.FunctionDef, original) -> None:
    """Puts each docstring of ``original`` back first in its function (converter passes may
    insert statements above it, which makes it a plain string statement): moving a string
    statement changes nothing else."""
    docs = _docstring_lines(original)
    top = (original.name, original.lineno)
    for sub in ast.walk(tree):
        if not isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        line = docs.get(top if sub is tree else (sub.name, getattr(sub, "lineno", None)))
        if line is None or not sub.body or _is_string_statement(sub.body[0]):
            continue
        for i, stmt in enumerate(sub.body):
            if _is_string_statement(stmt) and getattr(stmt, "lineno", None) == line:
                sub.body.insert(0, sub.body.pop(i))
                break


def _uses_operators(tree) -> bool:
    return any(isinstance(n, ast.Name) and n.id == OPERATORS_ALIAS for n in ast.walk(tree))


def _converted_block(d: _Definition, converted, indent: str, wrap: bool):
    """(lines of the new definition without decorators, {block line: original line})."""
    tree = converted.tree
    if isinstance(tree, (gast.FunctionDef, gast.AsyncFunctionDef)):
        tree = gast.gast_to_ast(tree)  # the stdlib unparser: plain, stable source for a module
    tree.name = d.node.name
    # The signature as written: defaults and annotations run once, when the module defines
    # the function, in the module's scope (where ``ag__`` is not bound), so they must stay
    # the user's own expressions (the runtime path never runs them: it reuses __defaults__).
    tree.args = gast.gast_to_ast(d.node.args)
    tree.returns = gast.gast_to_ast(d.node.returns) if d.node.returns is not None else None
    _docstrings_first(tree, d.node)
    if _uses_operators(tree):
        # A local, not a module global: the converted module binds no name the original
        # does not. After the docstring, so that it stays the docstring.
        load = ast.Import(names=[ast.alias(name=OPERATORS_MODULE, asname=OPERATORS_ALIAS)])
        ast.copy_location(load, tree)
        tree.body.insert(1 if _is_string_statement(tree.body[0]) else 0, load)
    text = ast.unparse(tree) + "\n"
    reparsed = ast.parse(text)
    mapping = {}
    for gen, orig in zip(_statement_lines(reparsed), _statement_lines(tree)):
        if orig:
            mapping.setdefault(gen + 1, orig)  # +1: the decorator line added above the def
    marker = "function" if wrap else "converted"
    return [f"{indent}@{SUPPORT_ALIAS}.{marker}\n"] + \
        _indent(text, indent).splitlines(True), mapping


def _header_end(tree, lines: list[str]) -> int:
    """The number of leading lines to keep above the inserted import: shebang and coding
    comments, the module docstring and ``from __future__`` imports."""
    end = 0
    for node in tree.body:
        is_doc = node is tree.body[0] and _is_string_statement(node)
        if is_doc or (isinstance(node, gast.ImportFrom) and node.module == "__future__"):
            end = node.end_lineno
        else:
            break
    if end == 0:
        while end < min(2, len(lines)) and (lines[end].startswith("#!")
                                            or _CODING.match(lines[end])):
            end += 1
    return end


def _compile_error(text: str, filename: str) -> SyntaxError | None:
    try:
        compile(text, filename, "exec", dont_inherit=True)
    except SyntaxError as e:
        return e
    except ValueError as e:  # null bytes
        return SyntaxError(str(e), (filename, 1, 0, ""))
    return None


def convert_module_source(text: str, filename: str, wrap_all: bool = False,
                          original_ref: str | None = None,
                          facts: PackageFacts | None = None) -> ModuleResult:
    """Converts module source ``text`` (read from ``filename``) into a converted module's source.

    ``wrap_all`` wraps every function that a Function would not break in
    ``tf.function`` (``facts``: what the other modules converted with this one
    say about that; by default this module alone). ``original_ref`` is how
    the converted file should name the original in its source map (a path
    relative to the converted file's directory); None leaves the source map
    out. The result is compiled: ``error`` says why it cannot be written.
    """
    from autograph.converter.module_source import convert_definition

    try:
        tree = parse_module(text, filename)
    except SyntaxError as e:
        return ModuleResult(filename, text, None,
                            error=f"{filename}:{e.lineno}: cannot parse: {e.msg}")
    problem = _compile_error(text, filename)
    if problem is not None:
        return ModuleResult(filename, text, None,
                            error=f"{filename}:{problem.lineno}: cannot compile: {problem.msg}")
    names = module_names(tree)
    clash = names & {OPERATORS_ALIAS, SUPPORT_ALIAS}
    if clash:
        return ModuleResult(filename, text, None, error=(
            f"{filename}: the module defines {', '.join(sorted(clash))}, a name converted "
            "modules use for autograph; rename it"))
    if facts is None:
        facts = scan_package([ast.parse(text, filename)]) if wrap_all else PackageFacts()
    aliases = _autograph_aliases(tree)
    lines = text.splitlines(True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    reports, edits = [], []
    for d in definitions(tree):
        node = d.node
        skip = _skip_reason(d, aliases)
        if skip is not None:
            reports.append(FunctionReport(filename, node.lineno, d.qualname, "skipped", skip))
            continue
        wrapped, not_wrapped = _wrapping(d, aliases, wrap_all, facts)
        graph_function = wrapped or _decorated_with_tf_function(d, aliases)
        kind = _unstageable(node)
        if kind is not None and not graph_function:
            reports.append(FunctionReport(filename, node.lineno, d.qualname, "skipped",
                                          f"{kind}: it stays plain Python"))
            continue
        try:
            converted = convert_definition(node, filename, names, d.qualname)
            indent = re.match(r"[ \t]*", lines[node.lineno - 1]).group(0)
            block, mapping = _converted_block(d, converted, indent, wrapped)
        except ConversionError as e:
            line, reason = _reason(e, node.lineno)
            if graph_function:
                reports.append(FunctionReport(filename, line, d.qualname, "failed", reason))
            else:  # as it was, it runs as it did: unconverted, also under tf.function
                reports.append(FunctionReport(filename, line, d.qualname, "skipped",
                                              f"stays plain Python: {reason}"))
            continue
        except Exception as e:  # noqa: BLE001  (a converter bug: report it, write nothing)
            reports.append(FunctionReport(
                filename, node.lineno, d.qualname, "error",
                f"the converter failed ({type(e).__name__}: {e}); please report this"))
            continue
        edits.append((node.lineno, node.end_lineno, block, mapping, d.qualname))
        reason = f"not wrapped in tf.function: {not_wrapped}" if not_wrapped else ""
        reports.append(FunctionReport(filename, node.lineno, d.qualname, "converted", reason,
                                      wrapped=wrapped))
    errors = [str(r) for r in reports if r.status == "error"]
    if errors:
        return ModuleResult(filename, text, None, tuple(reports), error="\n".join(errors))
    if not edits:
        return ModuleResult(filename, text, "".join(lines), tuple(reports))
    header = _header_end(tree, lines)
    out = lines[:header]
    origin = f" from {original_ref}" if original_ref else ""
    out.append(f"# Converted by `autograph convert`{origin}: edit the original, not this file.\n")
    out.append(f"from autograph import converted_module as {SUPPORT_ALIAS}  "
               f"# deleted at the end\n")
    # The source map comes first, so that it holds while the module runs: errors, graph
    # nodes and traceback twins raised by its functions point at the user's lines even when
    # those functions run while the module is still being imported. Its rows are one line
    # per converted function: how many lines it takes is known before it is written.
    map_at = len(out)
    map_lines = 3 + len(edits) if original_ref is not None else 0
    blocks: list[tuple[str, int, list[int]]] = []
    spans: list[tuple[int, int, str, int]] = []  # (first, last output line, qualname, def line)
    pos = header
    for start, end, block, mapping, qualname in sorted(edits, key=lambda e: e[0]):
        out.extend(lines[pos:start - 1])  # decorators and everything before stay as they were
        first = len(out) + map_lines + 1
        blocks.append((qualname, first, _dense(mapping, len(block))))
        spans.append((first, first + len(block) - 1, qualname, start))
        out.extend(block)
        pos = end
    out.extend(lines[pos:])
    if original_ref is not None:
        source_map = _source_map_call(original_ref, blocks)
        assert source_map.count("\n") == map_lines, source_map
        out.insert(map_at, source_map)
    trailer = f"del {SUPPORT_ALIAS}  # a converted module binds the original's names only\n"
    # (a module run as a program may have cleared its own namespace by now, as pdb does; and
    # `try`, not `globals()`: a package's `from .globals import x` binds the name `globals`)
    out.append(f"try:\n    {SUPPORT_ALIAS}\nexcept NameError:\n    pass\nelse:\n"
               + "".join(f"    {line}" if line.strip() else line
                         for line in trailer.splitlines(True)))
    result = "".join(out)
    problem = _compile_error(result, filename)
    if problem is not None:  # a bug here, not the user's: say so rather than write it
        where = next(((q, line) for first, last, q, line in spans
                      if first <= (problem.lineno or 0) <= last), None)
        if where is None:
            message = (f"{filename}: the converted module does not compile (line "
                       f"{problem.lineno}: {problem.msg}); please report this")
        else:
            qualname, line = where
            reason = (f"the converted code does not compile ({problem.msg}, line "
                      f"{problem.lineno} of the converted module); please report this")
            message = f"{filename}:{line}: {qualname}: {reason}"
            reports = [FunctionReport(r.file, r.line, r.qualname, "error", reason)
                       if r.qualname == qualname and r.status == "converted" else r
                       for r in reports]
        return ModuleResult(filename, text, None, tuple(reports), error=message)
    return ModuleResult(filename, text, result, tuple(reports))


def _dense(mapping: dict[int, int], length: int) -> list[int]:
    """Original line for each line of a block: a line without a statement of its own (a
    continuation, a blank) takes the line of the statement above it."""
    out, last = [], 0
    for line in range(1, length + 1):
        last = mapping.get(line, last)
        out.append(last)
    return out


def _source_map_call(original_ref: str, blocks) -> str:
    rows = []
    for qualname, first, lines in blocks:
        rows.append(f"    ({qualname!r}, {first}, {lines!r}),")
    return ("# Where each converted line came from (errors, graph nodes and tracebacks "
            "point there).\n"
            f"{SUPPORT_ALIAS}.source_map(__file__, {original_ref!r}, [\n" + "\n".join(rows)
            + "\n])\n")


def _reason(error: ConversionError, line: int) -> tuple[int, str]:
    """(the line the converter blames, its message on one line without the location)."""
    text = str(error).strip()
    message = text.splitlines()[0] if text else type(error).__name__
    match = re.match(r"^.*?:(\d+) in [\w.<>]+: ", message)
    if match:
        return int(match.group(1)), message[match.end():]
    return line, message
