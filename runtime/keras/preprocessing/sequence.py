"""``tf.keras.preprocessing.sequence``."""
from runtime.keras.array_utils import pad_sequences  # noqa: F401
