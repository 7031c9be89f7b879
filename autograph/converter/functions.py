"""The converted function's header: name ``tf__<name>``, no decorators, checks.

Decorators are dropped (the converted function replaces the decorated
one's body, and ``@tf.function`` must not apply twice). A lambda becomes a
``def`` returning its expression. Generators cannot be converted. Zero-
argument ``super()`` gets its arguments spelled out, because the converted
function is not defined inside the class.
"""
from __future__ import annotations

import gast

from autograph.converter import templates
from autograph.converter.transformer import user_functions


def _as_function(lam: gast.Lambda, name: str) -> gast.FunctionDef:
    ret = gast.Return(value=lam.body)
    fn = gast.FunctionDef(name=name, args=lam.args, body=[ret], decorator_list=[], returns=None,
                          type_comment=None, type_params=[])
    templates.located([fn, ret], lam)
    return fn


def _check_generators(fn, ctx) -> None:
    stack = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (gast.Yield, gast.YieldFrom)):
            raise ctx.error(node, "a generator function (one that uses `yield`) cannot be "
                                  "converted into a graph. Return the values instead (for "
                                  "example collect them in a tf.TensorArray), or call the "
                                  "generator outside tf.function.")
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda,
                             gast.ClassDef)):
            continue
        stack.extend(gast.iter_child_nodes(node))


def _fix_super(fn) -> None:
    args = fn.args.posonlyargs + fn.args.args
    if not args:
        return
    self_name = args[0].id
    for node in gast.walk(fn):
        if (isinstance(node, gast.Call) and isinstance(node.func, gast.Name)
                and node.func.id == "super" and not node.args and not node.keywords):
            node.args = [templates.name("__class__"), templates.name(self_name)]
            templates.located(node.args, node)


def transform(node, ctx):
    """Returns the top-level FunctionDef to convert."""
    if isinstance(node, gast.Lambda):
        node = _as_function(node, "tf__lambda")
    else:
        _check_generators(node, ctx)
        node.decorator_list = []
        node.name = "tf__" + node.name
    for fn in user_functions(node):
        _fix_super(fn)
    return node
