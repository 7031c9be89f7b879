"""Converts a whole module file from its source text, without importing or running it.

The output is the user's file with each function and method replaced by its
converted twin, everything else (module docstring, imports, module-level
code, comments between definitions, class headers) kept byte for byte: the
file is edited as text, by line ranges, rather than regenerated, so that it
still reads like the user's module. Comments inside converted functions are
lost (the converter works on the syntax tree).

Each converted definition keeps its name and its decorators and gets one
more, innermost: ``@agm__.function`` (the converted function as
``tf.function`` would wrap the original) or ``@agm__.converted`` (only a
mark). The mark alone is used when the user's decorators already include
``tf.function``, with ``wrap=False``, and where a Function would not make
sense: properties, classmethods (usually alternative constructors, and a
Function must return tensors) and dunder methods other than ``__call__``.
Functions that must not or cannot be converted are left exactly as they
were and reported with the reason.
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
SUPPORT_ALIAS = "agm__"
# Converted, but not wrapped in tf.function: attribute access, and alternative constructors
# (a Function must return tensors, and these return objects).
_UNWRAPPED_DECORATORS = {"property", "setter", "getter", "deleter", "cached_property",
                         "classmethod"}
_CODING = re.compile(r"^[ \t\f]*#.*?coding[:=]")


@dataclass(frozen=True)
class FunctionReport:
    """What happened to one function or method."""

    file: str
    line: int
    qualname: str
    status: str          # "converted", "skipped" (kept on purpose) or "failed" (cannot convert)
    reason: str = ""

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}: {self.qualname}"
        return f"{text}: {self.reason}" if self.reason else text


@dataclass(frozen=True)
class ModuleResult:
    """One converted file: its new text (None when it could not be parsed) and what happened."""

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
            else:
                for name in ("body", "orelse", "finalbody"):
                    visit(getattr(node, name, None) or [], prefix, in_class)
                for handler in getattr(node, "handlers", None) or []:
                    visit(handler.body, prefix, in_class)

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


def _wraps(d: _Definition, aliases, wrap: bool) -> bool:
    """Whether the converted function gets ``tf.function``'s wrapper (else only the mark)."""
    if not wrap:
        return False
    name = d.node.name
    if d.in_class and name.startswith("__") and name.endswith("__") and name != "__call__":
        return False
    for expr in d.node.decorator_list:
        parts = _dotted(expr)
        if _is_tf_function(expr, aliases) or (parts and parts[-1] in _UNWRAPPED_DECORATORS):
            return False
    return True


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
    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.stmt)]


def _converted_block(d: _Definition, converted, indent: str, wrap: bool):
    """(lines of the new definition without decorators, {block line: original line})."""
    tree = converted.tree
    if isinstance(tree, (gast.FunctionDef, gast.AsyncFunctionDef)):
        tree = gast.gast_to_ast(tree)  # the stdlib unparser: plain, stable source for a module
    tree.name = d.node.name
    text = ast.unparse(tree) + "\n"
    reparsed = ast.parse(text)
    mapping = {}
    for gen, orig in zip(_statement_lines(reparsed), _statement_lines(tree)):
        mapping.setdefault(gen + 1, orig)  # +1: the decorator line added above the def
    marker = "function" if wrap else "converted"
    return [f"{indent}@{SUPPORT_ALIAS}.{marker}\n"] + \
        _indent(text, indent).splitlines(True), mapping


def _header_end(tree, lines: list[str]) -> int:
    """The number of leading lines to keep above the inserted imports: shebang and coding
    comments, the module docstring and ``from __future__`` imports."""
    end = 0
    for node in tree.body:
        is_doc = (isinstance(node, gast.Expr) and isinstance(node.value, gast.Constant)
                  and isinstance(node.value.value, str) and node is tree.body[0])
        if is_doc or (isinstance(node, gast.ImportFrom) and node.module == "__future__"):
            end = node.end_lineno
        else:
            break
    if end == 0:
        while end < min(2, len(lines)) and (lines[end].startswith("#!")
                                            or _CODING.match(lines[end])):
            end += 1
    return end


def convert_module_source(text: str, filename: str, wrap: bool = True,
                          original_ref: str | None = None) -> ModuleResult:
    """Converts module source ``text`` (read from ``filename``) into a converted module's source.

    ``original_ref`` is how the converted file should name the original in
    its source map (a path relative to the converted file's directory); None
    leaves the source map out.
    """
    from autograph.converter.module_source import convert_definition

    try:
        tree = parse_module(text, filename)
    except SyntaxError as e:
        return ModuleResult(filename, text, None,
                            error=f"{filename}:{e.lineno}: cannot parse: {e.msg}")
    names = module_names(tree)
    clash = names & {OPERATORS_ALIAS, SUPPORT_ALIAS}
    if clash:
        return ModuleResult(filename, text, None, error=(
            f"{filename}: the module defines {', '.join(sorted(clash))}, a name converted "
            "modules use for autograph; rename it"))
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
        try:
            converted = convert_definition(node, filename, names, d.qualname)
            wrapped = _wraps(d, aliases, wrap)
            indent = re.match(r"[ \t]*", lines[node.lineno - 1]).group(0)
            block, mapping = _converted_block(d, converted, indent, wrapped)
        except ConversionError as e:
            line, reason = _reason(e, node.lineno)
            reports.append(FunctionReport(filename, line, d.qualname, "failed", reason))
            continue
        except Exception as e:  # noqa: BLE001  (a converter bug must not stop the other files)
            reports.append(FunctionReport(
                filename, node.lineno, d.qualname, "failed",
                f"the converter failed ({type(e).__name__}: {e}); please report this"))
            continue
        edits.append((node.lineno, node.end_lineno, block, mapping, d.qualname))
        reports.append(FunctionReport(filename, node.lineno, d.qualname, "converted",
                                      "tf.function" if wrapped else ""))
    if not edits:
        return ModuleResult(filename, text, "".join(lines), tuple(reports))
    header = _header_end(tree, lines)
    out = lines[:header]
    origin = f" from {original_ref}" if original_ref else ""
    out.append(f"# Converted by `autograph convert`{origin}: edit the original, not this file.\n")
    out.append(f"from autograph import operators as {OPERATORS_ALIAS}\n")
    out.append(f"from autograph import converted_module as {SUPPORT_ALIAS}\n")
    blocks: list[tuple[str, int, list[int]]] = []
    pos = header
    for start, end, block, mapping, qualname in edits:
        out.extend(lines[pos:start - 1])  # decorators and everything before stay as they were
        blocks.append((qualname, len(out) + 1, _dense(mapping, len(block))))
        out.extend(block)
        pos = end
    out.extend(lines[pos:])
    if original_ref is not None:
        out.append(_source_map_call(original_ref, blocks))
    result = "".join(out)
    try:
        ast.parse(result, filename)
    except SyntaxError as e:  # a bug here, not the user's: say so rather than write it
        return ModuleResult(filename, text, None, tuple(reports), error=(
            f"{filename}: the converted module does not parse (line {e.lineno}: {e.msg}); "
            "please report this"))
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
    return ("\n# Where each converted line came from (errors and graph nodes point there).\n"
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
