"""The ``autograph`` command line (``python -m autograph`` is the same program).

Four commands: three ways of looking at converted code, and saved models:

- ``show``: the converted source of one function, read from the file;
- ``convert``: whole modules and packages into importable converted modules;
- ``graph``: trace one function for given input specs and print its graph;
- ``saved``: show a SavedModel or run one of its signatures (``cli_saved.py``).

``show`` and ``convert`` read source only: they never import or run the
user's code. ``graph`` has to run it (tracing calls the function), so it
imports the module. Exit status: 0 on success, 1 when the work failed (a
function cannot be converted, tracing raised), 2 for usage errors, which
are reported as one line on stderr.
"""
from __future__ import annotations

import argparse
import sys

from graph import __version__

EXAMPLES = """\
examples:
  autograph show examples/userpkg/core.py:squash
  autograph show userpkg.core:Accumulator.add
  autograph convert examples/userpkg -o build/        # then: PYTHONPATH=build python ...
  autograph convert examples/userpkg --check          # exit 1 if a graph function cannot convert
  autograph convert examples/userpkg -o build/ --wrap-all  # every function a tf.function
  autograph convert examples/userpkg/core.py --diff
  autograph graph examples/userpkg/core.py:squash --spec 'float32[None]'
  autograph graph mymod.py:f --spec 'int32[2, 3]' 3 --format dot --optimize
  autograph saved show export/
  autograph saved run export/ --signature serving_default --input x='[1.0, 2.0]'
"""

SPEC_HELP = ("input specs, one per positional argument: DTYPE[DIMS] such as float32[None] or "
             "int32[2, 3] (float32 or float32[] is a scalar, float32[...] has unknown rank), "
             "or a Python literal such as 3 or True for a non-tensor argument")


class _Parser(argparse.ArgumentParser):
    """argparse, with usage errors as one line on stderr (and exit status 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="autograph",
        description="Convert Python functions into staged graphs and look at the result.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"autograph {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    show = commands.add_parser(
        "show", help="print the converted source of one function or method",
        description="Print the converted source of one function or method (what "
                    "tf.autograph.to_code shows), read from the file without running it.",
        epilog="examples:\n  autograph show examples/userpkg/core.py:squash\n"
               "  autograph show userpkg.core:Accumulator.add",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    show.add_argument("target", metavar="PATH_OR_MODULE:FUNC",
                      help="file.py:func, file.py:Class.method or package.module:func")

    convert = commands.add_parser(
        "convert", help="convert modules and packages into importable converted modules",
        description=(
            "Convert every function and method of the given modules and packages. The output\n"
            "mirrors the input tree, imports and runs with only autograph installed, and binds\n"
            "exactly the names the original binds. The user's code is read, never imported\n"
            "or run; every file is compiled before anything is written.\n\n"
            "By default nothing is wrapped: functions you decorated with tf.function stay graph\n"
            "functions, every other function is converted in place and returns what it\n"
            "returned (call it from a tf.function to stage it). With --wrap-all each function\n"
            "behaves like the original decorated with tf.function. Generators, async\n"
            "functions and what cannot be converted stay as they are."),
        epilog="examples:\n  autograph convert examples/userpkg -o build/\n"
               "  autograph convert src/ --check\n  autograph convert mod.py --diff\n"
               "  autograph convert src/ -o build/ --wrap-all",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    convert.add_argument("paths", nargs="+", metavar="PATH",
                         help="a .py file or a directory (package) to convert")
    convert.add_argument("-o", "--output", metavar="OUT",
                         help="directory to write the converted tree into")
    mode = convert.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="convert and compile without writing; exit 1 listing every graph "
                           "function (decorated with tf.function, or any with --wrap-all) "
                           "that cannot be converted (file:line and reason)")
    mode.add_argument("--diff", action="store_true",
                      help="print a unified diff of what conversion would change; write nothing")
    wrapping = convert.add_mutually_exclusive_group()
    wrapping.add_argument("--wrap-all", dest="wrap_all", action="store_true",
                          help="wrap every function in tf.function, as if each were decorated "
                               "with it, except where that would break the module: "
                               "properties, classmethods, special methods, functions run at "
                               "import time (decorators, helpers called from module-level "
                               "code or class bodies) and functions returning functions, "
                               "classes or objects")
    wrapping.add_argument("--no-wrap", dest="wrap_all", action="store_false",
                          help="convert function bodies only, wrapping nothing but what you "
                               "decorated with tf.function (the default)")
    convert.add_argument("--progress", dest="progress", action="store_true", default=None,
                         help="show progress on stderr (default: when stderr is a terminal)")
    convert.add_argument("--no-progress", dest="progress", action="store_false")
    convert.add_argument("-q", "--quiet", action="store_true",
                         help="print only problems, no summary")

    graph = commands.add_parser(
        "graph", help="trace a function for given input specs and print its graph",
        description="Trace a function for the given input specs and print the graph. This "
                    "imports the module (tracing runs the function's Python code).",
        epilog="examples:\n  autograph graph examples/userpkg/core.py:squash --spec 'float32[None]'"
               "\n  autograph graph mod.py:f --spec 'int32[2, 3]' 3 --format svg -o f.svg",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    graph.add_argument("target", metavar="PATH_OR_MODULE:FUNC",
                       help="file.py:func or package.module:func")
    graph.add_argument("--spec", action="extend", nargs="+", default=[], metavar="SPEC",
                       help=SPEC_HELP)
    graph.add_argument("--format", choices=("text", "dot", "svg", "hlo"), default="text",
                       help="text: one line per node; dot: Graphviz source; svg: rendered by "
                            "Graphviz's dot; hlo: the XLA program jit_compile=True runs "
                            "(needs JAX and fully known shapes) (default: text)")
    graph.add_argument("--optimize", action="store_true",
                       help="run the graph optimization passes before printing")
    graph.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")

    from autograph.cli_saved import add_saved_parser
    add_saved_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    from autograph.cli_targets import UsageError

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        if args.command == "show":
            from autograph.cli_commands import show
            return show(args)
        if args.command == "convert":
            from autograph.cli_commands import convert
            return convert(args)
        if args.command == "saved":
            from autograph.cli_saved import saved
            return saved(args)
        from autograph.cli_commands import graph
        return graph(args)
    except UsageError as e:
        print(f"autograph {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"autograph {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
