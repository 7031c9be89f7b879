"""The converted function's header: name ``tf__<name>``, no decorators, checks.

Decorators are dropped (the converted function replaces the decorated
one's body, and ``@tf.function`` must not apply twice). A lambda becomes a
``def`` returning its expression. Generators cannot be converted. Zero-
argument ``super()`` gets its arguments spelled out, and private names
(``self.__x``) the class's prefix, because the converted function is not
defined inside the class.
"""
from __future__ import annotations

import gast

from autograph.converter.naming import CHILDREN, is_private

from autograph.converter import templates


def _as_function(lam: gast.Lambda, name: str) -> gast.FunctionDef:
    ret = gast.Return(value=lam.body)
    fn = gast.FunctionDef(name=name, args=lam.args, body=[ret], decorator_list=[], returns=None,
                          type_comment=None, type_params=[])
    templates.located([fn, ret], lam)
    return fn


_SCOPES = frozenset({gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef})


def _first_param(fn):
    args = fn.args.posonlyargs + fn.args.args
    return args[0].id if args else None


def _params(fn) -> list:
    """The parameters (and their annotations) of ``fn`` itself: ``__x`` is mangled there too."""
    a = fn.args
    return [x for x in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]
            if x is not None]


def _check_and_fix(fn, ctx) -> None:
    """One walk of the whole tree: ``yield`` in ``fn`` itself (not in nested scopes) is an
    error; zero-argument ``super()`` gets ``__class__`` and the first parameter of the
    innermost function around it, as Python's reads them (the converted code runs it in
    generated functions, which have other parameters); in a function written inside a class,
    private names get the class's prefix, as Python's compiler gives them there (names
    inside a nested ``class`` are left to the compiler: the converted code holds the class)."""
    yields = []
    prefix = ctx.source.private_prefix
    stack = [(child, True, _first_param(fn), prefix) for child in fn.body]
    if prefix is not None:
        stack += [(a, True, None, prefix) for a in _params(fn)]
    while stack:
        node, top, self_name, prefix = stack.pop()
        cls = node.__class__
        if cls is gast.Name:
            if prefix is not None and is_private(node.id):
                node.id = prefix + node.id
            continue
        if cls is gast.Constant:
            continue
        if prefix is not None:
            if cls is gast.Attribute:
                if is_private(node.attr):
                    node.attr = prefix + node.attr
            elif cls is gast.Global or cls is gast.Nonlocal:
                node.names = [prefix + n if is_private(n) else n for n in node.names]
            elif cls in _SCOPES and cls is not gast.Lambda and is_private(node.name):
                node.name = prefix + node.name
        if cls is gast.Yield or cls is gast.YieldFrom:
            if top:
                yields.append(node)
        elif cls is gast.Call:
            if (node.func.__class__ is gast.Name and node.func.id == "super" and not node.args
                    and not node.keywords and self_name is not None):
                node.args = [templates.name("__class__"), templates.name(self_name)]
                templates.located(node.args, node)
        elif cls in _SCOPES:
            top = False
            if cls is not gast.ClassDef:  # (Python's super() takes the innermost function's)
                self_name = _first_param(node)
        inner = None if cls is gast.ClassDef else prefix
        d = node.__dict__
        for k in CHILDREN[cls]:
            v = d.get(k)
            p = inner if k == "body" else prefix
            if v.__class__ is list:
                for c in v:
                    if c is not None:
                        stack.append((c, top, self_name, p))
            elif v is not None:
                stack.append((v, top, self_name, p))
    if yields:
        first = min(yields, key=lambda n: (n.lineno, n.col_offset))
        raise ctx.error(first, "generators are not supported: a generator function (one "
                               "that uses `yield`) cannot be converted into a graph. Return "
                               "the values instead (for "
                               "example collect them in a tf.TensorArray), or call the "
                               "generator outside tf.function.")


def transform(node, ctx):
    """Returns the top-level FunctionDef to convert (``check_and_fix`` is the rest)."""
    if isinstance(node, gast.Lambda):
        node = _as_function(node, "tf__lambda")
    else:
        node.decorator_list = []
        node.name = "tf__" + node.name
    return node


def check_and_fix(fn, ctx, namer) -> bool:
    """The checks and fixes of ``_check_and_fix``, whose walk runs only when ``namer`` (which
    walked the tree already) saw what they look for: a ``yield``, a ``super``, a private name
    in a function written inside a class. Returns whether names changed."""
    private = ctx.source.private_prefix is not None and namer.has_private
    if namer.has_yield or "super" in namer.used or private:
        _check_and_fix(fn, ctx)
    return private
