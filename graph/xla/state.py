"""Variables under XLA (graph/ops/state.py): values in, assigned values out.

The plan passes every variable the graph touches as an argument and returns
the assigned ones; here a read takes the current value from the context's
state and an assignment replaces it, so program order is data flow.
"""
from __future__ import annotations

from graph.xla.lowering import lowering


@lowering("ReadVariableOp")
def _read(ctx, node):
    return ctx.state["vars"][node.attrs["resource"]]


@lowering("AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp")
def _assign(ctx, node, value):
    rid = node.attrs["resource"]
    old = ctx.state["vars"][rid]
    new = {"AssignVariableOp": lambda: value, "AssignAddVariableOp": lambda: old + value,
           "AssignSubVariableOp": lambda: old - value}[node.op]()
    ctx.state = {**ctx.state, "vars": {**ctx.state["vars"], rid: new.astype(old.dtype)}}
    return ()
