"""``tf.VariableAggregation`` and ``tf.VariableSynchronization``: how a distributed variable
combines its replicas' updates and when it is synchronized (a leaf module, so that
``tf.Variable`` can take them without import cycles)."""
import enum


class VariableAggregationV2(enum.Enum):
    """How a distributed variable combines the updates of its replicas."""

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


VariableAggregation = VariableAggregationV2  # TensorFlow 2's name for it


class VariableSynchronization(enum.Enum):
    """When a distributed variable is synchronized across replicas."""

    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3
