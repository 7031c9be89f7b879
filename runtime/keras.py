"""``tf.keras``: only what the tf.function guide uses of it, the optimizers."""
from runtime import optimizers  # noqa: F401
