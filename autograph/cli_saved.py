"""``autograph saved``: look into a SavedModel and run its signatures (``saved_model_cli``).

- ``autograph saved show DIR``: the signatures (inputs and outputs), the
  functions with the argument types they accept, and the variables, by path;
- ``autograph saved run DIR --signature NAME --input x=VALUE ...``: runs one
  signature and prints its outputs. VALUE is a Python literal (``[1, 2]``,
  ``3.5``, ``b"s"``; read with ``ast.literal_eval``, never evaluated as code)
  or ``@file.npy`` (read without pickle).

Loading a SavedModel reads data only: no user code is imported or run.
Exit status: 0 on success, 1 when loading or running failed, 2 for usage
errors (one line on stderr).
"""
from __future__ import annotations

import argparse
import ast
import sys

import numpy as np


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def add_saved_parser(commands) -> argparse.ArgumentParser:
    """Adds ``saved show`` and ``saved run`` to the subcommands of the main parser."""
    saved = commands.add_parser(
        "saved", help="show or run a SavedModel (tf.saved_model.save output)",
        description="Look into a SavedModel directory, or run one of its signatures. Loading "
                    "reads data only; no Python code from the model is run.",
        epilog="examples:\n  autograph saved show export/\n"
               "  autograph saved run export/ --input x='[1.0, 2.0]'\n"
               "  autograph saved run export/ --signature two --input x=@x.npy",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _fill(saved)
    return saved


def _fill(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="saved_command", metavar="ACTION",
                                    parser_class=_Parser)
    show = actions.add_parser("show", help="list signatures, functions and variables")
    show.add_argument("dir", metavar="DIR", help="the SavedModel directory")
    run = actions.add_parser("run", help="run one signature on the given inputs")
    run.add_argument("dir", metavar="DIR", help="the SavedModel directory")
    run.add_argument("--signature", default="serving_default", metavar="NAME",
                     help="the signature to run (default: serving_default)")
    run.add_argument("--input", action="append", default=[], metavar="NAME=VALUE",
                     help="one input: a Python literal, or @file.npy")


def saved(args) -> int:
    """Runs ``autograph saved ...`` (parsed by ``add_saved_parser``)."""
    if args.saved_command is None:
        print("autograph saved: error: choose an action: show or run (see autograph saved "
              "--help)", file=sys.stderr)
        return 2
    try:
        inputs = _parse_inputs(args.input) if args.saved_command == "run" else {}
    except ValueError as e:
        print(f"autograph saved {args.saved_command}: error: {e}", file=sys.stderr)
        return 2
    from runtime import saved_model
    try:
        loaded = saved_model.load(args.dir)
    except (OSError, ValueError, LookupError) as e:
        print(f"autograph saved {args.saved_command}: error: {e}", file=sys.stderr)
        return 1
    if args.saved_command == "show":
        print(show_text(args.dir, loaded), end="")
        return 0
    return _run(loaded, args.signature, inputs)


# -- show ---------------------------------------------------------------------------------------

def show_text(directory: str, loaded) -> str:
    lines = [f"SavedModel at {directory}", "", "Signatures:"]
    signatures = loaded.signatures
    if not signatures:
        lines.append("  (none)")
    for name, sig in signatures.items():
        lines.append(f"  {name}:")
        lines.append("    inputs:")
        for spec in sig.inputs:
            lines.append(f"      {spec.name}: {_type(spec)}")
        lines.append("    outputs:")
        for out, spec in sig.structured_outputs.items():
            lines.append(f"      {out}: {_type(spec)}")
    functions, variables = _walk(loaded)
    lines += ["", "Functions:"]
    lines += [f"  {path}({args})" for path, fn in functions
              for args in _trace_arguments(fn)] or ["  (none)"]
    lines += ["", "Variables:"]
    lines += [f"  {path}: {_type(v)}{'' if v.trainable else ' (not trainable)'}"
              for path, v in variables] or ["  (none)"]
    return "\n".join(lines) + "\n"


def _type(spec) -> str:
    shape = spec.shape
    dims = "..." if shape.rank is None else ", ".join(
        "?" if d is None else str(d) for d in shape.as_tuple())
    return f"{spec.dtype.name}[{dims}]"


def _trace_arguments(fn) -> list[str]:
    out = []
    for trace in fn._saved_traces:
        pairs = list(zip(trace.arg_names, trace.args)) + list(trace.kwargs)
        parts = [f"{n}: {_describe(s)}" if _has_tensors(s) else f"{n}={s!r}" for n, s in pairs]
        out.append(", ".join(parts))
    return out


def _has_tensors(structure) -> bool:
    if isinstance(structure, (list, tuple)):
        return any(_has_tensors(s) for s in structure)
    if isinstance(structure, dict):
        return any(_has_tensors(s) for s in structure.values())
    return hasattr(structure, "dtype") and hasattr(structure, "shape")


def _describe(structure) -> str:
    if hasattr(structure, "dtype") and hasattr(structure, "shape"):
        return _type(structure)
    if isinstance(structure, (list, tuple)):
        inner = ", ".join(_describe(s) for s in structure)
        return f"[{inner}]" if isinstance(structure, list) else f"({inner})"
    if isinstance(structure, dict):
        return "{" + ", ".join(f"{k!r}: {_describe(v)}" for k, v in structure.items()) + "}"
    return repr(structure)


def _walk(root):
    """(path, function) and (path, variable) pairs of the loaded tree, each object once."""
    from runtime.module import trackable_children
    from runtime.saved_model.restored import RestoredFunction
    from runtime.trace_type import is_variable
    functions, variables, seen = [], [], set()

    def visit(obj, path: str):
        if id(obj) in seen:
            return
        seen.add(id(obj))
        if is_variable(obj):
            variables.append((path, obj))
            return
        attrs = getattr(obj, "__dict__", {})
        for name in sorted(attrs):
            if isinstance(attrs[name], RestoredFunction):
                functions.append((f"{path}.{name}" if path else name, attrs[name]))
        for name, child in trackable_children(obj).items():
            visit(child, f"{path}.{name}" if path else name)

    visit(root, "")
    return functions, variables


# -- run ----------------------------------------------------------------------------------------

def _parse_inputs(items: list[str]) -> dict:
    inputs = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name:
            raise ValueError(f"--input {item!r} should be NAME=VALUE")
        if name in inputs:
            raise ValueError(f"input {name!r} is given twice")
        if text.startswith("@"):
            try:
                inputs[name] = np.load(text[1:], allow_pickle=False)
            except (OSError, ValueError) as e:
                raise ValueError(f"input {name!r}: cannot read {text[1:]}: {e}") from None
        else:
            try:
                inputs[name] = ast.literal_eval(text)
            except (ValueError, SyntaxError):
                raise ValueError(f"input {name!r}: {text!r} is not a Python literal (a number, "
                                 "string, bytes, or a nested list of these) nor @file.npy") \
                    from None
    return inputs


def _run(loaded, name: str, inputs: dict) -> int:
    from runtime.ops.core import convert_to_tensor
    signature = loaded.signatures.get(name)
    if signature is None:
        print(f"autograph saved run: error: no signature {name!r}; the SavedModel has "
              f"{sorted(loaded.signatures) or 'none'}", file=sys.stderr)
        return 2
    specs = {s.name: s for s in signature.inputs}
    unknown = sorted(set(inputs) - set(specs))
    missing = [n for n in specs if n not in inputs]
    if unknown or missing:
        print(f"autograph saved run: error: signature {name!r} takes inputs {list(specs)}"
              + (f"; unknown {unknown}" if unknown else "")
              + (f"; missing {missing}" if missing else ""), file=sys.stderr)
        return 2
    try:
        feeds = {n: convert_to_tensor(np.asarray(v).astype(specs[n].dtype.numpy_dtype)
                                      if specs[n].dtype.name != "string" else v,
                                      dtype=specs[n].dtype) for n, v in inputs.items()}
        results = signature(**feeds)
    except (TypeError, ValueError, LookupError, ArithmeticError) as e:
        print(f"autograph saved run: error: {e}", file=sys.stderr)
        return 1
    for out in sorted(results):
        print(f"{out}: {results[out]!r}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m autograph.cli_saved ...``: the same as ``autograph saved ...``."""
    parser = _Parser(prog="autograph saved", description=__doc__.splitlines()[0],
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    _fill(parser)
    return saved(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
