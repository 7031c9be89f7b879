"""``tf.keras.preprocessing``: Keras 3's legacy namespace, for the helpers kept in it."""
from runtime.keras.dataset_utils import timeseries_dataset_from_array  # noqa: F401
from runtime.keras.preprocessing import sequence  # noqa: F401
