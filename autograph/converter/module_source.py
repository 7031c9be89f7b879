"""Converts a function given as a parsed definition, not as a live function object.

``conversion.convert_function`` starts from a function object (it finds the
source with ``inspect``). Converting a user's module from the command line
must not import or run it, so this entry point starts from a ``def`` node
of a parsed file instead, and runs the very same passes, in the same order
(``conversion.PASSES``). Line numbers are the file's own, so the user's
file:line appear in errors unchanged. ``tests/test_cli.py`` checks that the
result is exactly what ``to_code`` gives for the same function, so the two
entry points cannot drift apart unnoticed.
"""
from __future__ import annotations

import gast

from autograph.converter import conversion, templates
from autograph.converter.conversion import ConvertedSource
from autograph.converter.parser import Source
from autograph.errors import ConversionError


def convert_definition(node: gast.FunctionDef, filename: str, module_names=(),
                       qualname: str | None = None) -> ConvertedSource:
    """The converted twin of ``node`` (a ``def`` of a whole parsed file), named ``tf__<name>``.

    ``module_names`` are the names the module binds at top level: a module
    that defines its own ``print`` or ``range`` keeps calling it. ``node``
    is not modified.
    """
    if isinstance(node, gast.AsyncFunctionDef):
        raise ConversionError(f"{filename}:{node.lineno} in {qualname or node.name}: async "
                              "functions are not supported; call it outside tf.function.")
    node = templates.clone(node)
    source = Source(node, filename, 0, node.name)
    return conversion.convert_tree(node, source, dict.fromkeys(module_names))
