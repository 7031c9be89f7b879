"""If and While: control flow whose bodies are library sub-graphs.

Attrs hold the sub-graphs themselves (``then_branch``/``else_branch``,
``cond``/``body``) and the node's ``output_types``; the ``Stateless`` variants
are chosen by the builder when no body contains a stateful op, exactly as
TensorFlow chooses between ``If`` and ``StatelessIf``.
"""
from __future__ import annotations

from graph.errors import InvalidArgumentError
from graph.ir import TensorType
from graph.registry import register_op


def _if_infer(inputs, attrs):
    if not inputs:
        raise InvalidArgumentError(message="If needs a predicate input")
    pred = inputs[0]
    if not pred.dtype.is_bool or (pred.shape.rank not in (None, 0)):
        raise InvalidArgumentError(
            message=f"The condition of an If must be a scalar bool tensor, got "
                    f"{pred.dtype.name} tensor of shape {pred.shape}")
    for name in ("then_branch", "else_branch"):
        branch = attrs[name]
        if len(branch.inputs) != len(inputs) - 1:
            raise InvalidArgumentError(
                message=f"If: {name} {branch.name!r} takes {len(branch.inputs)} inputs, "
                        f"but the node passes {len(inputs) - 1}")
    return list(attrs["output_types"])


def _build_if(node, compile_subgraph):
    then_fn = compile_subgraph(node.attrs["then_branch"])
    else_fn = compile_subgraph(node.attrs["else_branch"])
    if len(node.outputs) == 1:
        def run_if(pred, *args):
            return (then_fn if pred else else_fn)(*args)[0]
    else:
        def run_if(pred, *args):
            return (then_fn if pred else else_fn)(*args)
    return run_if


def _while_infer(inputs, attrs):
    cond, body = attrs["cond"], attrs["body"]
    n = len(inputs)
    if len(cond.inputs) != n or len(body.inputs) != n or len(body.outputs) != n:
        raise InvalidArgumentError(
            message=f"While: cond takes {len(cond.inputs)}, body takes {len(body.inputs)} and "
                    f"returns {len(body.outputs)} values, but the loop carries {n}")
    if len(cond.outputs) != 1 or not cond.outputs[0].dtype.is_bool:
        raise InvalidArgumentError(message="While: the loop condition must return one bool tensor")
    return list(attrs.get("output_types") or [TensorType(i.dtype, i.shape) for i in inputs])


def _build_while(node, compile_subgraph):
    cond_fn = compile_subgraph(node.attrs["cond"])
    body_fn = compile_subgraph(node.attrs["body"])
    single = len(node.outputs) == 1

    def run_while(*loop_vars):
        while cond_fn(*loop_vars)[0]:
            loop_vars = body_fn(*loop_vars)
        return loop_vars[0] if single else loop_vars
    return run_while


for _name, _stateful in (("If", True), ("StatelessIf", False)):
    register_op(_name, _if_infer, stateful=_stateful, build=_build_if,
                function_attrs=("then_branch", "else_branch"))
for _name, _stateful in (("While", True), ("StatelessWhile", False)):
    register_op(_name, _while_infer, stateful=_stateful, build=_build_while,
                function_attrs=("cond", "body"))
