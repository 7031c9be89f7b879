"""The SavedModel directory: ``saved_model.json``, ``variables/``, ``functions/N/``.

``saved_model.json`` holds the object tree (modules, variables, functions,
lists and dicts by attribute name), each function's traces (the structure of
their inputs and outputs and the directory of their graph, written by
``graph.serialize``), the signatures, and a manifest: the SHA-256 of every
other file of the directory. It ends with the checksum of its own content.
Loading checks all of these before building anything, so a missing,
truncated, corrupt or hand-edited file is an error naming that file, and
nothing half-loaded is ever returned. Nothing is pickled or executed.

Argument and result structures are JSON: numbers, strings, booleans and
null as themselves; ``{"list": [...]}``, ``{"tuple": [...]}``,
``{"dict": [[key, value], ...]}``; ``{"spec": {dtype, shape, name}}`` for a
tensor argument and ``{"tensor": k}`` for the k-th output.

A composite argument (RaggedTensor, SparseTensor, ExtensionType) is its type
spec as data: ``{"typespec": {"class", "fields", "components"}}``, the fields
being the spec's ``_serialize()`` (shapes, dtypes, nested specs, Python
values), from which ``cls(*fields)`` rebuilds it; a composite result is
``{"composite": {"typespec": ..., "tensors": [k, ...]}}``. An ExtensionType's
class is found by its registered name (``__name__`` in its class body, as
TensorFlow requires), never by importing code: when the loading program has
not defined it, the spec is an ``UnknownTypeSpec`` that names the type when
the function is called.
"""
from __future__ import annotations

import collections.abc
import hashlib
import json
import math
import os

from graph.dtypes import DType, as_dtype
from graph.errors import GraphFormatError
from graph.shapes import TensorShape
from runtime.tensor_spec import TensorSpec, TypeSpec

FORMAT_NAME = "autograph-saved-model"
FORMAT_VERSION = 1
DOCUMENT = "saved_model.json"
VARIABLES_PREFIX = os.path.join("variables", "variables")
FUNCTIONS_DIR = "functions"


class SavedModelFormatError(GraphFormatError):
    """A SavedModel file is missing, truncated, corrupt or was edited by hand."""


# -- structures ------------------------------------------------------------------------------

def encode_structure(value, leaf):
    """JSON for a nested structure; ``leaf(value)`` encodes tensors and specs (or None)."""
    encoded = leaf(value)
    if encoded is not None:
        return encoded
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"float": repr(value)}
    if isinstance(value, list):
        return {"list": [encode_structure(v, leaf) for v in value]}
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return {"tuple": [encode_structure(v, leaf) for v in value]}
    if isinstance(value, dict) and all(isinstance(k, (str, int)) for k in value):
        return {"dict": [[k, encode_structure(v, leaf)] for k, v in value.items()]}
    raise ValueError(f"a value of type {type(value).__name__} ({value!r}) cannot be saved: "
                     "saved functions take and return tensors, Python numbers, strings, "
                     "booleans, None, and lists, tuples and dicts of these")


def encode_spec(spec: TensorSpec) -> dict:
    shape = None if spec.shape.rank is None else list(spec.shape.as_tuple())
    return {"spec": {"dtype": spec.dtype.name, "shape": shape, "name": spec.name}}


def decode_structure(doc, leaf, fail):
    """The structure ``encode_structure`` wrote; ``leaf(tag, body)`` decodes spec/tensor leaves."""
    if doc is None or isinstance(doc, (bool, str, int, float)):
        return doc
    if isinstance(doc, dict) and len(doc) == 1:
        (tag, body), = doc.items()
        if tag in ("list", "tuple") and isinstance(body, list):
            items = [decode_structure(v, leaf, fail) for v in body]
            return items if tag == "list" else tuple(items)
        if tag == "dict" and isinstance(body, list) and all(
                isinstance(p, list) and len(p) == 2 and isinstance(p[0], (str, int))
                for p in body):
            return {k: decode_structure(v, leaf, fail) for k, v in body}
        if tag == "float" and body in ("nan", "inf", "-inf"):
            return float(body)
        if tag not in ("list", "tuple", "dict", "float"):
            return leaf(tag, body)
    raise fail(f"bad structure entry {doc!r}")


def decode_spec(body, fail) -> TensorSpec:
    try:
        shape = body["shape"]
        if shape is not None and not all(
                d is None or (isinstance(d, int) and not isinstance(d, bool) and d >= 0)
                for d in shape):
            raise ValueError(f"bad shape {shape!r}")
        name = body.get("name")
        if name is not None and not isinstance(name, str):
            raise ValueError(f"bad name {name!r}")
        return TensorSpec(TensorShape(shape), as_dtype(body["dtype"]), name)
    except (TypeError, KeyError, ValueError) as e:
        raise fail(f"bad tensor spec {body!r}: {e}") from None


# -- composite types ----------------------------------------------------------------------------

def _builtin_spec_classes() -> dict:
    from runtime.ragged.ragged_tensor import RaggedTensorSpec
    from runtime.ragged.row_partition import RowPartitionSpec
    from runtime.sparse.sparse_tensor import SparseTensorSpec
    return {"tf.RaggedTensorSpec": RaggedTensorSpec, "tf.SparseTensorSpec": SparseTensorSpec,
            "tf.RowPartitionSpec": RowPartitionSpec}


def _spec_class_name(spec: TypeSpec) -> str:
    from runtime.extension_type import ExtensionTypeSpec, registered_name
    for name, cls in _builtin_spec_classes().items():
        if type(spec) is cls:
            return name
    if isinstance(spec, ExtensionTypeSpec):
        name = registered_name(spec.value_type)
        if name is None:
            raise ValueError(
                f"the ExtensionType {spec.value_type.__qualname__!r} has no registered name, "
                "so a loading program could not find it. Add `__name__ = "
                f"'<package>.{spec.value_type.__qualname__}'` to its class body (as "
                "TensorFlow requires for saved extension types).")
        return name + ".Spec"
    if isinstance(spec, UnknownTypeSpec):
        return spec.class_name
    raise ValueError(f"a value of type {type(spec).__name__} ({spec!r}) cannot be saved")


def encode_type_spec(spec: TypeSpec) -> dict:
    """A composite's type as data (its ``_serialize()`` fields and its class's name)."""
    if isinstance(spec, UnknownTypeSpec):
        return {"typespec": spec.body}
    name = _spec_class_name(spec)
    return {"typespec": {"class": name, "components": len(spec._component_specs),
                         "fields": [encode_structure(f, _field_leaf) for f in spec._serialize()]}}


def _field_leaf(value):
    if isinstance(value, TensorSpec):
        return encode_spec(value)
    if isinstance(value, TypeSpec):
        return encode_type_spec(value)
    if isinstance(value, TensorShape):
        return {"shape": None if value.rank is None else list(value.as_tuple())}
    if isinstance(value, DType):
        return {"dtype": value.name}
    if isinstance(value, collections.abc.Mapping) and not isinstance(value, dict):
        return {"mapping": [[k, encode_structure(v, _field_leaf)] for k, v in value.items()]}
    return None


class UnknownTypeSpec:
    """The saved type of an ExtensionType that the loading program does not define."""

    def __init__(self, class_name: str, body: dict, components: int):
        self.class_name = class_name
        self.body = body
        self.components = components

    def error(self, function: str) -> ValueError:
        name = self.class_name[:-len(".Spec")] if self.class_name.endswith(".Spec") \
            else self.class_name
        return ValueError(
            f"The loaded function {function!r} takes or returns the ExtensionType {name!r}, "
            "which this program does not define. Define (or import) that class, with "
            f"`__name__ = {name!r}` in its body, before tf.saved_model.load; the SavedModel "
            "never imports code.")

    def __repr__(self) -> str:
        return f"UnknownTypeSpec({self.class_name!r})"


def decode_type_spec(body, fail):
    """The TypeSpec ``encode_type_spec`` wrote (an ``UnknownTypeSpec`` for an undefined type)."""
    from runtime.extension_type import lookup_registered
    try:
        name, fields, n = body["class"], body["fields"], body["components"]
        if not isinstance(name, str) or not isinstance(fields, list) or not isinstance(n, int):
            raise TypeError("bad class, fields or components")
    except (TypeError, KeyError) as e:
        raise fail(f"bad type spec {body!r}: {e}") from None
    cls = _builtin_spec_classes().get(name)
    if cls is None and name.endswith(".Spec"):
        value_type = lookup_registered(name[:-len(".Spec")])
        cls = None if value_type is None else value_type.Spec
    if cls is None:
        if name in _builtin_spec_classes() or not name.endswith(".Spec"):
            raise fail(f"unknown type spec class {name!r}")
        return UnknownTypeSpec(name, body, n)
    try:
        spec = cls(*[decode_structure(f, lambda tag, b: _decode_field(tag, b, fail), fail)
                     for f in fields])
    except (TypeError, ValueError) as e:
        raise fail(f"bad type spec {body!r}: {e}") from None
    if len(spec._component_specs) != n:
        raise fail(f"type spec {name!r} should have {n} components")
    return spec


def _decode_field(tag, body, fail):
    if tag == "spec":
        return decode_spec(body, fail)
    if tag == "typespec":
        return decode_type_spec(body, fail)
    if tag == "shape" and (body is None or isinstance(body, list)):
        return TensorShape(body)
    if tag == "dtype" and isinstance(body, str):
        return as_dtype(body)
    if tag == "mapping" and isinstance(body, list) and all(
            isinstance(p, list) and len(p) == 2 for p in body):
        return {k: decode_structure(v, lambda t, b: _decode_field(t, b, fail), fail)
                for k, v in body}
    raise fail(f"bad {tag!r} entry {body!r}")


def component_count(spec) -> int:
    """How many graph inputs or outputs a saved argument leaf stands for."""
    if isinstance(spec, UnknownTypeSpec):
        return spec.components
    return len(spec._component_specs)


# -- the document: checksum and manifest -------------------------------------------------------

def _checksum(doc: dict) -> str:
    body = {k: v for k, v in doc.items() if k != "checksum"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()


def file_digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def write_document(export_dir: str, doc: dict) -> None:
    """Adds the manifest of every file under ``export_dir`` and the checksum; writes atomically."""
    manifest = {}
    for base, _, files in os.walk(export_dir):
        for name in sorted(files):
            full = os.path.join(base, name)
            rel = os.path.relpath(full, export_dir).replace(os.sep, "/")
            if rel != DOCUMENT and not rel.endswith(".tmp"):
                manifest[rel] = file_digest(full)
    doc = dict(doc, format=FORMAT_NAME, version=FORMAT_VERSION, manifest=manifest)
    doc["checksum"] = _checksum(doc)
    tmp = os.path.join(export_dir, DOCUMENT + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, allow_nan=False)
    os.replace(tmp, os.path.join(export_dir, DOCUMENT))


def read_document(export_dir: str) -> dict:
    """The checked document; every file of the manifest is present and intact."""
    file = os.path.join(export_dir, DOCUMENT)
    if not os.path.isdir(export_dir):
        raise OSError(f"SavedModel file does not exist at: {export_dir}/{DOCUMENT}")
    try:
        with open(file, encoding="utf-8") as f:
            doc = json.load(f)
    except FileNotFoundError:
        raise OSError(f"SavedModel file does not exist at: {file}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SavedModelFormatError(f"{file}: invalid JSON (truncated or corrupt file?): "
                                    f"{e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT_NAME:
        raise SavedModelFormatError(f"{file}: not a SavedModel document (format should be "
                                    f"{FORMAT_NAME!r})")
    if doc.get("version") != FORMAT_VERSION:
        raise SavedModelFormatError(f"{file}: unsupported version {doc.get('version')!r}; "
                                    f"this version reads version {FORMAT_VERSION}")
    if doc.get("checksum") != _checksum(doc):
        raise SavedModelFormatError(f"{file}: the content does not match its checksum: the "
                                    "file was edited by hand or damaged. Save the model again.")
    manifest = doc.get("manifest")
    if not isinstance(manifest, dict):
        raise SavedModelFormatError(f"{file}: field 'manifest' should be an object")
    for rel, digest in manifest.items():
        path = os.path.join(export_dir, *rel.split("/"))
        if ".." in rel.split("/") or os.path.isabs(rel):
            raise SavedModelFormatError(f"{file}: manifest entry {rel!r} is outside the model")
        if not os.path.isfile(path):
            raise SavedModelFormatError(f"{path}: the file is missing (the SavedModel is "
                                        "incomplete)")
        if file_digest(path) != digest:
            raise SavedModelFormatError(f"{path}: the file does not match the digest recorded "
                                        f"in {DOCUMENT}: it is truncated, corrupt or was edited")
    return doc


def leaves(structure) -> list:
    """The leaves of a saved structure of lists, tuples and dicts (specs, values)."""
    if isinstance(structure, (list, tuple)):
        return [x for v in structure for x in leaves(v)]
    if isinstance(structure, dict):
        return [x for v in structure.values() for x in leaves(v)]
    return [structure]
