"""``return`` inside control flow → ``retval_ = value`` and one ``return retval_`` at the end.

Only functions that return from inside an ``if``/loop/``with``/``try`` are
rewritten; when a branch always returns, the code after the ``if`` moves
into the other branch, so ``do_return`` is needed only for returns inside
loops or that leave a branch half-way (and removed when nothing reads it).
"""
from __future__ import annotations

import gast

from autograph.converter import jumps, templates
from autograph.converter.transformer import user_functions

_COMPOUND = (gast.If, gast.While, gast.For, gast.With, gast.Try, gast.TryStar)


def _returns_inside_control_flow(fn, namer) -> bool:
    if namer.returns == sum(s.__class__ is gast.Return for s in fn.body):
        return False  # (the namer counted the tree's returns: all are this body's own)
    return any(_needs_lowering(s) for s in fn.body)


def _needs_lowering(s) -> bool:
    if isinstance(s, gast.Match):  # a `match` stays a Python `match`: a `return` right in a
        # case returns, as written (what `locals()` shows stays the same too)
        return any(_needs_lowering(c) for case in s.cases for c in case.body)
    return isinstance(s, _COMPOUND) and jumps.contains([s], gast.Return, into_loops=True)


def _convert(fn, ctx):
    if not _returns_inside_control_flow(fn, ctx.namer):
        return
    do_return = ctx.namer.new("do_return")
    ctx.flags.add(do_return)
    retval = ctx.namer.new("retval_")

    def replacement(node, _in_finally):
        value = node.value if node.value is not None else gast.Constant(value=None, kind=None)
        return templates.replace("retval_ = value\ndo_return = True", do_return=do_return,
                                 retval_=retval, value=value)

    lowering = jumps.BlockLowering(lambda s: isinstance(s, gast.Return), replacement, do_return,
                                   into_loops=True, namer=ctx.namer)
    always = lowering.status(fn.body) == jumps.ALWAYS
    body = lowering.block(fn.body)
    for loop in lowering.loops_with_jumps:
        jumps.add_loop_condition(loop, do_return)
        loop.body = lowering.known_false(loop.body)
    head = templates.replace("do_return = False", do_return=do_return)
    if not always:
        head += templates.replace("retval_ = None", retval_=retval)
    tail = templates.replace("return retval_", retval_=retval)
    docstring = body[:1] if body and _is_docstring(body[0]) else []  # (stays first: __doc__)
    fn.body = (docstring + templates.located(head, fn.body[0]) + body[len(docstring):]
               + templates.located(tail, fn.body[-1]))
    _drop_pending_return(fn, do_return, retval)
    jumps.remove_unread_flag(fn, do_return)


def _is_docstring(stmt) -> bool:
    return (isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Constant)
            and isinstance(stmt.value.value, str))


def _drop_pending_return(fn, do_return: str, retval: str) -> None:
    """After each ``break``/``continue`` leaving a ``finally`` (lowered already, marked by
    ``jumps.BlockLowering``), a ``return`` pending from the ``try`` is dropped, as in Python."""
    blocks = [fn]
    for node in blocks:
        for f in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, f, None)
            if not isinstance(block, list) or not block or not isinstance(block[0], gast.AST):
                continue
            blocks.extend(s for s in block if not isinstance(s, jumps.SCOPES))
            if f in ("handlers", "cases"):
                continue
            new = []
            for s in block:
                new.append(s)
                if getattr(s, "ag_finally_jump", do_return) != do_return:
                    new.extend(templates.located(templates.replace(
                        "do_return = False\nretval_ = None", do_return=do_return,
                        retval_=retval), s))
            if len(new) != len(block):
                setattr(node, f, new)


def transform(tree, ctx):
    for fn in user_functions(tree, ctx):
        _convert(fn, ctx)
    return tree
