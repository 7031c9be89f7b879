"""``tf.train``: checkpoints of Modules, variables and optimizers."""
from runtime.train.checkpoint import Checkpoint, CheckpointLoadStatus  # noqa: F401
from runtime.train.checkpoint_io import (CheckpointReader, list_variables,  # noqa: F401
                                         latest_checkpoint, load_checkpoint, load_variable)
from runtime.train.manager import CheckpointManager  # noqa: F401
from runtime.train.moving_averages import ExponentialMovingAverage  # noqa: F401
from runtime.train.checkpoint_state import (CheckpointOptions, checkpoints_iterator,  # noqa: F401
                                            get_checkpoint_state)
from runtime.train.example import (BytesList, Example, Feature, FeatureList,  # noqa: F401
                                   FeatureLists, Features, FloatList, Int64List,
                                   SequenceExample)
