"""The text views of a graph: TensorFlow-style GraphDef, compact listing, DOT."""
import re

import numpy as np
import pytest

import runtime as rt
from graph import Graph, TensorShape
from graph.printing import as_graph_def, c_escape, dot_quote, format_graph, tensor_proto, to_dot
from runtime import context
from runtime.ops.core import apply_op
from runtime.tensor import SymbolicTensor


def build(fn, *specs, name="f"):
    """A graph of ``fn`` on placeholders given as (name, dtype, shape); outputs via Identity."""
    g = Graph(name)
    with context.building(g):
        args = []
        for arg_name, dtype, shape in specs:
            node = g.add_node("Placeholder", attrs={"dtype": dtype, "shape": TensorShape(shape)},
                              name=arg_name)
            args.append(SymbolicTensor(node.output(0)))
        g.inputs = [a._output for a in args]
        result = fn(*args)
        results = result if isinstance(result, (list, tuple)) else [result]
        g.outputs = [apply_op("Identity", [r], name="Identity")._output for r in results]
    return g


def simple_relu():
    return build(lambda x: rt.cond(rt.greater(x, 0), lambda: x, lambda: rt.constant(0)),
                 ("x", rt.int32, []), name="simple_relu")


def nested_loops():
    def f(x):
        def body(v, i):
            inner = rt.cond(i > 1, lambda: rt.while_loop(lambda u: u > 0.5, rt.tanh, [v])[0],
                            lambda: v * 2.0)
            return inner, i + 1
        return rt.while_loop(lambda v, i: i < 4, body, [x, 0])[0]
    return build(f, ("x", rt.float32, []))


def normalize(text: str) -> str:
    """Function names carry a process-wide counter: replace it by N."""
    return re.sub(r"(cond|while)_(true|false|cond|body)_\d+", r"\1_\2_N", text)


# The first nodes of the guide's `simple_relu` graph, exactly as TensorFlow prints them
# (intro_to_graphs), plus `_user_specified_name` which TensorFlow also writes.
GOLDEN_NODES = '''\
node {
  name: "x"
  op: "Placeholder"
  attr {
    key: "_user_specified_name"
    value {
      s: "x"
    }
  }
  attr {
    key: "dtype"
    value {
      type: DT_INT32
    }
  }
  attr {
    key: "shape"
    value {
      shape {
      }
    }
  }
}
node {
  name: "Greater/y"
  op: "Const"
  attr {
    key: "dtype"
    value {
      type: DT_INT32
    }
  }
  attr {
    key: "value"
    value {
      tensor {
        dtype: DT_INT32
        tensor_shape {
        }
        int_val: 0
      }
    }
  }
}
node {
  name: "Greater"
  op: "Greater"
  input: "x"
  input: "Greater/y"
  attr {
    key: "T"
    value {
      type: DT_INT32
    }
  }
}
node {
  name: "cond"
  op: "StatelessIf"
  input: "Greater"
  input: "x"
  attr {
    key: "Tcond"
    value {
      type: DT_BOOL
    }
  }
  attr {
    key: "Tin"
    value {
      list {
        type: DT_INT32
      }
    }
  }
  attr {
    key: "Tout"
    value {
      list {
        type: DT_INT32
      }
    }
  }
  attr {
    key: "else_branch"
    value {
      func {
        name: "cond_false_N"
      }
    }
  }
  attr {
    key: "output_shapes"
    value {
      list {
        shape {
        }
      }
    }
  }
  attr {
    key: "then_branch"
    value {
      func {
        name: "cond_true_N"
      }
    }
  }
}
'''

GOLDEN_TRUE_BRANCH = '''\
  function {
    signature {
      name: "cond_true_N"
      input_arg {
        name: "cond_x"
        type: DT_INT32
      }
      output_arg {
        name: "cond_identity"
        type: DT_INT32
      }
    }
    node_def {
      name: "cond/Identity"
      op: "Identity"
      input: "cond_x"
      attr {
        key: "T"
        value {
          type: DT_INT32
        }
      }
    }
    ret {
      key: "cond_identity"
      value: "cond/Identity:output:0"
    }
  }
'''


def test_simple_relu_graph_def_reads_like_tensorflow():
    text = normalize(str(simple_relu().as_graph_def()))
    assert text.startswith(GOLDEN_NODES)
    assert GOLDEN_TRUE_BRANCH in text
    assert text.endswith("versions {\n  producer: 1\n  min_consumer: 1\n}\n")
    # Both functions are in the library, sorted by name as TensorFlow prints them.
    assert text.index('name: "cond_false_N"\n      input_arg') < \
        text.index('name: "cond_true_N"\n      input_arg')


def test_graph_def_fields():
    gd = simple_relu().as_graph_def()
    assert [n.name for n in gd.node] == ["x", "Greater/y", "Greater", "cond", "Identity"]
    assert [n.op for n in gd.node] == ["Placeholder", "Const", "Greater", "StatelessIf",
                                       "Identity"]
    cond = gd.node[3]
    assert cond.input == ["Greater", "x"]
    assert cond.attr["Tout"].list.type == [rt.int32]
    assert cond.attr["Tcond"].type == rt.bool
    assert "output_types" not in cond.attr
    assert gd.node[1].attr["value"].tensor.int_val == [0]
    names = [f.signature.name for f in gd.library.function]
    assert len(names) == 2 and names == sorted(names)
    assert {cond.attr["then_branch"].func.name, cond.attr["else_branch"].func.name} == set(names)
    true_fn = next(f for f in gd.library.function if "true" in f.signature.name)
    assert [a.name for a in true_fn.signature.input_arg] == ["cond_x"]
    assert true_fn.ret == {"cond_identity": "cond/Identity:output:0"}
    assert [n.name for n in true_fn.node_def] == ["cond/Identity"]  # args are not nodes


def test_second_output_and_control_inputs_are_named_as_tensorflow_writes_them():
    def f(x):
        a, b = rt.cond(x > 0, lambda: (x, x + 1), lambda: (x, x))
        return b
    g = build(f, ("x", rt.int32, []))
    noop = g.add_node("NoOp", control_inputs=[g.get_node("cond")], name="deps")
    gd = as_graph_def(g)
    assert [n for n in gd.node if n.name == "Identity"][0].input == ["cond:1"]
    assert [n for n in gd.node if n.name == noop.name][0].input == ["^cond"]
    assert 'input: "^cond"' in str(gd)


def test_while_node_attrs_and_nested_library():
    gd = as_graph_def(nested_loops())
    loop = next(n for n in gd.node if n.op.endswith("While"))
    assert loop.attr["T"].list.type == [rt.float32, rt.int32]
    assert [len(s.dim) for s in loop.attr["output_shapes"].list.shape] == [0, 0]
    names = {f.signature.name for f in gd.library.function}
    # the outer loop's cond/body, the inner cond's branches, the innermost loop's cond/body
    assert len(names) == 6
    body = next(f for f in gd.library.function if f.signature.name.startswith("while_body"))
    inner_if = next(n for n in body.node_def if n.op.endswith("If"))
    assert inner_if.attr["then_branch"].func.name in names
    args = {a.name for a in body.signature.input_arg}
    inputs = [i for n in body.node_def for i in n.input]
    assert inputs and all(i in args or ":output:" in i for i in inputs), inputs
    assert set(body.ret.values()) <= args | {i for i in body.ret.values() if ":output:" in i}


@pytest.mark.parametrize("value, expected", [
    (np.float32(0.5), "float_val: 0.5"),
    (np.array([1.0, 2.5], np.float32), "float_val: 1\nfloat_val: 2.5"),
    (np.float64(0.1), "double_val: 0.1"),
    (np.array(True), "bool_val: true"),
    (np.int64(-3), "int64_val: -3"),
    (np.array([b'a"\n\xff', b"\\"], dtype=object), 'string_val: "a\\"\\n\\377"\n'
                                                    'string_val: "\\\\"'),
    (np.float32(np.nan), "float_val: nan"),
])
def test_tensor_values(value, expected):
    text = str(tensor_proto(np.asarray(value)))
    assert expected in text, text


def test_big_constants_print_their_bytes():
    text = str(tensor_proto(np.arange(20, dtype=np.int32)))
    assert 'tensor_content: "\\000\\000\\000\\000\\001\\000' in text
    assert "int_val" not in text
    assert "dim {\n    size: 20\n  }" in text


def test_unknown_rank_shape_and_no_empty_library():
    g = build(lambda x: x, ("x", rt.float32, None))
    text = str(as_graph_def(g))
    assert "unknown_rank: true" in text
    assert "library" not in text and as_graph_def(g).library.function == []


def test_c_escape():
    assert c_escape(b"a\tb'\x00\x7f") == "a\\tb\\'\\000\\177"
    assert c_escape("é") == "\\303\\251"


# -- compact listing -----------------------------------------------------------------------

def test_format_graph_simple_relu():
    text = normalize(format_graph(simple_relu()))
    text = re.sub(r"# test_printing\.py:\d+", "# here", text)
    assert text == """\
graph simple_relu(x: int32[]) -> (Identity)
  x = Placeholder() : int32[]
  Greater/y = Const(value=0) : int32[]  # here
  Greater = Greater(x, Greater/y) : bool[]  # here
  cond = StatelessIf(Greater, x, then_branch=cond_true_N, else_branch=cond_false_N) : int32[]  # here
  Identity = Identity(cond) : int32[]  # here
  function cond_true_N(cond/x: int32[]) -> (cond/Identity)
    captures: x -> cond/x
    cond/x = Placeholder() : int32[]
    cond/Identity = Identity(cond/x) : int32[]  # here
  function cond_false_N(cond/unused_capture: int32[]) -> (cond/Identity)
    captures: x -> cond/unused_capture
    cond/Const = Const(value=0) : int32[]  # here
    cond/Identity = Identity(cond/Const) : int32[]  # here
    cond/unused_capture = Placeholder() : int32[]
"""


def test_format_graph_nests_sub_graphs_by_depth():
    lines = format_graph(nested_loops()).splitlines()
    headers = [(len(l) - len(l.lstrip()), l.split()[1].split("(")[0]) for l in lines
               if l.lstrip().startswith("function ")]
    depths = {re.sub(r"_\d+$", "", name): depth for depth, name in headers}
    assert depths == {"while_cond": 2, "while_body": 2, "while_cond_true": 4,
                      "while_cond_false": 4, "while_cond_while_cond": 6,
                      "while_cond_while_body": 6}
    loop = next(l for l in lines if "While(" in l)
    assert re.search(r": \(float32\[\], int32\[\]\)  # test_printing\.py:\d+$", loop)


# -- DOT ------------------------------------------------------------------------------------------

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|->|[{}\[\];=,]|[A-Za-z_][A-Za-z0-9_.]*|\s+|\S')


def check_dot(text: str) -> tuple[set, list]:
    """Parses DOT enough to check it: balanced braces, edges between declared nodes."""
    tokens = [t for t in _TOKEN.findall(text) if not t.isspace()]
    assert "".join(tokens).replace(" ", "") == re.sub(
        r'\s+', '', "".join(_TOKEN.findall(text))), "every character tokenizes"
    depth, declared, edges = 0, set(), []
    assert tokens[:2] == ["digraph", tokens[1]] and tokens[2] == "{"
    for i, t in enumerate(tokens):
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            assert depth >= 0, "unbalanced braces"
        elif t == "->":
            edges.append((tokens[i - 1], tokens[i + 1]))
        elif t.startswith('"') and tokens[i + 1] == "[" and tokens[i - 1] in (";", "{"):
            declared.add(t)
    assert depth == 0, "unbalanced braces"
    for a, b in edges:
        assert a in declared and b in declared, (a, b)
    return declared, edges


def test_dot_is_valid_and_draws_clusters():
    text = to_dot(nested_loops())
    declared, edges = check_dot(text)
    assert text.count("subgraph \"cluster_") == 6
    assert '"x" [label="x\\nPlaceholder\\nfloat32[]", style=rounded];' in text
    assert any("capture" in line for line in text.splitlines())
    assert len(edges) > 10


def test_dot_quotes_awkward_names():
    g = Graph('we"ird')
    x = g.add_node("Placeholder", attrs={"dtype": rt.float32, "shape": TensorShape([])},
                   name='a"b\\c\nd')
    g.add_node("Neg", [x.output(0)], name="neg {x}")
    text = to_dot(g)
    declared, edges = check_dot(text)
    assert dot_quote('a"b\\c\nd') == '"a\\"b\\\\c\\nd"'
    assert edges == [('"a\\"b\\\\c\\nd"', '"neg {x}"')]
    assert text.startswith('digraph "we\\"ird" {')


def test_check_dot_catches_bad_dot():
    with pytest.raises(AssertionError):
        check_dot('digraph "g" {\n  "a" [label="a"];\n  "a" -> "b";\n}\n')
    with pytest.raises(AssertionError):
        check_dot('digraph "g" {\n  "a" [label="a"];\n')
