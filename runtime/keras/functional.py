"""The functional API: ``tf.keras.Model(inputs, outputs)`` over the calls recorded by
KerasTensors (``keras_tensor.py``), as Keras 3's ``Functional`` runs them.

The graph is mapped as Keras maps it: a depth-first walk from the outputs gives each
operation its traversal index, a node's depth is its longest distance to an output, and
``layers`` (InputLayers first) and the weights follow the operations by decreasing depth,
then traversal order. A call runs the nodes in that order on real tensors, each layer
through its own ``__call__`` (so masks, ``training`` and tracing work as for any layer); a
``training`` given to the model overrides the one recorded at a layer's call.
"""
from __future__ import annotations

import collections

from runtime import nest
from runtime.keras.input_spec import InputSpec
from runtime.keras.keras_tensor import KerasTensor
from runtime.keras.layers.base import Layer, _set_keras_mask
from runtime.keras.models import Model
from runtime.ops import array_ops
from runtime.ops.core import convert_to_tensor
from runtime.ops.math_ops import cast
from runtime.tensor import Tensor


def _node(tensor):
    history = tensor._keras_history
    return None if history is None else history[0]._inbound_nodes[history[1]]


def _map_graph(inputs, outputs):
    """(nodes by depth, deepest first; operations in Keras's order), checking that every
    node can be computed from ``inputs`` and that operation names are unique."""
    input_ids = {id(x) for x in inputs}
    order, index, finished, in_progress = [], {}, set(), set()
    operations = {}  # id -> operation

    def visit(tensor):
        node = _node(tensor)
        if node is None or id(node) in finished:
            return
        if not node.is_input and id(tensor) in input_ids:
            finished.add(id(node))
            return
        if id(node) in in_progress:
            raise ValueError(f"Tensor {tensor} from operation '{node.operation.name}' is part "
                             "of a cycle.")
        index.setdefault(id(node.operation), len(index))
        operations[id(node.operation)] = node.operation
        in_progress.add(id(node))
        if not node.is_input:
            for x in node.inputs:
                visit(x)
        finished.add(id(node))
        in_progress.remove(id(node))
        order.append(node)

    for x in outputs:
        visit(x)
    in_graph = {id(n) for n in order}
    node_depth, op_depth, nodes = {}, {}, {}
    for node in reversed(order):
        depth = max(node_depth.setdefault(id(node), 0), op_depth.get(id(node.operation), 0))
        op_depth[id(node.operation)] = node_depth[id(node)] = depth
        nodes[id(node)] = node
        for x in node.inputs:
            parent = _node(x)
            if parent is not None and id(parent) in in_graph:
                node_depth[id(parent)] = max(depth + 1, node_depth.get(id(parent), 0))
                nodes[id(parent)] = parent
    for x in inputs:  # inputs not connected to the outputs still list their InputLayer
        node = _node(x)
        if node is not None and node.is_input and id(node.operation) not in op_depth:
            operations[id(node.operation)] = node.operation
            op_depth[id(node.operation)], index[id(node.operation)] = 0, -1
            node_depth[id(node)], nodes[id(node)] = 0, node

    by_depth = collections.defaultdict(list)
    for key, depth in node_depth.items():
        by_depth[depth].append(nodes[key])
    ordered_ops = sorted(operations.values(),
                         key=lambda op: (-op_depth[id(op)], index[id(op)]))
    computable, seen = {id(x) for x in inputs}, []
    for depth in sorted(by_depth, reverse=True):
        for node in by_depth[depth]:
            for x in node.inputs:
                if id(x) not in computable:
                    raise ValueError(f"Graph disconnected: cannot find parent for tensor {x} at "
                                     f"operation '{node.operation}'. The following previous "
                                     f"operations were accessed without issue: {seen}")
                seen.append(node.operation.name)
            computable.update(id(x) for x in node.outputs)
    names = [op.name for op in ordered_ops]
    for name in names:
        if names.count(name) != 1:
            raise ValueError(f'The name "{name}" is used {names.count(name)} times in the '
                             "model. All operation names should be unique.")
    return [by_depth[d] for d in sorted(by_depth, reverse=True)], ordered_ops


def _output_paths(structure) -> list[str]:
    """Keras's path of each flat output (``""`` for one, ``"1"``, ``"logits"``)."""
    if isinstance(structure, dict):
        return [f"{k}" + (f".{p}" if p else "") for k in sorted(structure)
                for p in _output_paths(structure[k])]
    if isinstance(structure, (list, tuple)):
        return [f"{i}" + (f".{p}" if p else "") for i, v in enumerate(structure)
                for p in _output_paths(v)]
    return [""]


def _class_name(operation) -> str:
    """The class name Keras shows for an operation (``Add`` for ``x + y``)."""
    if isinstance(operation, Layer):
        return type(operation).__name__
    return "".join(part.title() for part in operation.kind.split("_"))


class Functional(Model):
    """A model made of the layer calls that lead from ``inputs`` to ``outputs``."""

    def __init__(self, inputs, outputs, name=None, trainable=True):
        for label, structure in (("inputs", inputs), ("outputs", outputs)):
            for x in nest.flatten(structure):
                if not isinstance(x, KerasTensor):
                    raise ValueError(f"All `{label}` values must be KerasTensors. Received: "
                                     f"{label}={structure} including invalid value {x} of "
                                     f"type {type(x)}")
        super().__init__(name=name, trainable=trainable)
        self._inputs_struct, self._outputs_struct = inputs, outputs
        self._inputs, self._outputs = nest.flatten(inputs), nest.flatten(outputs)
        if not self._inputs or not self._outputs:
            raise ValueError(f"`inputs` and `outputs` cannot be empty. Received:\n"
                             f"inputs={inputs}\noutputs={outputs}")
        self._nodes_by_depth, operations = _map_graph(self._inputs, self._outputs)
        self._operations = operations  # (its layers are the model's, in weight order)
        # A run on the KerasTensors themselves checks that every output is computed.
        self._run({id(x): x for x in self._inputs}, lambda node, args, kwargs: node.results)
        self.input_spec = self._input_specs()
        self.built = True
        self.output_names = [x._keras_history[0].name for x in self._outputs]

    def _input_specs(self):
        """Keras's checks of the inputs: their shapes past the batch axis, a trailing axis
        of 1 aside; named after the InputLayers (after the keys of a dict of inputs)."""
        def spec(x, name=None):
            layer = x._keras_history[0] if x._keras_history is not None else None
            shape = None if x.shape is None else (None,) + x.shape[1:]
            return InputSpec(shape=shape, allow_last_axis_squeeze=True,
                             name=name or getattr(layer, "name", x.name),
                             optional=bool(getattr(layer, "optional", False)))
        if isinstance(self._inputs_struct, dict):
            return [spec(self._inputs_struct[k], k) for k in sorted(self._inputs_struct)]
        return [spec(x) for x in self._inputs]

    @property
    def input_shape(self):
        shapes = [x.shape for x in self._inputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def output_shape(self):
        shapes = [x.shape for x in self._outputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def layers(self) -> list[Layer]:
        return [op for op in self._operations if isinstance(op, Layer)]

    @property
    def inputs(self) -> list:
        return list(self._inputs)

    @property
    def outputs(self) -> list:
        return list(self._outputs)

    @property
    def input(self):
        return self._inputs_struct

    @property
    def output(self):
        return self._outputs_struct

    def _summary_table(self):
        """Keras's summary of a graph, a row per operation (the shape of its last call's
        outputs); a graph that is not a chain of unshared calls also shows the outputs
        (``layer[node][tensor]``) each of its calls here took."""
        nodes = [node for group in self._nodes_by_depth for node in group]
        chain = all(len(group) == 1 and len(group[0].inputs) <= 1
                    for group in self._nodes_by_depth) and \
            len({id(n.operation) for n in nodes}) == len(nodes)

        def cells(op):
            shapes = [x.shape for x in op._inbound_nodes[-1].outputs]
            row = (f"{op.name} ({_class_name(op)})",
                   str(shapes[0] if len(shapes) == 1 else shapes),
                   f"{op.count_params():,}" if isinstance(op, Layer) else "0")
            if chain:
                return row
            history = [x._keras_history for n in nodes if n.operation is op for x in n.inputs]
            return row + (", ".join(f"{h[0].name}[{h[1]}][{h[2]}]" for h in history) or "-",)
        header = ("Layer (type)", "Output Shape", "Param #") + (() if chain else
                                                                ("Connected to",))
        return header, [cells(op) for op in self._operations]

    def get_config(self):
        raise NotImplementedError("get_config of a functional model (its graph of layer calls) "
                                  "is not supported; save its weights or a SavedModel")

    def compute_mask(self, inputs, mask=None):  # (the outputs carry their layers' masks)
        return None

    def _build_from(self, inputs) -> None:
        self.built = True

    def _run(self, values: dict, call):
        """Runs the nodes in order on ``values`` (id of a KerasTensor -> its value); returns
        the outputs in their structure."""
        for nodes in self._nodes_by_depth:
            for node in nodes:
                if node.is_input or any(id(x) not in values for x in node.inputs):
                    continue
                args, kwargs = node.fill_in(values)
                results = call(node, args, kwargs)
                for x, y in zip(nest.flatten(node.results), nest.flatten(results)):
                    if isinstance(x, KerasTensor):
                        values[id(x)] = y
        flat = []
        for path, x in zip(_output_paths(self._outputs_struct), self._outputs):
            if id(x) not in values:
                raise ValueError(f"Output with path `{path}` is not connected to `inputs`")
            flat.append(values[id(x)])
        return nest.pack_sequence_as(self._outputs_struct, flat)

    def call(self, inputs, training=None, mask=None):
        flat = self._standardize_inputs(inputs)
        if mask is not None:
            for x, m in zip(flat, nest.flatten(mask)):
                _set_keras_mask(x, m)

        def call(node, args, kwargs):
            op = node.operation
            if training is not None and isinstance(op, Layer) and \
                    "training" in op._call_params():
                kwargs["training"] = training
            return op(*args, **kwargs)
        outputs = self._run({id(x): y for x, y in zip(self._inputs, flat)}, call)
        if isinstance(outputs, (list, tuple)) and len(outputs) == 1:
            return outputs[0]
        return outputs

    def _standardize_inputs(self, inputs) -> list:
        """The flat input tensors, in the inputs' dtypes (a dict given for a list of inputs
        is matched by input names), rank-adjusted by a trailing axis of 1 as Keras does."""
        struct = self._inputs_struct
        if isinstance(struct, list) and len(struct) == 1 and not isinstance(
                inputs, (list, tuple, dict)):
            inputs = [inputs]
        elif isinstance(inputs, dict) and not isinstance(struct, dict):
            names = [x.name for x in self._inputs]
            if not set(names) <= set(inputs):
                raise ValueError(f"Missing data for input(s) {sorted(set(names) - set(inputs))}"
                                 f". Expected the following keys: {names}. Received keys: "
                                 f"{list(inputs)}")
            inputs = [inputs[n] for n in names]
        flat = nest.flatten(inputs)
        if len(flat) != len(self._inputs):
            raise ValueError(f"Layer \"{self.name}\" expects {len(self._inputs)} input(s), but "
                             f"it received {len(flat)} input tensors. Inputs received: {inputs}")
        return [self._adjust_rank(self._to_input_dtype(x, ref), ref)
                for x, ref in zip(flat, self._inputs)]

    @staticmethod
    def _to_input_dtype(x, ref):
        if not isinstance(x, Tensor):
            x = convert_to_tensor(x) if hasattr(x, "_as_tensor") else \
                convert_to_tensor(x, dtype_hint=ref.dtype)
        return x if x.dtype.name == ref.dtype else cast(x, ref.dtype)

    @staticmethod
    def _adjust_rank(x, ref):
        rank, ref_rank = x.shape.rank, ref.ndim
        if rank is None or ref_rank is None or rank == ref_rank:
            return x
        if rank == ref_rank + 1 and x.shape[-1] == 1:
            return array_ops.squeeze(x, axis=-1)
        if rank == ref_rank - 1 and ref.shape[-1] == 1:
            return array_ops.expand_dims(x, axis=-1)
        raise ValueError(f"Invalid input shape for input {x}. Expected shape {ref.shape}, "
                         f"but input has incompatible shape {tuple(x.shape.as_list())}")
