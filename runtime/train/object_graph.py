"""The object graph a checkpoint records: who holds which value, under which name.

Objects are numbered breadth-first from the root, each object once however
many paths reach it, so a variable's key is its shortest attribute path, as
TensorFlow names it (``model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE``; ``.``
and ``/`` inside a name are escaped as ``..`` and ``.S``). An optimizer's
slots are its ``_variables`` list (``optimizer/_variables/2/...``, Keras 3).
Besides variables, an object may save one tensor of its own state
(``_checkpoint_state``: an iterator's position, ``.ATTRIBUTES/ITERATOR_STATE``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from runtime.module import trackable_children
from runtime.trace_type import is_variable

VALUE_SUFFIX = ".ATTRIBUTES/VARIABLE_VALUE"
OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"


@dataclass
class ObjectNode:
    """One object of the graph: its named children (node ids) and, for a variable, its key."""

    children: list = field(default_factory=list)   # [(name, node id)]
    key: str | None = None                          # checkpoint key of the object's value


def escape(name: str) -> str:
    return name.replace(".", "..").replace("/", ".S")


def build(root) -> tuple[list[ObjectNode], list]:
    """The nodes of the object graph reachable from ``root`` and the live objects, by id."""
    objects, index, paths = [root], {id(root): 0}, [()]
    nodes = []
    i = 0
    while i < len(objects):
        node = ObjectNode()
        for name, child in trackable_children(objects[i]).items():
            if id(child) not in index:
                index[id(child)] = len(objects)
                objects.append(child)
                paths.append(paths[i] + (escape(name),))
            node.children.append((name, index[id(child)]))
        nodes.append(node)
        i += 1
    for node, obj, path in zip(nodes, objects, paths):
        if is_variable(obj):
            node.key = "/".join(path + (VALUE_SUFFIX,))
        elif hasattr(obj, "_checkpoint_state"):
            node.key = "/".join(path + (".ATTRIBUTES", obj._checkpoint_state_name))
    return nodes, objects


def saved_value(obj):
    """The value a checkpoint stores for ``obj`` (a variable's, or its own state's)."""
    return obj.numpy() if is_variable(obj) else obj._checkpoint_state()


def describe_path(nodes: list[ObjectNode], target: int) -> str:
    """``(root).model.v``: the first path to node ``target``, for messages."""
    paths = {0: "(root)"}
    queue = [0]
    for i in queue:
        for name, child in nodes[i].children:
            if child not in paths:
                paths[child] = f"{paths[i]}.{name}"
                queue.append(child)
    return paths.get(target, f"(node {target})")
