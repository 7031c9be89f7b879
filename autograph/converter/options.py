"""What one conversion converts: TensorFlow's optional features, and how strictly.

Every entry point converts only the optional features asked for (none by default), as
TensorFlow does: ``tf.function(experimental_autograph_options=...)``,
``to_code``/``convert(experimental_optional_features=...)``. TensorFlow's strict mode
(``AUTOGRAPH_STRICT_CONVERSION=1``, what its own AutoGraph tests set) makes
``tf.function`` refuse what TensorFlow cannot convert (a loop's ``else``) and raise a
callee's conversion error instead of running the callee unconverted.
"""
from __future__ import annotations

import enum
import os
from dataclasses import dataclass


class Feature(enum.Enum):
    """``tf.autograph.experimental.Feature``: conversions that are off unless asked for.

    ``ASSERT_STATEMENTS``: ``assert`` becomes an Assert op on tensors. ``BUILTIN_FUNCTIONS``:
    ``print`` of tensors prints when the graph runs (else Python's print runs while
    tracing). ``LISTS``: a Python list appended to in staged control flow becomes a
    TensorArray. ``AUTO_CONTROL_DEPS``, ``EQUALITY_OPERATORS`` and ``NAME_SCOPES`` are
    accepted and always in effect here (stateful ops keep program order, tensors compare
    elementwise, nodes are named after their function).
    """

    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


def features(value) -> frozenset:
    """``experimental_autograph_options`` as a set: None, a Feature, or several of them."""
    if value is None:
        return frozenset()
    items = (value,) if isinstance(value, Feature) else tuple(value)
    for item in items:
        if not isinstance(item, Feature):
            raise TypeError(f"experimental_autograph_options takes tf.autograph.experimental."
                            f"Feature values, got {item!r}")
    return frozenset(items)


@dataclass(frozen=True)
class ConversionOptions:
    features: frozenset = frozenset()
    strict: bool = False  # TensorFlow's strict conversion mode (module docstring)

    def uses(self, feature: Feature) -> bool:
        return Feature.ALL in self.features or feature in self.features

    @classmethod
    def of_tf_function(cls, autograph_options=None) -> "ConversionOptions":
        """What ``tf.function(..., experimental_autograph_options=...)`` converts."""
        strict = os.environ.get("AUTOGRAPH_STRICT_CONVERSION", "0") not in ("", "0")
        return cls(features(autograph_options), strict=strict)


DEFAULT = ConversionOptions()
